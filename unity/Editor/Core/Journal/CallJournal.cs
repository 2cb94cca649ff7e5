using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;

namespace Tether.Core.Journal
{
    /// <summary>
    /// The call journal: what the host knows about every callId it has seen, so that each runs at
    /// most once (protocol.md §8). Entries are written ahead (queued before enqueueing, running
    /// before the tool starts), kept for a retention period after they finish, and, with a file
    /// store, survive a domain reload or a crash: a call found running on load was interrupted,
    /// and its outcome is unknown. Owned by the host loop: not thread-safe.
    /// </summary>
    public sealed class CallJournal
    {
        /// <summary>How long a final call's outcome is kept by default: 15 minutes.</summary>
        public const long DefaultRetentionMs = 15 * 60 * 1000;

        /// <summary>What finished read-only calls may hold by default before the oldest are forgotten: 64 MiB.</summary>
        public const long DefaultReadOnlyBudgetBytes = 64L * 1024 * 1024;

        private readonly IJournalStore _store;
        private readonly OrderedEntries _entries = new OrderedEntries();
        private readonly ReadOnlyBudget _readOnly;
        private int _writesSinceCompaction;
        private long _lastPrune;

        /// <summary>
        /// A journal in the file at <paramref name="path"/> (JSON lines, 0600), or in memory only
        /// when <paramref name="path"/> is null. Nothing is read until <see cref="Load"/>.
        /// </summary>
        public static CallJournal Open(string path, long retentionMs = DefaultRetentionMs, long readOnlyBudgetBytes = DefaultReadOnlyBudgetBytes) =>
            new CallJournal(path == null ? (IJournalStore)new MemoryJournalStore() : new FileJournalStore(path), retentionMs, readOnlyBudgetBytes);

        public CallJournal(IJournalStore store, long retentionMs = DefaultRetentionMs, long readOnlyBudgetBytes = DefaultReadOnlyBudgetBytes)
        {
            _store = store ?? throw new ArgumentNullException(nameof(store));
            RetentionMs = retentionMs;
            ReadOnlyBudgetBytes = readOnlyBudgetBytes;
            _readOnly = new ReadOnlyBudget(readOnlyBudgetBytes);
        }

        public long RetentionMs { get; }

        public long ReadOnlyBudgetBytes { get; }

        /// <summary>Told when a compaction fails (the journal stays valid, only longer). Optional.</summary>
        public IHostLog Log { get; set; }

        /// <summary>Every entry held, in the order callIds arrived.</summary>
        public IEnumerable<JournalEntry> Values => _entries.Values;

        public int Count => _entries.Count;

        internal ReadOnlyBudget ReadOnly => _readOnly;

        /// <summary>
        /// Loads what a previous life of the host left (protocol.md §8.5). Calls that were running
        /// are marked interrupted (outcome unknown); queued ones are returned so they can be queued
        /// again, since they never started; finals past their retention are dropped. Throws when the
        /// store cannot be read or written: the host must not serve without its journal.
        /// </summary>
        public JournalLoad Load(long? now = null)
        {
            var at = now ?? JournalClock.NowMs();
            var requeue = new List<JournalEntry>();
            var interrupted = new List<JournalEntry>();
            foreach (var entry in _store.Load())
            {
                if (Expired(entry, at)) continue;
                if (entry.State == CallStates.Running)
                {
                    entry.State = CallStates.Interrupted;
                    entry.FinishedAt = at;
                    entry.Error = new TetherException(
                        ErrorCodes.OutcomeUnknown,
                        "The host stopped while \"" + entry.Tool + "\" was running, so whether it took effect is unknown. Check the editor's state before running it again.",
                        new JObject { ["callId"] = entry.CallId, ["tool"] = entry.Tool }).ToJson();
                    interrupted.Add(entry);
                }
                else if (entry.State == CallStates.Queued)
                {
                    requeue.Add(entry);
                }
                _entries.Set(entry.CallId, entry);
            }
            Compact();
            return new JournalLoad(requeue, interrupted);
        }

