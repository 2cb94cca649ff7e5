using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Discovery;
using Tether.Core.Journal;

namespace Tether.Core.Tests.Journal
{
    /// <summary>Port of test/host/call-journal.test.ts.</summary>
    [TestFixture]
    public class CallJournalTests
    {
        private string _dir;

        [SetUp]
        public void SetUp() => _dir = TempDirs.Create("tether-journal-");

        [TearDown]
        public void TearDown() => TempDirs.Remove(_dir);

        private string JournalPath => Path.Combine(_dir, "journal.jsonl");

        private static long Now => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();

        private static JournalEntry Entry(string callId, string state, Action<JournalEntry> extra = null)
        {
            var entry = new JournalEntry { CallId = callId, Tool = "t", Arguments = new JObject(), ArgsHash = "h", Lane = "c1", State = state, QueuedAt = 0 };
            extra?.Invoke(entry);
            return entry;
        }

        /// <summary>A finished read-only call whose result is a text of <paramref name="chars"/> characters (what the budget counts).</summary>
        private static JournalEntry FinishedReadOnly(string callId, int chars = 4000, long? finishedAt = null) =>
            Entry(callId, CallStates.Completed, e =>
            {
                e.Volatile = true;
                e.FinishedAt = finishedAt ?? Now;
                e.Result = new JObject { ["content"] = new JArray(new JObject { ["type"] = "text", ["text"] = new string('x', chars) }) };
            });

        private static bool[] Known(CallJournal journal, params string[] ids) => ids.Select(id => journal.Get(id) != null).ToArray();

        [Test]
        public void ForgetsTheOldestFinishedReadOnlyEntriesPastItsBudgetNeverARunningOrADurableOne()
        {
            var journal = new CallJournal(new MemoryJournalStore(), 60_000, 10_000);
            journal.Save(Entry("live", CallStates.Running, e => { e.Volatile = true; e.StartedAt = 1; }));
            journal.Save(Entry("durable", CallStates.Completed, e =>
            {
                e.FinishedAt = Now;
                e.Result = new JObject { ["content"] = new JArray(new JObject { ["type"] = "text", ["text"] = new string('y', 50_000) }) };
            }));
            journal.Save(FinishedReadOnly("a"));
            journal.Save(FinishedReadOnly("b"));
            Assert.That(journal.Get("a"), Is.Not.Null);
            journal.Save(FinishedReadOnly("c"));
            Assert.That(Known(journal, "a", "b", "c"), Is.EqualTo(new[] { false, true, true }));
            // One larger than the whole budget stays (it was just answered) and pushes out the rest.
            journal.Save(FinishedReadOnly("huge", 30_000));
            Assert.That(Known(journal, "b", "c", "huge"), Is.EqualTo(new[] { false, false, true }));
            Assert.That(journal.Get("live").State, Is.EqualTo(CallStates.Running));
            Assert.That(journal.Get("durable").State, Is.EqualTo(CallStates.Completed));
        }

        [Test]
        public void KeepsTheBudgetsAgeOrderAcrossPrunesAPrunedCallIdUsedAgainCountingAsNew()
        {
            var journal = new CallJournal(new MemoryJournalStore(), 1000, 10_000);
            journal.Save(FinishedReadOnly("a", finishedAt: 0));
            journal.Save(FinishedReadOnly("b", finishedAt: 1000));
            journal.Prune(1500); // "a" expired
            Assert.That(journal.Get("a"), Is.Null);
            journal.Save(FinishedReadOnly("a", finishedAt: 1600)); // the callId again, for a new call
            journal.Save(FinishedReadOnly("c", finishedAt: 1700)); // over the budget: "b" is now the oldest
            Assert.That(Known(journal, "b", "a", "c"), Is.EqualTo(new[] { false, true, true }));
            // Under the budget nothing is evicted, and what prune forgets leaves the order with it.
            for (var i = 0; i < 3000; i++)
            {
                journal.Save(FinishedReadOnly("n" + i, finishedAt: 10_000L * (i + 1)));
                journal.Prune(10_000L * (i + 1) + 2000);
            }
            Assert.That(journal.ReadOnly.QueueLength, Is.LessThanOrEqualTo(1));
            Assert.That(journal.ReadOnly.QueueCapacityUsed, Is.LessThan(2100)); // the spent front is dropped too
        }

