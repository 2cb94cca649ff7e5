using System.Collections.Generic;
using System.Diagnostics;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Port of test/host/restore.test.ts: lives of one editor over one journal (protocol.md §8.5, §9).</summary>
    [TestFixture]
    public class RestoreTests
    {
        private EngineHarness _h;
        /// <summary>What every watched callId's state was as each run started.</summary>
        private readonly List<Dictionary<string, string>> _seen = new List<Dictionary<string, string>>();
        private string[] _watch = new string[0];

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _seen.Clear();
            _watch = new string[0];
            // Long-running, with side effects (identical calls share one execution); runs until released.
            _h.AddGated("build");
            var gated = _h.Tools["build"];
            _h.Tools["build"] = TestTools.Make("build", (args, ctx) =>
            {
                // On the main thread; asking the loop is fine (the loop never waits for the main thread).
                var states = _watch.ToDictionary(id => id, id => (string)_h.OnLoop(() => _h.Engine.Status(id))["state"]);
                if (states.Count > 0) lock (_seen) _seen.Add(states);
                return gated.Invoke(args, ctx);
            }, execution: new JObject { ["longRunning"] = true });
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        private Task<JObject> Build(string callId, string target, string by = "c1") =>
            _h.Start(callId, "build", new JObject { ["target"] = target }, _h.Observer(by));

        private void Life(string label, int graceMs = 0, params string[] watch)
        {
            _watch = watch;
            _h.RequeueGraceMs = graceMs;
            _h.Life(label);
        }

        [Test]
        public void HasARequeuedCallsAliasesBackBeforeItStartsSoTheyRunWithIt()
        {
            Life("A");
            Build("blocker", "other");
            Build("T", "android");
            Build("AL", "android", "c2");
            var al = _h.Status("AL");
            Assert.That((string)al["state"], Is.EqualTo("queued"));
            Assert.That((string)al["attachedTo"], Is.EqualTo("T"));
            _h.WaitForRuns(1);

            // The new life finds T queued, with its alias, and the main thread idle: T starts at once.
            Life("B", 0, "T", "AL");
            _h.WaitForRuns(2);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "B:T" }));
            lock (_seen) Assert.That(_seen, Is.EqualTo(new[] { new Dictionary<string, string> { ["T"] = "running", ["AL"] = "running" } }));
            Assert.That((string)_h.Status("blocker")["state"], Is.EqualTo("interrupted"));
            _h.Release("T");
            var reattached = Result(_h.Start("AL", "build", new JObject { ["target"] = "android" }, _h.Observer("c2"), attachOnly: true));
            Assert.That((string)reattached["attachedTo"], Is.EqualTo("T"));
            Assert.That((string)_h.Status("AL")["state"], Is.EqualTo("completed"));
        }

        [Test]
        public void RemembersAWithdrawalTheLastRequestersCancelAfterTheReloadCancelsTheCallWhichNeverRuns()
        {
            Life("A");
            Build("blocker1", "one");
            Build("blocker2", "two"); // runs first in the next life, so T is still queued there
            Build("T", "android");
            var al = Build("AL", "android", "c2");
            _h.WaitForRuns(1);
            _h.Cancel("AL"); // T still wants it: AL only withdraws...
            Assert.That(OutcomeOf(al), Is.EqualTo("CANCELLED")); // ...and its client is told so

            Life("B");
            _h.WaitForRuns(2);
            Assert.That((string)_h.Status("T")["state"], Is.EqualTo("queued"));
            // T is now the only requester that wants the call: its cancel cancels it.
            var cancelled = _h.Cancel("T");
            Assert.That((string)cancelled["state"], Is.EqualTo("cancelled"));
            Assert.That((string)cancelled["error"]["code"], Is.EqualTo("CANCELLED"));
            Assert.That((bool)cancelled["error"]["data"]["started"], Is.False);
            var alias = _h.Status("AL");
            Assert.That((string)alias["state"], Is.EqualTo("cancelled"));
            Assert.That((bool)alias["error"]["data"]["shared"], Is.True);
            _h.Release("blocker2");
            Assert.That(OutcomeOf(_h.Start("blocker2", "build", new JObject { ["target"] = "two" }, attachOnly: true)), Is.EqualTo("completed"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker1", "B:blocker2" }));
        }

        [Test]
        public void AfterARestartRunsAQueuedCallOnlyIfARequesterComesBackWithinTheGrace()
        {
            // A call left queued by an editor that crashed ran once it started again, maybe a day
            // later, for no one.
            LeaveTwoCallsQueuedBehindABlocker();

            _h.AfterRestart = true;
            Life("B", 300);
            var claimed = Build("claimed", "android"); // its client is back
            _h.Changes.WaitUntil(() => (string)_h.Status("left")["state"] == "cancelled", "the unclaimed call cancelled");
            var left = _h.Status("left");
            Assert.That((string)left["error"]["code"], Is.EqualTo("CANCELLED"));
            Assert.That((bool)left["error"]["data"]["started"], Is.False);
            _h.WaitForRuns(2);
            _h.Release("claimed");
            Assert.That(OutcomeOf(claimed), Is.EqualTo("completed"));
            Assert.That(OutcomeOf(Build("left", "ios", "c2")), Is.EqualTo("CANCELLED"), "a client coming back later hears it never ran");
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "B:claimed" }));
        }

        [Test]
        public void AfterARestartAnIdenticalCallThatAttachesToALeftCallCountsAsAClientWantingIt()
        {
            // A new identical call attached to a call a restart left, and both were cancelled as unclaimed.
            LeaveTwoCallsQueuedBehindABlocker();
            _h.AfterRestart = true;
            Life("B", 300);
            var twin = Build("twin", "ios", "c3"); // identical to "left": shares it
            _h.Changes.WaitUntil(() => _h.Runs.Contains("B:left"), "the left call run for the twin");
            _h.Release("left");
            Assert.That(OutcomeOf(twin), Is.EqualTo("completed"));
            Assert.That((string)_h.Status("left")["state"], Is.EqualTo("completed"));
        }

        [Test]
        public void AfterARestartStillRunsOnlyTheClaimedCallsWhenADomainReloadComesWithinTheGrace()
        {
            // A domain reload within the grace made the next domain an ordinary one, which ran, once
            // its own grace was over, the calls nobody had come back for.
            LeaveTwoCallsQueuedBehindABlocker();

            _h.AfterRestart = true;
            Life("B", 60_000);
            Build("claimed", "android"); // its client is back, then the domain reloads
            _h.AfterRestart = false;
            Life("C", 300);
            _h.Changes.WaitUntil(() => (string)_h.Status("left")["state"] == "cancelled", "the unclaimed call cancelled");
            var left = _h.Status("left");
            Assert.That((string)left["error"]["code"], Is.EqualTo("CANCELLED"));
            Assert.That((bool)left["error"]["data"]["started"], Is.False);
            // The claimed one was wanted: it runs once the grace is over, though its client has not re-attached yet.
            _h.WaitForRuns(2);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "C:claimed" }));
        }

        /// <summary>A life that leaves "claimed" and "left" (another client's) queued behind a running "blocker".</summary>
        private void LeaveTwoCallsQueuedBehindABlocker()
        {
            Life("A");
            Build("blocker", "one");
            Build("claimed", "android");
            Build("left", "ios", "c2");
            _h.WaitForRuns(1);
        }

        [Test]
        public void ACallHandedToTheMainThreadButNotBegunWhenTheHostStopsIsQueuedAgainNotUnknown()
        {
            // Journaled running as its work was posted, behind work the main thread was still busy
            // with (a reload asked for there), it never ran: the next domain read it as cut off
            // mid-run, outcome unknown.
            Life("A");
            var busy = _h.Main.Block();
            Build("T", "android");
            _h.Changes.WaitUntil(() => (string)_h.Status("T")["state"] == "running", "T handed to the main thread");
            _h.OnLoop(() => _h.Engine.StopStarting());
            busy.Dispose();
            _h.Main.Drain();
            Assert.That(_h.Runs, Is.Empty, "taken back before the main thread began it, it never ran");

            Life("B");
            _h.WaitForRuns(1);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "B:T" }));
            _h.Release("T");
            Assert.That(OutcomeOf(_h.Start("T", "build", new JObject { ["target"] = "android" }, _h.Observer("c1"), attachOnly: true)), Is.EqualTo("completed"));
        }

        [Test]
        public void ClosingForGoodEndsEveryQueuedCallCancelledNeverStartedAndTellsItsRequester()
        {
            // A call still queued when the editor quit ran whenever the editor next started, for no one.
            Life("A");
            Build("blocker", "one");
            var queued = Build("T", "android");
            _h.WaitForRuns(1);
            _h.OnLoop(() => _h.Engine.CancelQueued("the editor quit first, so it did not run: call it again once the editor is back."));
            var error = Error(queued);
            Assert.That(error.Code, Is.EqualTo("CANCELLED"));
            Assert.That((bool)error.Data["started"], Is.False);
            Assert.That(error.Message, Does.Contain("call it again once the editor is back"));

            Life("B");
            Assert.That((string)_h.Status("T")["state"], Is.EqualTo("cancelled"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker" }));
        }

        [Test]
        public void EndsAWithdrawnAliasCutOffWhileRunningAsCancelledAsItsClientWasTold()
        {
            Life("A");
            Build("T", "android");
            _h.WaitForRuns(1);
            var al = Build("AL", "android", "c2");
            _h.Cancel("AL");
            Assert.That(OutcomeOf(al), Is.EqualTo("CANCELLED"));

            Life("B");
            Assert.That((string)_h.Status("T")["state"], Is.EqualTo("interrupted"));
            var alias = _h.Status("AL");
            Assert.That((string)alias["state"], Is.EqualTo("cancelled"));
            Assert.That((string)alias["error"]["code"], Is.EqualTo("CANCELLED"));
            Assert.That((string)alias["error"]["data"]["callId"], Is.EqualTo("AL"));
            Assert.That((bool)alias["error"]["data"]["shared"], Is.True);
        }

        [Test]
        public void CancelsWithoutRunningItARequeuedCallWhoseRequestersHadAllWithdrawn()
        {
            // A journal this host only leaves when a requester's renewed interest could not be
            // written: both requesters of T are on record as withdrawn.
            var withdrawn = new JObject { ["code"] = "CANCELLED", ["message"] = "Cancelled for this requester.", ["data"] = new JObject { ["shared"] = true, ["started"] = false } };
            var store = new FileJournalStore(_h.JournalPath);
            JournalEntry Queued(string callId, string aliasOf) => new JournalEntry
            {
                CallId = callId, Tool = "build", Arguments = new JObject { ["target"] = "android" },
                ArgsHash = CanonicalJson.Fingerprint("build", new JObject { ["target"] = "android" }),
                Lane = "c1", State = CallStates.Queued, QueuedAt = 1, Withdrawn = withdrawn, AliasOf = aliasOf,
            };
            store.Save(Queued("T", null), true);
            store.Save(Queued("AL", "T"), true);

            Life("B", 60_000);
            var t = _h.Status("T");
            Assert.That((string)t["state"], Is.EqualTo("cancelled"));
            Assert.That((string)t["error"]["code"], Is.EqualTo("CANCELLED"));
            Assert.That((bool)t["error"]["data"]["started"], Is.False);
            Assert.That((string)_h.Status("AL")["state"], Is.EqualTo("cancelled"));
            Assert.That(_h.Runs, Is.Empty);
        }

        [Test]
        public void MarksACallCutOffMidRunInterruptedWithAnUnknownOutcomeAndNeverRunsItAgain()
        {
            Life("A");
            Build("k", "android");
            _h.WaitForRuns(1);

            Life("B");
            var replay = Error(_h.Start("k", "build", new JObject { ["target"] = "android" }, attachOnly: true));
            Assert.That(replay.Code, Is.EqualTo(ErrorCodes.OutcomeUnknown));
            Assert.That(replay.Data, Is.EqualTo(new JObject { ["callId"] = "k", ["tool"] = "build", ["state"] = "interrupted", ["replayed"] = true }).Using<JToken>(JToken.DeepEquals));
            Assert.That(replay.Message, Does.Contain("whether it took effect is unknown"));
            Assert.That((long?)_h.Status("k")["finishedAt"], Is.Not.Null);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:k" }));
        }

        [Test]
        public void StartsNoNewCallOnceToldToStopAndRunsTheQueuedOnesInTheNextLife()
        {
            Life("A");
            var blocker = Build("blocker", "one");
            Build("q", "two");
            _h.WaitForRuns(1);
            _h.OnLoop(() => _h.Engine.StopStarting());
            Build("late", "three");
            _h.Release("blocker");
            // The running call still finishes and is journaled...
            Assert.That(OutcomeOf(blocker), Is.EqualTo("completed"));
            _h.Main.Drain();
            _h.OnLoop(() => true);
            // ...and nothing else starts.
            Assert.That((string)_h.Status("q")["state"], Is.EqualTo("queued"));
            Assert.That((string)_h.Status("late")["state"], Is.EqualTo("queued"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker" }));

            Life("B");
            _h.WaitForRuns(2);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "B:q" }));
            _h.Release("q");
            _h.WaitForRuns(3);
            Assert.That(_h.Runs.Last(), Is.EqualTo("B:late"));
        }
    }

    /// <summary>Calls queued before a restart wait for their requesters: the grace (protocol.md §8.5).</summary>
    [TestFixture]
    public class RequeueGraceTests
    {
        private EngineHarness _h;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _h.AddGated("build");
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        private Task<JObject> Build(string callId, string target, string by = "c1") =>
            _h.Start(callId, "build", new JObject { ["target"] = target }, _h.Observer(by));

        [Test]
        public void ACancelSentWhileTheEditorWasAwayFindsTheCallStillQueuedAndItNeverRuns()
        {
            _h.Life("A");
            Build("blocker", "one");
            Build("T", "android");
            _h.WaitForRuns(1);

            _h.RequeueGraceMs = 60_000;
            _h.Life("B");
            _h.Main.Drain();
            // Without the grace T would have started as the host started: nothing did.
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker" }));
            var cancelled = _h.Cancel("T");
            Assert.That((string)cancelled["state"], Is.EqualTo("cancelled"));
            Assert.That((bool)cancelled["error"]["data"]["started"], Is.False);
            // blocker was running when the first life ended: interrupted, never run again. T never ran.
            Assert.That((string)_h.Status("blocker")["state"], Is.EqualTo("interrupted"));
            _h.Main.Drain();
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker" }));
        }

        [Test]
        public void StartsThemAsSoonAsEveryRequesterIsBack()
        {
            _h.Life("A");
            Build("blocker", "one");
            Build("T1", "android");
            Build("T2", "ios", "c2");
            _h.WaitForRuns(1);

            _h.RequeueGraceMs = 60_000;
            _h.Life("B");
            var t1 = Build("T1", "android"); // c1 is back
            _h.Main.Drain();
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker" })); // T2's requester is not
            var t2 = Build("T2", "ios", "c2");
            _h.WaitForRuns(2);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "B:T1" }));
            _h.Release("T1");
            _h.WaitForRuns(3);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:blocker", "B:T1", "B:T2" }));
            _h.Release("T2");
            Assert.That(OutcomeOf(t1), Is.EqualTo("completed"));
            Assert.That(OutcomeOf(t2), Is.EqualTo("completed"));
        }

        [Test]
        public void StartsThemOnceTheGraceEndsWhenNobodyComesBack()
        {
            _h.Life("C");
            Build("blocker2", "one");
            Build("T3", "webgl");
            _h.WaitForRuns(1);

            _h.RequeueGraceMs = 300;
            var clock = Stopwatch.StartNew();
            _h.Life("D");
            _h.WaitForRuns(2);
            Assert.That(_h.Runs.Last(), Is.EqualTo("D:T3"));
            Assert.That(clock.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(280));
        }

        [Test]
        public void HoldsOffThreadToolsForTheGraceTooUntilTheirRequesterIsBack()
        {
            _h.AddGated("fetch", mainThread: false);
            _h.Life("A");
            // No call may start (a reload under way): G stays queued in the journal.
            _h.OnLoop(() => _h.Engine.StopStarting());
            _h.Start("G", "fetch", new JObject { ["n"] = 1 });
            _h.Start("H", "fetch", new JObject { ["n"] = 2 });
            Assert.That((string)_h.Status("G")["state"], Is.EqualTo("queued"));

            _h.RequeueGraceMs = 60_000;
            _h.Life("B");
            Assert.That(_h.Runs, Is.Empty);
            Assert.That((string)_h.Cancel("G")["state"], Is.EqualTo("cancelled"));
            // H's requester comes back: the grace ends, and H runs beside the main thread.
            var h = _h.Start("H", "fetch", new JObject { ["n"] = 2 });
            _h.WaitForRuns(1);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "B:H" }));
            _h.Release("H");
            Assert.That(OutcomeOf(h), Is.EqualTo("completed"));
        }
    }
}
