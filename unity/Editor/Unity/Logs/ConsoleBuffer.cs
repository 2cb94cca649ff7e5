using System;
using System.Collections.Generic;
using System.Linq;

namespace Tether.Unity.Logs
{
    /// <summary>
    /// The console as read_console sees it: a bounded ring of entries, newest last, filled from
    /// any thread (Unity calls logMessageReceivedThreaded on the thread that logged). When full,
    /// the oldest entries go.
    /// </summary>
    internal sealed class ConsoleBuffer
    {
        /// <summary>read_console's count is at most 10,000; the buffer keeps that many.</summary>
        public const int DefaultCapacity = 10000;

        private readonly object _gate = new object();
        private readonly ConsoleEntry[] _ring;
        private int _start;
        private int _count;

        public ConsoleBuffer(int capacity = DefaultCapacity)
        {
            if (capacity < 1) throw new ArgumentOutOfRangeException(nameof(capacity));
            _ring = new ConsoleEntry[capacity];
        }

        public int Capacity => _ring.Length;

        public int Count
        {
            get { lock (_gate) return _count; }
        }

        /// <summary>Changes with every add and clear: a different value means the console changed.</summary>
        public long Revision
        {
            get { lock (_gate) return _revision; }
        }

        private long _revision;

        public void Add(ConsoleEntry entry)
        {
            if (entry == null) return;
            lock (_gate)
            {
                if (_count < _ring.Length)
                {
                    _ring[(_start + _count) % _ring.Length] = entry;
                    _count++;
                }
                else
                {
                    _ring[_start] = entry;
                    _start = (_start + 1) % _ring.Length;
                }
                _revision++;
            }
        }

        public void AddRange(IEnumerable<ConsoleEntry> entries)
        {
            if (entries == null) return;
            foreach (var entry in entries) Add(entry);
        }

        /// <summary>
        /// The newest <paramref name="count"/> entries (all when null) of the given types (all when
        /// null) whose message contains <paramref name="filter"/> (case-insensitive), oldest first.
        /// </summary>
        public IReadOnlyList<ConsoleEntry> Read(IEnumerable<string> types = null, int? count = null, string filter = null)
        {
            var wanted = types == null ? null : new HashSet<string>(types);
            var matching = Snapshot().Where(entry =>
                (wanted == null || wanted.Contains(entry.Type))
                && (string.IsNullOrEmpty(filter) || entry.Message.IndexOf(filter, StringComparison.OrdinalIgnoreCase) >= 0)).ToList();
            if (count == null || count.Value >= matching.Count) return matching;
            return matching.Skip(matching.Count - Math.Max(0, count.Value)).ToList();
        }

        /// <summary>Empties the buffer; returns how many entries it held.</summary>
        public int Clear()
        {
            lock (_gate)
            {
                var cleared = _count;
                Array.Clear(_ring, 0, _ring.Length);
                _start = 0;
                _count = 0;
                _revision++;
                return cleared;
            }
        }

        /// <summary>Every entry, oldest first.</summary>
        public List<ConsoleEntry> Snapshot()
        {
            lock (_gate)
            {
                var all = new List<ConsoleEntry>(_count);
                for (var i = 0; i < _count; i++) all.Add(_ring[(_start + i) % _ring.Length]);
                return all;
            }
        }
    }
}