        [Test]
        public void MarksCallsThatWereRunningAsInterruptedOnLoadAndReturnsQueuedOnesToRun()
        {
            var before = new CallJournal(new FileJournalStore(JournalPath), 60_000);
            before.Save(Entry("a", CallStates.Queued));
            before.Save(Entry("a", CallStates.Running, e => e.StartedAt = 1));
            before.Save(Entry("b", CallStates.Queued));
            before.Save(Entry("c", CallStates.Completed, e => { e.FinishedAt = Now; e.Result = new JObject { ["content"] = new JArray() }; }));
            File.AppendAllText(JournalPath, "{\"callId\":\"torn\", \"sta"); // a crash mid-write

            var after = new CallJournal(new FileJournalStore(JournalPath), 60_000);
            var loaded = after.Load();
            Assert.That(loaded.Interrupted.Select(e => e.CallId), Is.EqualTo(new[] { "a" }));
            var a = after.Get("a");
            Assert.That(a.State, Is.EqualTo(CallStates.Interrupted));
            Assert.That((string)a.Error["code"], Is.EqualTo("OUTCOME_UNKNOWN"));
            Assert.That(a.Error["data"], Is.EqualTo(new JObject { ["callId"] = "a", ["tool"] = "t" }).Using<JToken>(JTokenEquality));
            Assert.That(a.FinishedAt, Is.Not.Null);
            Assert.That(loaded.Requeue.Select(e => e.CallId), Is.EqualTo(new[] { "b" }));
            Assert.That(after.Get("c").State, Is.EqualTo(CallStates.Completed));
            Assert.That(after.Get("torn"), Is.Null);
            // Loading compacts: one line per call, the torn one gone.
            Assert.That(File.ReadAllText(JournalPath).Trim().Split('\n'), Has.Length.EqualTo(3));
        }

        [Test]
        public void ForgetsFinishedCallsAfterTheRetentionWalkingAtMostOncePerTenthOfIt()
        {
            var journal = new CallJournal(new MemoryJournalStore(), 1000);
            journal.Save(Entry("old", CallStates.Completed, e => e.FinishedAt = 0));
            journal.Save(Entry("live", CallStates.Running));
            journal.Prune(1500);
            Assert.That(journal.Get("old"), Is.Null);
            Assert.That(journal.Get("live"), Is.Not.Null);
            journal.Save(Entry("next", CallStates.Completed, e => e.FinishedAt = 500));
            journal.Prune(1550); // expired, but 50 ms after the last walk: skipped (amortized)
            Assert.That(journal.Get("next"), Is.Not.Null);
            journal.Prune(1600); // a tenth of the retention later: walked
            Assert.That(journal.Get("next"), Is.Null);
        }

        [Test]
        public void SkipsExpiredFinalsOnLoadButNeverQueuedOrRunningOnes()
        {
            var store = new FileJournalStore(JournalPath);
            store.Save(Entry("expired", CallStates.Completed, e => e.FinishedAt = 1000), false);
            store.Save(Entry("fresh", CallStates.Failed, e => e.FinishedAt = 9000), false);
            store.Save(Entry("queued", CallStates.Queued, e => e.QueuedAt = 0), false);
            var journal = new CallJournal(new FileJournalStore(JournalPath), 5000);
            var loaded = journal.Load(now: 10_000);
            Assert.That(Known(journal, "expired", "fresh", "queued"), Is.EqualTo(new[] { false, true, true }));
            Assert.That(loaded.Requeue.Select(e => e.CallId), Is.EqualTo(new[] { "queued" }));
        }

