using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Journal;
using Tether.Core.Protocol;
using Tether.Core.Tests.Calls.Support;
using Tether.Core.Tests.Journal;
using static Tether.Core.Tests.Calls.Support.EngineHarness;

namespace Tether.Core.Tests.Calls
{
    /// <summary>Port of test/host/journal-disk.test.ts: a journal that cannot be written (protocol.md §8.3).</summary>
    [TestFixture]
    public class JournalFailureTests
    {
        private EngineHarness _h;
        private FaultyDisk _disk;

        [SetUp]
        public void SetUp()
        {
            _h = new EngineHarness();
            _disk = new FaultyDisk();
            _h.Store = () => new FileJournalStore(_h.JournalPath, _disk);
            _h.Tools["touch"] = TestTools.Make("touch", (args, ctx) => Run(ctx.CallId));
            _h.Tools["look"] = TestTools.Make("look", (args, ctx) => Run(ctx.CallId), new JObject { ["readOnlyHint"] = true });
            _h.AddGated("hold");
        }

        [TearDown]
        public void TearDown() => _h.Dispose();

        private System.Threading.Tasks.Task<object> Run(string callId)
        {
            _h.Ran(callId);
            _disk.Record("tool " + callId);
            return TestTools.Done("done");
        }

        private System.Threading.Tasks.Task<JObject> Call(string callId, int n = 1) => _h.Start(callId, "touch", new JObject { ["n"] = n });

        /// <summary>What a host starting on this journal now would do: the calls it would queue again.</summary>
        private string[] RequeuedOnRestart() =>
            new FileJournalStore(_h.JournalPath).Load().Where(e => e.State == CallStates.Queued).Select(e => e.CallId).ToArray();

        [Test]
        public void DoesNotRunAToolWhoseRunningRecordFailedAndSaysSoWithATypedError()
        {
            _h.Life("A");
            _disk.Fail(text => text.Contains("\"state\":\"running\""));
            var error = Error(Call("w1"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InternalError));
            Assert.That((string)error.Data["callId"], Is.EqualTo("w1"));
            Assert.That((bool)error.Data["started"], Is.False);
            Assert.That((string)error.Data["state"], Is.EqualTo("failed"));
            Assert.That(_h.Runs, Is.Empty);
            // The failure was journaled, so a restart does not run it either.
            Assert.That(RequeuedOnRestart(), Is.Empty);
            _disk.Heal();
            Result(Call("w2"));
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:w2" }));
        }

        [Test]
        public void ReportsAnUnknownOutcomeWhenItCannotRecordThatACallDidNotRunEither()
        {
            _h.Life("A");
            _disk.Fail(text => !text.Contains("\"state\":\"queued\""));
            var error = Error(Call("w1"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.OutcomeUnknown));
            Assert.That((string)error.Data["callId"], Is.EqualTo("w1"));
            Assert.That((string)error.Data["state"], Is.EqualTo("interrupted"));
            Assert.That(_h.Runs, Is.Empty);
            // Why "unknown": the journal still says queued, so a restart now would run it.
            Assert.That(RequeuedOnRestart(), Is.EqualTo(new[] { "w1" }));
        }

        [Test]
        public void RefusesACallWhoseQueuedRecordFailedJournalingNothingSoTheCallIdCanBeSentAgain()
        {
            // A store that throws before writing anything (the injected-store form of a full disk).
            var failing = new FailingStore(new FileJournalStore(_h.JournalPath)) { FailWhen = _ => true };
            _h.Store = () => failing;
            _h.Life("A");
            var refused = Error(Call("w1"));
            Assert.That(refused.Code, Is.EqualTo(ErrorCodes.InternalError));
            Assert.That(refused.Data, Is.EqualTo(new JObject { ["callId"] = "w1", ["tool"] = "touch", ["started"] = false }).Using<JToken>(JToken.DeepEquals));
            // What to do follows from the system's reason: here, a full disk.
            Assert.That(refused.Message, Does.EndWith("nothing ran. Free disk space and send it again."));
            Assert.That(() => _h.Status("w1"), Throws.InstanceOf<TetherException>().With.Property("Code").EqualTo(ErrorCodes.UnknownCall));
            failing.FailWhen = null;
            Assert.That(RequeuedOnRestart(), Is.Empty);
            var again = Result(Call("w1"));
            Assert.That((bool)again["replayed"], Is.False);
            Assert.That(_h.Runs, Is.EqualTo(new[] { "A:w1" }));
        }

        [Test]
        public void RefusesAWithdrawalFromASharedCallThatItCannotJournalNothingIsCancelled()
        {
            _h.Life("A");
            var first = _h.Start("one", "hold");
            _h.WaitForRuns(1);
            var second = _h.Start("two", "hold", null, _h.Observer("c2"));
            Assert.That((string)_h.Status("two")["attachedTo"], Is.EqualTo("one"));
            _disk.Fail(text => text.Contains("\"withdrawn\""));
            var refused = Assert.Throws<TetherException>(() => _h.Cancel("two"));
            Assert.That(refused.Code, Is.EqualTo(ErrorCodes.InternalError));
            Assert.That((string)refused.Data["callId"], Is.EqualTo("two"));
            Assert.That(refused.Message, Does.Contain("nothing was cancelled"));
            _disk.Heal();
            _h.Release("one");
            // Still a requester: it gets the shared result.
            var shared = Result(second);
            Assert.That((string)shared["callId"], Is.EqualTo("two"));
            Assert.That((string)shared["attachedTo"], Is.EqualTo("one"));
            Result(first);
        }

        [Test]
        public void SyncsRunningToTheDiskBeforeTheToolStartsOncePerSideEffectingCallAndNeverForAReadOnlyOne()
        {
            _h.Life("A");
            _disk.ClearOps(); // what starting the host wrote
            Result(Call("w1"));
            Assert.That(_disk.Ops, Is.EqualTo(new[] { "write journal.jsonl queued", "write journal.jsonl running", "sync journal.jsonl", "tool w1", "write journal.jsonl completed" }));
            _disk.ClearOps();
            Result(_h.Start("r1", "look"));
            Assert.That(_disk.Ops, Is.EqualTo(new[] { "tool r1" }));
        }

        [Test]
        public void RefusesToStartOnAJournalItCannotReadOrWrite()
        {
            Directory.CreateDirectory(_h.JournalPath); // a folder where the journal should be
            Assert.That(() => _h.Life("A"), Throws.InstanceOf<System.Exception>());
        }
    }
}
