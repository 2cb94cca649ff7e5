using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>What a running tool can do through its context (logs, elicitation, sampling), and where it runs.</summary>
    [TestFixture]
    public class ToolContextTests
    {
        private EngineHarness _h;
        private TaskCompletionSource<bool> _attached;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _attached = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            // Waits until the test says everyone attached, then asks its question and returns the answer.
            _h.Tools["ask"] = TestTools.Make("ask", async (args, ctx) =>
            {
                _h.Ran(ctx.CallId);
                await _attached.Task;
                ctx.Log("warning", "Texture compression fell back to ETC2", "BuildPipeline");
                var answer = await ctx.Elicit("Overwrite Assets/Scenes/Main.unity?", new JObject { ["type"] = "object" });
                return answer;
            }, execution: new JObject { ["longRunning"] = true }); // long-running: identical calls share it
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        [Test]
        public void AsksTheMostRecentlyAttachedCapableConnectionUnderTheCallIdItAttachedBy()
        {
            _h.Life("A");
            var c1 = _h.Observer("c1", canElicit: true);
            var c2 = _h.Observer("c2", canElicit: true);
            var c3 = _h.Observer("c3");
            var answered = JObject.Parse("{\"action\":\"accept\",\"content\":{\"confirm\":true}}");
            c2.OnElicit = (callId, message, token) => Task.FromResult(answered);
            var starter = _h.Start("k", "ask", null, c1);
            _h.WaitForRuns(1);
            var alias = _h.Start("k2", "ask", null, c2); // an identical call: shares k's execution
            var plain = _h.Start("k", "ask", null, c3); // attached last, but cannot answer
            _attached.SetResult(true);
            var result = Result(starter);
            Assert.That(result["result"]["structuredContent"], Is.EqualTo(answered).Using<JToken>(JToken.DeepEquals));
            Assert.That(c2.Questions, Is.EqualTo(new[] { ("k2", "Overwrite Assets/Scenes/Main.unity?") }));
            Assert.That(c1.Questions, Is.Empty);
            Result(alias);
            Result(plain);
            // Logs reached every listener under its own callId.
            Assert.That(c1.LogsSeen[0], Is.EqualTo(new JObject { ["callId"] = "k", ["level"] = "warning", ["data"] = "Texture compression fell back to ETC2", ["logger"] = "BuildPipeline" }).Using<JToken>(JToken.DeepEquals));
            Assert.That((string)c2.LogsSeen[0]["callId"], Is.EqualTo("k2"));
            Assert.That((string)c3.LogsSeen[0]["callId"], Is.EqualTo("k"));
        }

        [Test]
        public void FailsTheQuestionWithNoClientWhenNoAttachedConnectionCanAnswer()
        {
            _h.Life("A");
            var call = _h.Start("k", "ask", null, _h.Observer("c1"));
            _attached.SetResult(true);
            var error = Error(call);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NoClient));
            Assert.That((string)error.Data["callId"], Is.EqualTo("k"));
            Assert.That((string)error.Data["state"], Is.EqualTo("failed"));
        }

        [Test]
        public void CancelsAPendingQuestionWhenTheCallIsCancelled()
        {
            _h.Life("A");
            var c1 = _h.Observer("c1", canElicit: true);
            var call = _h.Start("k", "ask", null, c1);
            _attached.SetResult(true);
            _h.Changes.WaitUntil(() => c1.Questions.Count == 1, "the question");
            _h.Cancel("k");
            var error = Error(call);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)error.Data["started"], Is.True);
            Assert.That(c1.CancelledQuestions, Is.EqualTo(1));
        }

        [Test]
        public void RoutesSamplingToACapableConnection()
        {
            _h.Tools["sample"] = TestTools.Make("sample", async (args, ctx) =>
                (JObject)await ctx.Sample(new JObject { ["maxTokens"] = 20 }));
            _h.Life("A");
            var capable = new RecordingObserver("c1", _h.Changes, canSample: true);
            var result = Result(_h.Start("s", "sample", null, capable));
            Assert.That((string)result["result"]["structuredContent"]["callId"], Is.EqualTo("s"));
            Assert.That(Error(_h.Start("s2", "sample", null, _h.Observer("c2"))).Code, Is.EqualTo(ErrorCodes.NoClient));
        }

        [Test]
        public void RunsAMainThreadToolAndConvertsItsResultOnTheMainThreadAndOthersOffIt()
        {
            int invokedOn = 0, convertedOn = 0, offThread = 0;
            _h.Tools["where"] = TestTools.Make("where", async (args, ctx) =>
            {
                invokedOn = Thread.CurrentThread.ManagedThreadId;
                await Task.Yield(); // resumes on the main thread, its context
                return "here";
            }, toResult: value => { convertedOn = Thread.CurrentThread.ManagedThreadId; return TestTools.ToResult(value); });
            _h.Tools["pool"] = TestTools.Make("pool", (args, ctx) =>
            {
                offThread = Thread.CurrentThread.ManagedThreadId;
                return TestTools.Done("there");
            }, execution: new JObject { ["mainThread"] = false });
            _h.Life("A");
            Result(_h.Start("w", "where"));
            Result(_h.Start("p", "pool"));
            Assert.That(invokedOn, Is.EqualTo(_h.Main.ManagedThreadId));
            Assert.That(convertedOn, Is.EqualTo(_h.Main.ManagedThreadId));
            Assert.That(offThread, Is.Not.EqualTo(_h.Main.ManagedThreadId));
        }
    }
}
