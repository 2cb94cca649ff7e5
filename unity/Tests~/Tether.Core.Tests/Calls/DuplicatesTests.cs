using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Port of test/host/duplicates.test.ts: identical calls in flight (protocol.md §8.10).</summary>
    [TestFixture]
    public class DuplicatesTests
    {
        private EngineHarness _h;
        private RecordingObserver _a;
        private RecordingObserver _b;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        private void Editor(string policy, int heartbeatMs = 5000)
        {
            _h.AddGated("build", policy, stopOnCancel: true);
            _h.HeartbeatMs = heartbeatMs;
            _h.Life("A");
            _a = _h.Observer("a");
            _b = _h.Observer("b");
        }

        private System.Threading.Tasks.Task<JObject> Build(RecordingObserver by, string callId, string target = "linux") =>
            _h.Start(callId, "build", new JObject { ["target"] = target }, by);

        /// <summary>"one" from a runs; the identical "two" from b attaches to it.</summary>
        private (System.Threading.Tasks.Task<JObject> First, System.Threading.Tasks.Task<JObject> Second) SharedBuild()
        {
            var first = Build(_a, "one");
            _h.WaitForRuns(1);
            var second = Build(_b, "two");
            Assert.That((string)_h.Status("two")["attachedTo"], Is.EqualTo("one"));
            return (first, second);
        }

        [Test]
        public void AttachASecondIdenticalCallFromAnotherConnectionSharesTheOneExecution()
        {
            Editor("attach");
            var (first, second) = SharedBuild();
            var status = _h.Status("two");
            Assert.That((string)status["state"], Is.EqualTo("running"));
            Assert.That(status["startedAt"], Is.EqualTo(_h.Status("one")["startedAt"]));
            _h.Release("one");
            var r1 = Result(first);
            var r2 = Result(second);
            Assert.That(_h.Runs, Has.Count.EqualTo(1));
            Assert.That(r2["result"], Is.EqualTo(r1["result"]).Using<JToken>(JToken.DeepEquals));
            Assert.That((string)r2["callId"], Is.EqualTo("two"));
            Assert.That((string)r2["attachedTo"], Is.EqualTo("one"));
            Assert.That(r1["attachedTo"], Is.Null);
            Assert.That((string)_h.Status("two")["attachedTo"], Is.EqualTo("one"));
            // Other arguments are another operation.
            var other = Build(_a, "three", "windows");
            _h.WaitForRuns(2);
            _h.Release("three");
            Result(other);
        }

        [Test]
        public void AllowIdenticalCallsRunSeparately()
        {
            Editor("allow");
            var x = Build(_a, "x");
            var y = Build(_b, "y");
            _h.WaitForRuns(1);
            Assert.That((string)_h.Status("y")["state"], Is.EqualTo("queued"));
            _h.Release("x");
            _h.WaitForRuns(2);
            _h.Release("y");
            Result(x);
            Result(y);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:x", "A:y" }));
        }

        [Test]
        public void AllowTheRunningCallKeepsItsHeartbeatsWhileAnIdenticalOneWaits()
        {
            Editor("allow", 60);
            var x = Build(_a, "x");
            var y = Build(_a, "y");
            _h.WaitForRuns(1);
            _h.Changes.WaitUntil(() => _a.Heartbeats("x").Count >= 3, "three heartbeats for x");
            Assert.That(_a.Heartbeats("x").All(p => (string)p["state"] == "running"), Is.True);
            Assert.That(_a.Heartbeats("y").All(p => (string)p["state"] == "queued"), Is.True);
            _h.Release("x");
            _h.WaitForRuns(2);
            _h.Release("y");
            Result(x);
            Result(y);
        }

        [Test]
        public void RejectAnIdenticalCallIsRefusedWithDuplicateCallNamingTheOneInFlight()
        {
            Editor("reject");
            var x = Build(_a, "x");
            _h.WaitForRuns(1);
            var refused = Error(Build(_b, "y"));
            Assert.That(refused.Code, Is.EqualTo(ErrorCodes.DuplicateCall));
            Assert.That(refused.Data, Is.EqualTo(new JObject { ["callId"] = "y", ["inFlight"] = "x" }).Using<JToken>(JToken.DeepEquals));
            // Nothing journaled: y is unknown, and may be sent again once x is done.
            Assert.That(() => _h.Status("y"), Throws.InstanceOf<TetherException>());
            _h.Release("x");
            Result(x);
            var again = Build(_b, "y");
            _h.WaitForRuns(2);
            _h.Release("y");
            Result(again);
        }

        [Test]
        public void CancelsASharedCallOnlyWhenEveryRequesterHasCancelled()
        {
            Editor("attach");
            var (first, second) = SharedBuild();

            var afterFirst = _h.Cancel("one");
            Assert.That((string)afterFirst["state"], Is.EqualTo("running"));
            var withdrawn = Error(first);
            Assert.That(withdrawn.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That(withdrawn.Data, Is.EqualTo(new JObject { ["callId"] = "one", ["started"] = true, ["shared"] = true }).Using<JToken>(JToken.DeepEquals));
            Assert.That((string)_h.Status("two")["state"], Is.EqualTo("running"));

            _h.Cancel("two");
            var cancelled = Error(second);
            Assert.That(cancelled.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((string)cancelled.Data["state"], Is.EqualTo("cancelled"));
            Assert.That((bool)cancelled.Data["started"], Is.True);
            Assert.That((string)_h.Status("one")["state"], Is.EqualTo("cancelled"));
            Assert.That(_h.Runs, Has.Count.EqualTo(1));
        }

        [Test]
        public void AWithdrawnRequesterThatReattachesWithAttachOnlyStaysWithdrawnSoTheLastCancelStillStopsTheCall()
        {
            Editor("attach");
            var (first, second) = SharedBuild();
            _h.Cancel("two");
            Assert.That((bool)Error(second).Data["shared"], Is.True);
            // A client back after a dropped connection asks how its call stands: it stands withdrawn.
            var reattached = Error(_h.Start("two", "build", new JObject { ["target"] = "linux" }, _b, attachOnly: true));
            Assert.That(reattached.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((string)reattached.Data["callId"], Is.EqualTo("two"));
            Assert.That((bool)reattached.Data["shared"], Is.True);
            // So the other requester's cancel is the last one, and it stops the build.
            _h.Cancel("one");
            var stopped = Error(first);
            Assert.That(stopped.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)stopped.Data["started"], Is.True);
            Assert.That((string)_h.Status("one")["state"], Is.EqualTo("cancelled"));
            Assert.That(_h.Runs, Has.Count.EqualTo(1));
        }

        [Test]
        public void AWithdrawnRequesterThatAsksAgainWantsTheCallAgain()
        {
            Editor("attach");
            var (first, second) = SharedBuild();
            _h.Cancel("two");
            Error(second);
            var again = _h.Start("two", "build", new JObject { ["target"] = "linux" }, _b);
            // "two" is a requester again, so "one" cancelling only withdraws.
            _h.Cancel("one");
            Assert.That((bool)Error(first).Data["shared"], Is.True);
            _h.Release("one");
            Assert.That((string)Result(again)["attachedTo"], Is.EqualTo("one"));
            Assert.That((string)_h.Status("one")["state"], Is.EqualTo("completed"));
        }

        [Test]
        public void AWithdrawnRequesterThatKeepsWaitingElsewhereStillGetsTheResult()
        {
            Editor("attach");
            var (first, second) = SharedBuild();
            _h.Cancel("two");
            Assert.That((bool)Error(second).Data["shared"], Is.True);
            _h.Release("one");
            Assert.That((string)Result(first)["result"]["content"][0]["text"], Is.EqualTo("done"));
            var two = _h.Status("two");
            Assert.That((string)two["state"], Is.EqualTo("cancelled"));
            Assert.That((bool)two["error"]["data"]["shared"], Is.True);
            Assert.That((string)two["error"]["data"]["callId"], Is.EqualTo("two"));
        }
    }
}
