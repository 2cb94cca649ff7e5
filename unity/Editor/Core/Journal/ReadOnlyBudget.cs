using System;
using System.Collections.Generic;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Journal
{
    /// <summary>
    /// The finished read-only calls the journal keeps in memory, and about how much they hold.
    /// Each is kept with its result (a screenshot is megabytes), so under a steady stream of them
    /// the retention alone does not bound the host's memory: past the budget the oldest are
    /// forgotten early, which is harmless, since a read-only call the host no longer knows is
    /// simply run again when asked. The call just finished is always kept.
    /// </summary>
    internal sealed class ReadOnlyBudget
    {
        /// <summary>What a finished entry costs beside its strings (the objects, the map's slot).</summary>
        private const long EntryOverheadBytes = 512;

        private sealed class Kept
        {
            public string CallId;
            public long Bytes;
        }

        private readonly long _budgetBytes;
        /// <summary>Finished read-only entries still kept, by callId.</summary>
        private readonly Dictionary<string, Kept> _byId = new Dictionary<string, Kept>();
        /// <summary>
        /// The same, oldest first, from <see cref="_oldest"/> on: a queue whose spent front is
        /// skipped by an index and dropped now and then (amortized O(1) a call).
        /// </summary>
        private List<Kept> _inOrder = new List<Kept>();
        private int _oldest;
        private long _bytes;

        public ReadOnlyBudget(long budgetBytes)
        {
            _budgetBytes = budgetBytes;
        }

        /// <summary>How many finished read-only entries are counted.</summary>
        public int Count => _byId.Count;

        public long Bytes => _bytes;

        /// <summary>Entries in the queue, spent ones included (what a test checks stays bounded).</summary>
        internal int QueueLength => _inOrder.Count - _oldest;

        internal int QueueCapacityUsed => _inOrder.Count;

        /// <summary>Counts a finished read-only entry, calling <paramref name="evict"/> for the oldest others while over the budget.</summary>
        public void Keep(JournalEntry entry, Action<string> evict)
        {
            if (_byId.ContainsKey(entry.CallId)) return;
            var newest = new Kept { CallId = entry.CallId, Bytes = EntryOverheadBytes + StringBytes(entry.Result, 4) + StringBytes(entry.Arguments, 2) };
            _byId[newest.CallId] = newest;
            _inOrder.Add(newest);
            _bytes += newest.Bytes;
            while (_bytes > _budgetBytes)
            {
                var oldest = _inOrder[_oldest];
                if (oldest == newest) break;
                _oldest++;
                // Pruned already (expired out of order): nothing left to evict for it.
                if (!IsKept(oldest)) continue;
                Unkeep(oldest.CallId);
                evict(oldest.CallId);
            }
            DropSpentFront();
        }

        /// <summary>Stops counting a callId's finished read-only call; false if it was not counted.</summary>
        public bool Unkeep(string callId)
        {
            if (!_byId.TryGetValue(callId, out var kept)) return false;
            _byId.Remove(callId);
            _bytes -= kept.Bytes;
            return true;
        }

        /// <summary>
        /// After a prune forgot some: what expired leaves the queue's front (calls expire in the
        /// order they finished; one behind a later clock waits for those before it).
        /// </summary>
        public void AfterPrune()
        {
            while (_oldest < _inOrder.Count && !IsKept(_inOrder[_oldest])) _oldest++;
            DropSpentFront();
        }

        private bool IsKept(Kept record) => _byId.TryGetValue(record.CallId, out var kept) && kept == record;

        private void DropSpentFront()
        {
            if (_oldest > 1024 && _oldest * 2 > _inOrder.Count)
            {
                _inOrder = _inOrder.GetRange(_oldest, _inOrder.Count - _oldest);
                _oldest = 0;
            }
        }

        /// <summary>About how many characters of strings a value holds, <paramref name="depth"/> levels down: where a result's size is.</summary>
        private static long StringBytes(JToken value, int depth)
        {
            if (value == null) return 0;
            if (value.Type == JTokenType.String) return ((string)value).Length;
            if (depth == 0) return 0;
            long bytes = 0;
            if (value is JObject obj) foreach (var property in obj.Properties()) bytes += StringBytes(property.Value, depth - 1);
            else if (value is JArray array) foreach (var item in array) bytes += StringBytes(item, depth - 1);
            return bytes;
        }
    }
}
