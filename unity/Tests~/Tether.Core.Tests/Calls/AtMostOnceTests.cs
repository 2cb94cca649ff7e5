using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>protocol.md §7.4 and §8.2: a callId names one execution, whatever the number of requests and lives.</summary>
    [TestFixture]
    public class AtMostOnceTests
    {
        private EngineHarness _h;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _h.AddGated("build");
            _h.Tools["look"] = TestTools.Make("look", (args, ctx) => { _h.Ran(ctx.CallId); return TestTools.Done("seen"); }, new JObject { ["readOnlyHint"] = true });
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        private static JObject Linux => JObject.Parse("{\"target\":\"linux\",\"options\":{\"dev\":true,\"level\":1}}");

        [Test]
        public void RunsACallOnceForConcurrentRepeatsOfItsCallIdAndReplaysItOnceFinal()
        {
            _h.Life("A");
            var a = _h.Observer("c1");
            var b = _h.Observer("c2");
            var first = _h.Start("k", "build", Linux, a);
            _h.WaitForRuns(1);
            // The same call, its keys in another order and 1 written as 1.0, from two connections.
            var sameArgs = JObject.Parse("{\"options\":{\"level\":1.0,\"dev\":true},\"target\":\"linux\"}");
            var second = _h.Start("k", "build", sameArgs, b);
            var third = _h.Start("k", "build", Linux, a, attachOnly: true);
            _h.Release("k");
            foreach (var call in new[] { first, second, third })
            {
                var result = Result(call);
                Assert.That((string)result["callId"], Is.EqualTo("k"));
                Assert.That((bool)result["replayed"], Is.False);
                Assert.That((string)result["result"]["content"][0]["text"], Is.EqualTo("done"));
                Assert.That(result["startedAt"].Type, Is.EqualTo(JTokenType.Integer));
                Assert.That((long)result["finishedAt"], Is.GreaterThanOrEqualTo((long)result["startedAt"]));
            }
            var replay = Result(_h.Start("k", "build", Linux, b));
            Assert.That((bool)replay["replayed"], Is.True);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:k" }));
        }

        [Test]
        public void ReplaysAfterARestoreFromDiskWithoutRunningAgain()
        {
            _h.Life("A");
            var first = _h.Start("k", "build", Linux);
            _h.WaitForRuns(1);
            _h.Release("k");
            Result(first);

            _h.Life("B");
            var replay = Result(_h.Start("k", "build", Linux, attachOnly: true));
            Assert.That((bool)replay["replayed"], Is.True);
            Assert.That((string)replay["result"]["content"][0]["text"], Is.EqualTo("done"));
            Assert.That((bool)Result(_h.Start("k", "build", Linux))["replayed"], Is.True);
            Assert.That((string)_h.Status("k")["state"], Is.EqualTo("completed"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:k" }));
        }

        [Test]
        public void RefusesARepeatWithAnotherToolOrOtherArgumentsWithCallIdConflict()
        {
            _h.Life("A");
            var first = _h.Start("k", "build", Linux);
            _h.WaitForRuns(1);
            foreach (var conflicting in new[]
            {
                _h.Start("k", "build", JObject.Parse("{\"target\":\"ios\"}")),
                _h.Start("k", "look", Linux),
                _h.Start("k", "build", JObject.Parse("{\"target\":\"ios\"}"), attachOnly: true),
            })
            {
                var error = Error(conflicting);
                Assert.That(error.Code, Is.EqualTo(ErrorCodes.CallIdConflict));
                Assert.That(error.Data, Is.EqualTo(new JObject { ["callId"] = "k", ["tool"] = "build" }).Using<JToken>(JToken.DeepEquals));
            }
            _h.Release("k");
            Assert.That((bool)Result(first)["replayed"], Is.False);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:k" }));
        }

        [Test]
        public void AnswersAttachOnlyForAnUnknownCallIdWithUnknownCallAndStartsNothing()
        {
            _h.Life("A");
            var error = Error(_h.Start("lost", "build", Linux, attachOnly: true));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.UnknownCall));
            Assert.That(error.Data, Is.EqualTo(new JObject { ["callId"] = "lost" }).Using<JToken>(JToken.DeepEquals));
            Assert.That(() => _h.Status("lost"), Throws.InstanceOf<TetherException>().With.Property("Code").EqualTo(ErrorCodes.UnknownCall));
            Assert.That(_h.Runs, Is.Empty);
            // The callId was never used: it can start the call now.
            var call = _h.Start("lost", "build", Linux);
            _h.WaitForRuns(1);
            _h.Release("lost");
            Assert.That((bool)Result(call)["replayed"], Is.False);
        }

        [Test]
        public void JournalsNothingForAnUnknownToolOrInvalidArgumentsSoTheCallIdCanBeSentAgain()
        {
            _h.Life("A");
            var unknown = Error(_h.Start("k", "biuld", Linux));
            Assert.That(unknown.Code, Is.EqualTo(ErrorCodes.UnknownTool));
            Assert.That(unknown.Data["suggestions"].Values<string>(), Does.Contain("build"));
            Assert.That((string)unknown.Data["tool"], Is.EqualTo("biuld"));
            var invalid = Error(_h.Start("k", "build", JObject.Parse("{\"bad\":1}")));
            Assert.That(invalid.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)invalid.Data["field"], Is.EqualTo("bad"));
            Assert.That(() => _h.Status("k"), Throws.InstanceOf<TetherException>());
            var fixedCall = _h.Start("k", "build", Linux);
            _h.WaitForRuns(1);
            _h.Release("k");
            Assert.That((bool)Result(fixedCall)["replayed"], Is.False);
        }

        [Test]
        public void RefusesArgumentsNestedTooDeeplyToFingerprintAsInvalidArguments()
        {
            _h.Life("A");
            JToken deep = new JArray();
            for (var i = 0; i < CanonicalJson.MaxDepth + 10; i++) deep = new JArray(deep);
            var error = Error(_h.Start("k", "build", new JObject { ["deep"] = deep }));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo(""));
        }

        [Test]
        public void JournalsReadOnlyCallsInMemoryOnly()
        {
            _h.Life("A");
            var result = Result(_h.Start("r1", "look"));
            Assert.That((string)result["result"]["content"][0]["text"], Is.EqualTo("seen"));
            Assert.That((string)_h.Status("r1")["state"], Is.EqualTo("completed"));
            Assert.That(File.ReadAllText(_h.JournalPath), Does.Not.Contain("r1"));
            Assert.That((bool)Result(_h.Start("r1", "look"))["replayed"], Is.True);
            // A new life has forgotten it: running a read-only call again is harmless.
            _h.Life("B");
            Assert.That(Error(_h.Start("r1", "look", attachOnly: true)).Code, Is.EqualTo(ErrorCodes.UnknownCall));
        }

        [Test]
        public void JournalsTheResultBeforeALoopDrainedAtOnceByAReloadGoesAway()
        {
            _h.Tools["quick"] = TestTools.Make("quick", (args, ctx) => TestTools.Done("fast"));
            _h.Life("A");
            _h.Start("q", "quick");
            // The tool ran and posted its outcome from its continuation; the reload drains the loop now.
            _h.OnLoop(() => true);
            _h.Main.Drain();
            _h.Loop.Dispose();
            var stored = new FileJournalStore(_h.JournalPath).Load().Single(e => e.CallId == "q");
            Assert.That(stored.State, Is.EqualTo(CallStates.Completed));
            Assert.That((string)stored.Result["content"][0]["text"], Is.EqualTo("fast"));
        }
    }
}