        [Test]
        public void NeverEvictsTheCallJustFinishedForAnOlderRecordOfItsCallIdExpiredOutOfOrder()
        {
            var journal = new CallJournal(new MemoryJournalStore(), 1000, 10_000);
            journal.Save(FinishedReadOnly("x", finishedAt: 2000));
            journal.Save(FinishedReadOnly("y", finishedAt: 0)); // finished after "x", by a clock set back
            journal.Prune(1500); // "y" expired, "x" not: y's record stays behind x's in the queue
            journal.Save(FinishedReadOnly("y", 9600, 1600)); // the callId again; over the budget with "x"
            Assert.That(journal.Get("x"), Is.Null);
            Assert.That(journal.Get("y").FinishedAt, Is.EqualTo(1600));
        }

        [Test]
        public void ForgetsACallIdForTheBudgetTooSoADurableCallUnderItLaterIsNeverEvicted()
        {
            var journal = new CallJournal(new MemoryJournalStore(), 60_000, 10_000);
            journal.Save(FinishedReadOnly("x"));
            journal.Forget("x");
            journal.Save(Entry("x", CallStates.Running, e => e.StartedAt = 1));
            journal.Save(FinishedReadOnly("a"));
            journal.Save(FinishedReadOnly("b"));
            Assert.That(journal.Get("x").State, Is.EqualTo(CallStates.Running));
        }

        private sealed class CountingStore : MemoryJournalStore
        {
            public int Rewrites;

            public override void Rewrite(IReadOnlyList<JournalEntry> entries)
            {
                Rewrites++;
                base.Rewrite(entries);
            }
        }

        [Test]
        public void RewritesItsStoreForTheEntriesItHoldsNotWhenPruneForgetsOnlyReadOnlyOnesNorForHoldingMany()
        {
            var store = new CountingStore();
            var journal = new CallJournal(store, 1000);
            journal.Save(Entry("read", CallStates.Completed, e => { e.Volatile = true; e.FinishedAt = 0; }));
            journal.Prune(1500);
            Assert.That(journal.Get("read"), Is.Null);
            Assert.That(store.Rewrites, Is.EqualTo(0));
            journal.Save(Entry("write", CallStates.Completed, e => { e.StartedAt = 1; e.FinishedAt = 1500; }));
            journal.Prune(3000);
            Assert.That(journal.Get("write"), Is.Null);
            Assert.That(store.Rewrites, Is.EqualTo(1));
            // Compaction counts the records of the entries the store keeps, not the read-only ones held.
            for (var i = 0; i < 1000; i++) journal.Save(Entry("r" + i, CallStates.Completed, e => { e.Volatile = true; e.FinishedAt = 3000; }));
            for (var i = 0; i < 300; i++) journal.Save(Entry("busy", i % 2 == 1 ? CallStates.Running : CallStates.Queued));
            Assert.That(store.Rewrites, Is.EqualTo(2));
        }

        [Test]
        public void KeepsVolatileReadOnlyCallsOutOfTheStore()
        {
            var store = new MemoryJournalStore();
            var journal = new CallJournal(store, 60_000);
            journal.Save(Entry("r", CallStates.Completed, e => { e.Volatile = true; e.FinishedAt = Now; }));
            journal.Save(Entry("w", CallStates.Completed, e => e.FinishedAt = Now));
            Assert.That(journal.Get("r"), Is.Not.Null);
            Assert.That(store.Load().Select(e => e.CallId), Is.EqualTo(new[] { "w" }));
        }

        [TestCase(false, TestName = "KeepsARecordSavedAfterAWriteThatFailedPartWay(the failed write is taken back)")]
        [TestCase(true, TestName = "KeepsARecordSavedAfterAWriteThatFailedPartWay(taking it back fails too, so the next save cuts it off)")]
        public void KeepsARecordSavedAfterAWriteThatFailedPartWay(bool truncateFails)
        {
            var disk = new FaultyDisk();
            var journal = new CallJournal(new FileJournalStore(JournalPath, disk), 60_000);
            journal.Save(Entry("a", CallStates.Queued));
            var before = File.ReadAllText(JournalPath);
            // Another call's record hits a full disk: half of it lands, then the write fails.
            disk.Fail(text => text.Contains("\"b\""), truncateFails);
            var failure = Assert.Throws<IOException>(() => journal.Save(Entry("b", CallStates.Queued)));
            Assert.That(failure.Message, Does.Contain("No space left"));
            if (!truncateFails) Assert.That(File.ReadAllText(JournalPath), Is.EqualTo(before));
            else Assert.That(File.ReadAllText(JournalPath), Is.Not.EqualTo(before));
            disk.Heal();
            // "a" leaves the queue: its "running" record must not land on the fragment's line...
            journal.Save(Entry("a", CallStates.Running, e => e.StartedAt = 1));
            // ...or a crash now would queue "a" again, and it would run twice.
            var loaded = new CallJournal(new FileJournalStore(JournalPath), 60_000).Load();
            Assert.That(loaded.Interrupted.Select(e => e.CallId), Is.EqualTo(new[] { "a" }));
            Assert.That(loaded.Requeue, Is.Empty);
        }

