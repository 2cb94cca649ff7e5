using System;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Cancellation, deadlines and how a tool's end becomes the call's state (protocol.md §7.6, §8.1, §8.6).</summary>
    [TestFixture]
    public class CancellationTests
    {
        private EngineHarness _h;

        [SetUp]
        public void SetUp() => _h = new EngineHarness();

        [TearDown]
        public void TearDown() => _h.Dispose();

        [Test]
        public void CancelsAQueuedCallSoItNeverRunsAndSignalsARunningOne()
        {
            _h.AddGated("wait", stopOnCancel: true);
            _h.Life("A");
            var running = _h.Start("r", "wait", new JObject { ["tag"] = "r" });
            var queued = _h.Start("q", "wait", new JObject { ["tag"] = "q" });
            _h.WaitForRuns(1);
            var status = _h.Status("q");
            Assert.That((string)status["state"], Is.EqualTo("queued"));
            Assert.That((int)status["position"], Is.EqualTo(0));
            Assert.That((string)_h.Cancel("q", "User changed their mind")["state"], Is.EqualTo("cancelled"));
            var q = Error(queued);
            Assert.That(q.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That(q.Data, Is.EqualTo(new JObject { ["callId"] = "q", ["started"] = false, ["state"] = "cancelled", ["replayed"] = false }).Using<JToken>(JToken.DeepEquals));
            Assert.That(q.Message, Is.EqualTo("Call \"q\" was cancelled before it started: User changed their mind"));
            // The tool decides: the status right after the cancel is still "running".
            Assert.That((string)_h.Cancel("r")["state"], Is.EqualTo("running"));
            var r = Error(running);
            Assert.That(r.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)r.Data["started"], Is.True);
            Assert.That(r.Message, Does.EndWith("Cancelled by the client."));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:r" }));
            // A final call is unchanged by a cancel.
            Assert.That((string)_h.Cancel("r")["state"], Is.EqualTo("cancelled"));
            Assert.That(() => _h.Cancel("nope"), Throws.InstanceOf<TetherException>().With.Property("Code").EqualTo(ErrorCodes.UnknownCall));
        }

        [Test]
        public void LetsARunningToolThatFinishesAnywayComplete()
        {
            _h.AddGated("stubborn");
            _h.Life("A");
            var call = _h.Start("s", "stubborn");
            _h.WaitForRuns(1);
            _h.Cancel("s");
            _h.Release("s");
            Assert.That((string)Result(call)["result"]["content"][0]["text"], Is.EqualTo("done"));
            Assert.That((string)_h.Status("s")["state"], Is.EqualTo("completed"));
        }

        [Test]
        public void ShowsAToolThatFirstLooksAtItsSignalAfterACancelThatTheCallWasCancelled()
        {
            var gate = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            _h.Tools["late_look"] = TestTools.Make("late_look", async (args, ctx) =>
            {
                _h.Ran(ctx.CallId);
                await gate.Task;
                ctx.ThrowIfCancelled();
                return "not cancelled";
            });
            _h.Life("A");
            var call = _h.Start("l", "late_look");
            _h.WaitForRuns(1);
            _h.Cancel("l");
            gate.SetResult(true);
            var error = Error(call);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)error.Data["started"], Is.True);
        }

        [Test]
        public void RecordsAnyErrorAToolEndsWithAfterTheSignalAsTheCancellation()
        {
            _h.Tools["messy"] = TestTools.Make("messy", (args, ctx) =>
            {
                _h.Ran(ctx.CallId);
                var done = new TaskCompletionSource<object>();
                ctx.Cancellation.Register(() => done.SetException(new InvalidOperationException("socket torn down")));
                return done.Task;
            });
            _h.Life("A");
            var call = _h.Start("m", "messy");
            _h.WaitForRuns(1);
            _h.Cancel("m");
            Assert.That(Error(call).Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((string)_h.Status("m")["state"], Is.EqualTo("cancelled"));
        }

        [Test]
        public void EndsACallCancelledWhenTheToolRaisesCancelledItself()
        {
            _h.Tools["quitter"] = TestTools.Make("quitter", (args, ctx) =>
                throw new TetherException(ErrorCodes.Cancelled, "The user closed the dialog.", new JObject { ["started"] = true }));
            _h.Life("A");
            var error = Error(_h.Start("c", "quitter"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((string)error.Data["state"], Is.EqualTo("cancelled"));
        }

        [Test]
        public void MakesAnUntypedExceptionToolFailedAndKeepsATypedOne()
        {
            _h.Tools["boom"] = TestTools.Make("boom", (args, ctx) => Task.FromException<object>(new InvalidOperationException("the scene is locked")));
            _h.Tools["sync_boom"] = TestTools.Make("sync_boom", (args, ctx) => throw new NullReferenceException("no camera"));
            _h.Tools["outside"] = TestTools.Make("outside", (args, ctx) =>
                throw new TetherException(ErrorCodes.PathOutsideProject, "\"/etc\" is outside the project.", new JObject { ["path"] = "/etc" }));
            _h.Life("A");
            var boom = Error(_h.Start("b", "boom"));
            Assert.That(boom.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(boom.Message, Is.EqualTo("Tool \"boom\" failed: the scene is locked"));
            Assert.That((string)boom.Data["tool"], Is.EqualTo("boom"));
            Assert.That((string)boom.Data["state"], Is.EqualTo("failed"));
            Assert.That(Error(_h.Start("s", "sync_boom")).Message, Does.Contain("no camera"));
            var outside = Error(_h.Start("o", "outside"));
            Assert.That(outside.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
            Assert.That(outside.Data, Is.EqualTo(new JObject { ["path"] = "/etc", ["callId"] = "o", ["state"] = "failed", ["replayed"] = false }).Using<JToken>(JToken.DeepEquals));
            var status = _h.Status("o");
            Assert.That((string)status["error"]["code"], Is.EqualTo("PATH_OUTSIDE_PROJECT"));
            Assert.That((string)status["error"]["data"]["callId"], Is.EqualTo("o"));
            // A replay rebuilds the same error.
            var replay = Error(_h.Start("o", "outside", attachOnly: true));
            Assert.That(replay.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
            Assert.That((bool)replay.Data["replayed"], Is.True);
        }

        [Test]
        public void FailsACallWhoseResultCannotBeReadEvenIfItWasCancelled()
        {
            var gate = new TaskCompletionSource<object>(TaskCreationOptions.RunContinuationsAsynchronously);
            _h.Tools["bad_result"] = TestTools.Make("bad_result", (args, ctx) => { _h.Ran(ctx.CallId); return gate.Task; }, toResult: value =>
                throw new TetherException(ErrorCodes.ToolFailed, "Tool \"bad_result\" ran, but returned a result MCP clients cannot read.", new JObject { ["tool"] = "bad_result" }));
            _h.Life("A");
            var call = _h.Start("x", "bad_result");
            _h.WaitForRuns(1);
            _h.Cancel("x");
            gate.SetResult("whatever");
            var error = Error(call);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That((string)error.Data["state"], Is.EqualTo("failed"));
        }

        [Test]
        public void CancelsACallThatRunsPastItsDeadlineWithDeadlineExceeded()
        {
            _h.AddGated("slow", stopOnCancel: true);
            _h.Life("A");
            var error = Error(_h.Start("d", "slow", deadlineMs: 50));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.DeadlineExceeded));
            Assert.That(error.Data, Is.EqualTo(new JObject { ["callId"] = "d", ["deadlineMs"] = 50, ["state"] = "cancelled", ["replayed"] = false }).Using<JToken>(JToken.DeepEquals));
            Assert.That(error.Message, Does.Contain("50 ms deadline"));
            Assert.That((string)_h.Status("d")["error"]["code"], Is.EqualTo("DEADLINE_EXCEEDED"));
        }

        [Test]
        public void GivesUpAToolThatIgnoresItsDeadlineAsUnknownAndServesTheNextCall()
        {
            // A tool that never heeded its signal held its requester, and every call queued behind
            // it, for ever: nothing else ran on the editor again.
            _h.DeadlineGraceMs = 100;
            _h.AddGated("stubborn");
            _h.AddGated("next");
            _h.Life("A");
            var stubborn = _h.Start("s", "stubborn", deadlineMs: 50);
            var next = _h.Start("n", "next");
            var error = Error(stubborn);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.OutcomeUnknown));
            Assert.That((string)error.Data["state"], Is.EqualTo("interrupted"));
            Assert.That((long)error.Data["deadlineMs"], Is.EqualTo(50));
            Assert.That((long)error.Data["graceMs"], Is.EqualTo(100));
            Assert.That(error.Message, Does.Contain("did not stop within 100 ms of its 50 ms deadline").And.Contain("check the editor"));
            _h.WaitForRuns(2);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:s", "A:n" }), "the next call ran though the stubborn tool never returned");
            // When it does end, late, its outcome is not taken for the call's.
            _h.Release("s");
            _h.Release("n");
            Assert.That(OutcomeOf(next), Is.EqualTo("completed"));
            Assert.That((string)_h.Status("s")["state"], Is.EqualTo("interrupted"));
        }

        [Test]
        public void ACallWaitingForAMainThreadStillHeldIsNotGivenUpItsDeadlineCountsFromWhenItBegins()
        {
            // Handed to a main thread still held (by a tool given up past its deadline, a long import),
            // it was given up in turn, its outcome unknown, and ran once the main thread was free.
            _h.HeartbeatMs = 100;
            _h.DeadlineGraceMs = 100;
            _h.AddGated("slow", stopOnCancel: true);
            _h.Life("A");
            var observer = _h.Observer("c1");
            var busy = _h.Main.Block();
            var waiting = _h.Start("w", "slow", by: observer, deadlineMs: 50);
            // Four heartbeats: longer than its deadline and the grace together.
            _h.Changes.WaitUntil(() => observer.Heartbeats("w").Count >= 4, "four heartbeats of the waiting call");
            Assert.That(waiting.IsCompleted, Is.False, "not given up while it has not begun");
            Assert.That(_h.Runs, Is.Empty);
            busy.Dispose();
            var error = Error(waiting);
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.DeadlineExceeded), "its deadline counted from when it began, and it stopped");
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:w" }));
        }

        [Test]
        public void TakesTheDeadlineFromTheToolThenTheHostWhenTheCallSetsNone()
        {
            _h.Tools["timed"] = TestTools.Make("timed", (args, ctx) =>
            {
                var stopped = new TaskCompletionSource<object>();
                ctx.Cancellation.Register(() => stopped.SetException(ctx.CancellationReason));
                return stopped.Task;
            }, execution: new JObject { ["deadlineMs"] = 40 });
            _h.AddGated("plain", stopOnCancel: true);
            _h.DefaultDeadlineMs = 60;
            _h.Life("A");
            Assert.That((long)Error(_h.Start("t", "timed")).Data["deadlineMs"], Is.EqualTo(40));
            Assert.That((long)Error(_h.Start("p", "plain")).Data["deadlineMs"], Is.EqualTo(60));
        }

        [Test]
        public void CountsRunningTimeOnlyTowardTheDeadline()
        {
            _h.HeartbeatMs = 100;
            _h.AddGated("blocker");
            _h.Tools["quick"] = TestTools.Make("quick", (args, ctx) =>
            {
                var quick = new TaskCompletionSource<object>();
                ctx.Cancellation.Register(() => quick.TrySetException(ctx.CancellationReason));
                // Done at once unless the deadline already fired.
                if (ctx.CancellationReason == null) quick.TrySetResult("in time");
                return quick.Task;
            });
            _h.Life("A");
            var observer = _h.Observer("c1");
            var blocker = _h.Start("b", "blocker", by: observer);
            _h.WaitForRuns(1);
            var queued = _h.Start("q", "quick", by: observer, deadlineMs: 150);
            // Queued for longer than its deadline (two heartbeats 100 ms apart)...
            _h.Changes.WaitUntil(() => observer.Heartbeats("q").Count >= 2, "two heartbeats of the queued call");
            _h.Release("b");
            Result(blocker);
            // ...and still in time, since its deadline counts from the moment it left the queue.
            Assert.That((string)Result(queued)["result"]["content"][0]["text"], Is.EqualTo("in time"));
        }
    }
}