        public JournalEntry Get(string callId) => _entries.Get(callId);

        /// <summary>Drops an entry the store could not record: the call was never accepted.</summary>
        public void Forget(string callId)
        {
            _entries.Remove(callId);
            // A read-only call kept within the budget must not stay counted, nor be evicted later
            // under a callId used again by then.
            _readOnly.Unkeep(callId);
        }

        /// <summary>
        /// Records the entry's current state durably. Throws when the store cannot (a full or failing
        /// disk): the store then holds the entry's previous record, while memory holds the entry as
        /// given, and the caller decides what that means for the call.
        /// </summary>
        public void Save(JournalEntry entry)
        {
            _entries.Set(entry.CallId, entry);
            if (entry.Volatile)
            {
                if (entry.IsFinal) _readOnly.Keep(entry, callId => _entries.Remove(callId));
                return;
            }
            _store.Save(entry, MustSync(entry));
            // Compacted once the store holds a few records per entry it keeps: read-only entries,
            // however many, are not in it.
            if (++_writesSinceCompaction > Math.Max(256, (_entries.Count - _readOnly.Count) * 4)) Compact();
        }

        /// <summary>
        /// Forgets finished calls older than the retention. Walking every entry on every call made
        /// calls O(journal size), so a walk happens at most once per tenth of the retention (5 s at
        /// most); an entry outlives its retention by no more than that.
        /// </summary>
        public void Prune(long? now = null)
        {
            var at = now ?? JournalClock.NowMs();
            if (at - _lastPrune < Math.Min(RetentionMs / 10, 5000)) return;
            _lastPrune = at;
            var removedDurable = false;
            var removedReadOnly = false;
            foreach (var entry in _entries.Snapshot())
            {
                if (!Expired(entry, at)) continue;
                _entries.Remove(entry.CallId);
                if (_readOnly.Unkeep(entry.CallId)) removedReadOnly = true;
                if (!entry.Volatile) removedDurable = true;
            }
            if (removedReadOnly) _readOnly.AfterPrune();
            // The store never held read-only entries: forgetting only those leaves it as it is (a
            // file rewrite is two syncs, every 5 s under a steady stream of read-only calls).
            if (removedDurable) Compact();
        }

        /// <summary>
        /// Whether a record must be on the disk itself before Save returns: those whose loss to a
        /// power cut or an OS crash could let a call run when it must not. "running", written before
        /// the tool starts, so a restart finds it interrupted instead of queued; the final state of a
        /// call that never started (cancelled or failed while queued), which a restart would
        /// otherwise queue again; and a withdrawal from a shared call, which a restart would
        /// otherwise forget. The others only reach the OS, which no crash of the host process loses;
        /// a power cut may, leaving the record before, which errs toward "unknown", never toward a
        /// second run. So a side-effecting call pays one sync, and read-only calls none.
        /// </summary>
        internal static bool MustSync(JournalEntry entry)
        {
            if (entry.IsFinal) return entry.StartedAt == null;
            return entry.State == CallStates.Running || entry.Withdrawn != null;
        }

        private bool Expired(JournalEntry entry, long now) =>
            entry.IsFinal && entry.FinishedAt.HasValue && now - entry.FinishedAt.Value > RetentionMs;

        /// <summary>
        /// Rewrites the store from memory. One that fails (a full disk) leaves the file as it was, a
        /// valid journal, only longer: it must not fail the save or the call that happened to
        /// trigger it, and a later one tries again.
        /// </summary>
        private void Compact()
        {
            _writesSinceCompaction = 0;
            try
            {
                _store.Rewrite(_entries.Values.Where(entry => !entry.Volatile).ToList());
            }
            catch (Exception error)
            {
                Log?.Warning("Tether could not compact its call journal (" + error.Message + "); it stays as it was, only longer, and will be compacted later.");
            }
        }
    }
}