        [Test]
        public void CountsARecordOnlyOnceItsNewlineIsWritten()
        {
            var journal = new CallJournal(new FileJournalStore(JournalPath), 60_000);
            journal.Save(Entry("a", CallStates.Queued));
            // A crash just before the newline: the save never returned, so the tool never started.
            File.AppendAllText(JournalPath, Entry("a", CallStates.Running, e => e.StartedAt = 1).ToJson().ToString(Formatting.None));
            var loaded = new CallJournal(new FileJournalStore(JournalPath), 60_000).Load();
            Assert.That(loaded.Requeue.Select(e => e.CallId), Is.EqualTo(new[] { "a" }));
        }

        [Test]
        public void CutsATornTailLongerThanItsReadWindowBackToTheLastNewline()
        {
            var store = new FileJournalStore(JournalPath);
            store.Save(Entry("a", CallStates.Queued), false);
            File.AppendAllText(JournalPath, "{\"callId\":\"torn\",\"x\":\"" + new string('z', 200_000));
            store.Save(Entry("b", CallStates.Queued), false);
            var lines = File.ReadAllText(JournalPath).Split('\n');
            Assert.That(lines, Has.Length.EqualTo(3)); // two records and the empty rest after the last newline
            Assert.That(store.Load().Select(e => e.CallId), Is.EqualTo(new[] { "a", "b" }));
        }

        [Test]
        public void LoadsAroundALineThatIsValidJsonButNoUsableEntryNeverFailingTheLoad()
        {
            var now = Now;
            File.WriteAllText(JournalPath,
                "{\"callId\":\"a\",\"tool\":\"t\",\"state\":\"completed\",\"queuedAt\":1,\"finishedAt\":" + now + "}\n" +
                // A damaged number: far past a long's range.
                "{\"callId\":\"b\",\"tool\":\"t\",\"state\":\"queued\",\"queuedAt\":123456789012345678901234567890}\n" +
                "{\"callId\":\"c\",\"tool\":\"t\",\"state\":\"completed\",\"queuedAt\":2,\"finishedAt\":1e300,\"startedAt\":-9223372036854775809}\n" +
                "{\"callId\":\"d\",\"tool\":\"t\",\"state\":\"queued\",\"queuedAt\":3}\n");
            var journal = new CallJournal(new FileJournalStore(JournalPath), 60_000);
            JournalLoad loaded = null;
            Assert.DoesNotThrow(() => loaded = journal.Load(now));
            Assert.That(journal.Get("a"), Is.Not.Null);
            Assert.That(journal.Get("d"), Is.Not.Null);
            Assert.That(loaded.Requeue.Select(e => e.CallId), Does.Contain("d"));
        }

        [Test]
        public void ReadsANumberOutsideALongsRangeAsAbsentNotAsAnException()
        {
            var entry = JournalEntry.FromJson(JObject.Parse(
                "{\"callId\":\"b\",\"state\":\"completed\",\"queuedAt\":123456789012345678901234567890,\"startedAt\":-9223372036854775809," +
                "\"finishedAt\":1e300,\"deadlineMs\":9223372036854775807}"));
            Assert.That(entry, Is.Not.Null);
            Assert.That(entry.QueuedAt, Is.EqualTo(0));
            Assert.That(entry.StartedAt, Is.Null);
            Assert.That(entry.FinishedAt, Is.Null);
            Assert.That(entry.DeadlineMs, Is.EqualTo(long.MaxValue));
            Assert.That(JournalEntry.FromJson(JObject.Parse("{\"callId\":\"x\",\"state\":\"queued\",\"queuedAt\":1.5e3}")).QueuedAt, Is.EqualTo(1500));
        }

