using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Progress and heartbeats (protocol.md §7.7, §8.9), and who hears them.</summary>
    [TestFixture]
    public class HeartbeatTests
    {
        private EngineHarness _h;

        [SetUp]
        public void SetUp() => _h = new EngineHarness();

        [TearDown]
        public void TearDown() => _h.Dispose();

        [Test]
        public void KeepsSendingHeartbeatsAndAnsweringWhileTheMainThreadIsBlocked()
        {
            _h.HeartbeatMs = 60;
            // A tool that blocks the main thread, as a build does, and polls its cancellation.
            _h.Tools["block"] = TestTools.Make("block", (args, ctx) =>
            {
                _h.Ran(ctx.CallId);
                while (!ctx.Cancellation.WaitHandle.WaitOne(5000)) { }
                ctx.ThrowIfCancelled();
                return TestTools.Done("unreachable");
            });
            _h.Life("A");
            var c1 = _h.Observer("c1");
            var call = _h.Start("b", "block", by: c1);
            _h.WaitForRuns(1);
            _h.Changes.WaitUntil(() => c1.Heartbeats("b").Count >= 3, "three heartbeats while the main thread is blocked");
            Assert.That(c1.Heartbeats("b").All(p => (string)p["state"] == "running"), Is.True);
            // calls/status and calls/cancel are answered from the loop meanwhile.
            Assert.That((string)_h.Status("b")["state"], Is.EqualTo("running"));
            Assert.That((string)_h.Cancel("b")["state"], Is.EqualTo("running"));
            var error = Error(call);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)error.Data["started"], Is.True);
        }

        [Test]
        public void SendsHeartbeatsForQueuedCallsAndNothingOnceACallIsFinal()
        {
            _h.HeartbeatMs = 60;
            _h.AddGated("hold");
            _h.Life("A");
            var c1 = _h.Observer("c1");
            var first = _h.Start("first", "hold", new JObject { ["n"] = 1 }, c1);
            var second = _h.Start("second", "hold", new JObject { ["n"] = 2 }, c1);
            _h.Changes.WaitUntil(() => c1.Heartbeats("second").Count >= 2, "heartbeats of the queued call");
            Assert.That(c1.Heartbeats("second").All(p => (string)p["state"] == "queued" && (long)p["elapsedMs"] >= 0), Is.True);
            _h.Release("first");
            Result(first);
            var heardOfFirst = c1.ProgressSeen.Count(p => (string)p["callId"] == "first");
            _h.WaitForRuns(2);
            _h.Changes.WaitUntil(() => c1.Heartbeats("second").Count(p => (string)p["state"] == "running") >= 3, "heartbeats of the running call");
            Assert.That(c1.ProgressSeen.Count(p => (string)p["callId"] == "first"), Is.EqualTo(heardOfFirst));
            _h.Release("second");
            Result(second);
        }

        [Test]
        public void TellsACallQueuedBehindAnotherSoAtOnceAndThatItStartedWhenItDoes()
        {
            _h.HeartbeatMs = 60_000;
            _h.AddGated("hold");
            _h.Life("A");
            var c1 = _h.Observer("c1");
            var first = _h.Start("first", "hold", new JObject { ["tag"] = "a" }, c1);
            _h.WaitForRuns(1);
            var second = _h.Start("second", "hold", new JObject { ["tag"] = "b" }, c1);
            var notices = c1.ProgressSeen;
            // The call that started at once said nothing; the one behind it says "queued" at once.
            Assert.That(notices.Select(p => (string)p["callId"] + ":" + (string)p["state"] + ":" + (bool)p["heartbeat"]), Is.EqualTo(new[] { "second:queued:False" }));
            _h.Release("first");
            _h.WaitForRuns(2);
            _h.Changes.WaitUntil(() => c1.ProgressSeen.Any(p => (string)p["state"] == "running"), "the running notice");
            var running = c1.ProgressSeen.Last();
            Assert.That((string)running["callId"], Is.EqualTo("second"));
            Assert.That((bool)running["heartbeat"], Is.False);
            _h.Release("second");
            Result(first);
            Result(second);
        }

        [Test]
        public void SendsToolProgressInTheProtocolsShapeToEveryListenerUnderItsOwnCallIdAndRepeatsItInHeartbeats()
        {
            _h.HeartbeatMs = 80;
            var attached = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            var finish = new TaskCompletionSource<object>(TaskCreationOptions.RunContinuationsAsynchronously);
            _h.Tools["build"] = TestTools.Make("build", async (args, ctx) =>
            {
                _h.Ran(ctx.CallId);
                await attached.Task;
                ctx.Progress(40, 100, "Building Android: 40%");
                return await finish.Task;
            }, execution: new JObject { ["longRunning"] = true }); // long-running: identical calls share it
            _h.Life("A");
            var c1 = _h.Observer("c1");
            var c2 = _h.Observer("c2");
            var starter = _h.Start("9b2f", "build", new JObject { ["target"] = "Android" }, c1);
            _h.WaitForRuns(1);
            var alias = _h.Start("twin", "build", new JObject { ["target"] = "Android" }, c2);
            attached.SetResult(true);
            _h.Changes.WaitUntil(() => c2.ProgressSeen.Any(p => p["progress"] != null && !(bool)p["heartbeat"]), "the tool's progress");
            var reported = c1.ProgressSeen.First(p => p["progress"] != null && !(bool)p["heartbeat"]);
            Assert.That(reported.Properties().Select(p => p.Name), Is.EqualTo(new[] { "callId", "state", "heartbeat", "elapsedMs", "progress", "total", "message" }));
            Assert.That((string)reported["callId"], Is.EqualTo("9b2f"));
            Assert.That((string)reported["state"], Is.EqualTo("running"));
            Assert.That(reported["progress"], Is.EqualTo(new JValue(40L)).Using<JToken>(JToken.DeepEquals));
            Assert.That(reported["total"], Is.EqualTo(new JValue(100L)).Using<JToken>(JToken.DeepEquals));
            Assert.That((string)reported["message"], Is.EqualTo("Building Android: 40%"));
            Assert.That(reported["elapsedMs"].Type, Is.EqualTo(JTokenType.Integer));
            Assert.That((string)c2.ProgressSeen.First(p => p["progress"] != null)["callId"], Is.EqualTo("twin"));
            _h.Changes.WaitUntil(() => c1.Heartbeats("9b2f").Any(p => p["progress"] != null), "a heartbeat after the progress");
            var beat = c1.Heartbeats("9b2f").Last();
            Assert.That((string)beat["message"], Is.EqualTo("Building Android: 40%"));
            Assert.That((double)beat["progress"], Is.EqualTo(40));
            finish.SetResult("built");
            Result(starter);
            Result(alias);
        }

        [Test]
        public void LetsAClientAbandonItsRequestWithoutCancellingTheCallWhichRunsOnAndReplaysItsResult()
        {
            _h.HeartbeatMs = 60;
            _h.AddGated("long");
            _h.Life("A");
            var c1 = _h.Observer("c1");
            var abandon = new CancellationTokenSource();
            var abandoned = _h.Start("a", "long", by: c1, abandoned: abandon.Token);
            _h.WaitForRuns(1);
            // The client stops waiting (notifications/cancelled for its request): not calls/cancel.
            abandon.Cancel();
            var error = Error(abandoned);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That(error.Data["state"], Is.Null, "it ends the request, not the call");
            Assert.That((string)_h.Status("a")["state"], Is.EqualTo("running"));
            // The connection stopped hearing about "a": an identical call on it attaches to the same
            // execution, and while that one hears two heartbeats, "a" hears none.
            var before = c1.Heartbeats("a").Count;
            var twin = _h.Start("twin", "long", by: c1);
            _h.Changes.WaitUntil(() => c1.Heartbeats("twin").Count >= 2, "two heartbeats for twin");
            Assert.That(c1.Heartbeats("a").Count, Is.EqualTo(before));
            _h.Release("a");
            var again = Result(_h.Start("a", "long", by: c1));
            Assert.That((string)again["result"]["content"][0]["text"], Is.EqualTo("done"));
            Assert.That((string)Result(twin)["attachedTo"], Is.EqualTo("a"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:a" }));
        }

        [Test]
        public void StopsTellingADetachedConnectionAboutCallsWhichCarryOn()
        {
            _h.HeartbeatMs = 60;
            _h.AddGated("long");
            _h.Life("A");
            var gone = _h.Observer("c1");
            var other = _h.Observer("c2");
            var call = _h.Start("k", "long", by: gone);
            _h.WaitForRuns(1);
            _h.Changes.WaitUntil(() => gone.Heartbeats("k").Count >= 1, "a heartbeat");
            _h.OnLoop(() => _h.Engine.Detach(gone));
            var heard = gone.ProgressSeen.Count;
            var back = _h.Start("k", "long", by: other, attachOnly: true);
            _h.Changes.WaitUntil(() => other.Heartbeats("k").Count >= 2, "heartbeats for the connection that re-attached");
            Assert.That(gone.ProgressSeen.Count, Is.EqualTo(heard));
            _h.Release("k");
            Assert.That((bool)Result(back)["replayed"], Is.False);
            _ = call;
        }
    }
}