        private sealed class RecordingStore : IJournalStore
        {
            public readonly List<string> Saved = new List<string>();
            public IReadOnlyList<JournalEntry> Load() => new List<JournalEntry>();
            public void Save(JournalEntry entry, bool sync) => Saved.Add(entry.CallId + ":" + entry.State + (sync ? " synced" : ""));
            public void Rewrite(IReadOnlyList<JournalEntry> entries) { }
        }

        [Test]
        public void SyncsTheRecordsWhoseLossCouldLetACallRunRunningTheEndOfACallThatNeverStartedAWithdrawal()
        {
            var store = new RecordingStore();
            var journal = new CallJournal(store, 60_000);
            journal.Save(Entry("ran", CallStates.Queued));
            journal.Save(Entry("ran", CallStates.Running, e => e.StartedAt = 1));
            journal.Save(Entry("ran", CallStates.Completed, e => { e.StartedAt = 1; e.FinishedAt = 2; }));
            journal.Save(Entry("dropped", CallStates.Queued));
            journal.Save(Entry("dropped", CallStates.Cancelled, e => e.FinishedAt = 2));
            journal.Save(Entry("left", CallStates.Queued, e =>
            {
                e.AliasOf = "ran";
                e.Withdrawn = new JObject { ["code"] = "CANCELLED", ["message"] = "Cancelled for this requester." };
            }));
            Assert.That(store.Saved, Is.EqualTo(new[] { "ran:queued", "ran:running synced", "ran:completed", "dropped:queued", "dropped:cancelled synced", "left:queued synced" }));
        }

        [Test]
        public void SyncsACompactionsTemporaryFileBeforeTheRenameAndTheDirectoryAfterIt()
        {
            var disk = new FaultyDisk();
            new FileJournalStore(JournalPath, disk).Rewrite(new[] { Entry("a", CallStates.Queued) });
            Assert.That(disk.Ops, Is.EqualTo(new[] { "write journal.jsonl.tmp queued", "sync journal.jsonl.tmp", "rename journal.jsonl.tmp", "sync directory " + Path.GetFileName(_dir) }));
            Assert.That(File.Exists(JournalPath + ".tmp"), Is.False);
            Assert.That(new FileJournalStore(JournalPath).Load().Select(e => e.CallId), Is.EqualTo(new[] { "a" }));
        }

        [Test]
        public void TakesACompactionsFileForTheJournalWhenTheJournalIsGoneAndOnlyThen()
        {
            // A replace that failed half-way: the journal moved away, the compaction's file not in its place.
            new FileJournalStore(JournalPath).Rewrite(new[] { Entry("ran", CallStates.Running) });
            File.Move(JournalPath, JournalPath + ".tmp");
            Assert.That(new FileJournalStore(JournalPath).Load().Select(e => e.CallId + ":" + e.State), Is.EqualTo(new[] { "ran:running" }));
            Assert.That(File.Exists(JournalPath + ".tmp"), Is.False);
            Assert.That(new FileJournalStore(JournalPath).Load().Select(e => e.CallId), Is.EqualTo(new[] { "ran" }), "it is the journal now");

            // Beside a journal, such a file is a compaction that never got as far as the move: not read.
            File.WriteAllText(JournalPath + ".tmp", Entry("stale", CallStates.Queued).ToJson().ToString(Newtonsoft.Json.Formatting.None) + "\n");
            Assert.That(new FileJournalStore(JournalPath).Load().Select(e => e.CallId), Is.EqualTo(new[] { "ran" }));
        }

        [Test]
        public void LeavesTheJournalAsItWasWhenACompactionFails()
        {
            var disk = new FaultyDisk();
            var store = new FileJournalStore(JournalPath, disk);
            store.Save(Entry("a", CallStates.Queued), false);
            var before = File.ReadAllText(JournalPath);
            disk.Fail(_ => true);
            Assert.Throws<IOException>(() => store.Rewrite(new[] { Entry("a", CallStates.Running) }));
            Assert.That(File.ReadAllText(JournalPath), Is.EqualTo(before));
            Assert.That(File.Exists(JournalPath + ".tmp"), Is.False, "a full disk gets its space back");
        }

        [Test]
        public void CreatesTheJournalReadableByItsOwnerOnly()
        {
            if (!PosixFiles.IsPosix) Assert.Ignore("POSIX modes only apply on macOS and Linux.");
            var journal = new CallJournal(new FileJournalStore(Path.Combine(_dir, "sub", "journal.jsonl")), 60_000);
            journal.Load();
            Assert.That(PosixFiles.ModeOf(Path.Combine(_dir, "sub", "journal.jsonl")), Is.EqualTo(0x180));
            journal.Save(Entry("a", CallStates.Queued));
            new CallJournal(new FileJournalStore(Path.Combine(_dir, "sub", "journal.jsonl")), 60_000).Load(); // compacts: a rewritten file
            Assert.That(PosixFiles.ModeOf(Path.Combine(_dir, "sub", "journal.jsonl")), Is.EqualTo(0x180));
        }

        [Test]
        public void QueuesCallsAgainInJournalOrderEvenAfterEntriesWereRemoved()
        {
            var journal = new CallJournal(new FileJournalStore(JournalPath), 1000);
            journal.Save(Entry("done", CallStates.Completed, e => e.FinishedAt = 0));
            journal.Save(Entry("q1", CallStates.Queued));
            journal.Prune(5000); // "done" leaves a hole a Dictionary would fill with the next entry
            journal.Save(Entry("q2", CallStates.Queued));
            journal.Save(Entry("q3", CallStates.Queued));
            journal.Save(Entry("q1", CallStates.Queued, e => e.Lane = "c2")); // a later record keeps the callId's place
            var loaded = new CallJournal(new FileJournalStore(JournalPath), 1000).Load();
            Assert.That(loaded.Requeue.Select(e => e.CallId), Is.EqualTo(new[] { "q1", "q2", "q3" }));
            Assert.That(loaded.Requeue[0].Lane, Is.EqualTo("c2"));
        }

        [Test]
        public void RefusesToLoadAJournalItCannotWrite()
        {
            // A folder where the journal file should be: the host must not serve without its journal.
            Directory.CreateDirectory(JournalPath);
            var journal = new CallJournal(new FileJournalStore(JournalPath), 60_000);
            Assert.That(() => journal.Load(), Throws.InstanceOf<Exception>());
        }

        [Test]
        public void RoundTripsEveryFieldOfAnEntryThroughTheFile()
        {
            var store = new FileJournalStore(JournalPath);
            var entry = new JournalEntry
            {
                CallId = "k1", Tool = "build", Arguments = new JObject { ["when"] = "2024-01-02T03:04:05Z", ["n"] = 1.5 }, ArgsHash = "abc",
                Lane = "c7", State = CallStates.Cancelled, QueuedAt = 10, StartedAt = 11, FinishedAt = 12, DeadlineMs = 1000, AliasOf = "k0",
                Withdrawn = new JObject { ["code"] = "CANCELLED", ["message"] = "m", ["data"] = new JObject { ["shared"] = true } },
                Result = new JObject { ["content"] = new JArray() }, Error = new JObject { ["code"] = "CANCELLED", ["message"] = "m" },
            };
            store.Save(entry, true);
            var back = store.Load().Single();
            Assert.That(back.ToJson(), Is.EqualTo(entry.ToJson()).Using<JToken>(JTokenEquality));
            // A date-like string stays the string it was.
            Assert.That(back.Arguments["when"].Type, Is.EqualTo(JTokenType.String));
        }

        private static bool JTokenEquality(JToken a, JToken b) => JToken.DeepEquals(a, b);
    }
}
