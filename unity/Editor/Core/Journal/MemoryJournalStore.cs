using System.Collections.Generic;
using System.Linq;

namespace Tether.Core.Journal
{
    /// <summary>
    /// A store in memory (the journal then lives as long as the process). It snapshots each
    /// entry's fields when saved, sharing results by reference: a finished result never changes,
    /// and deep-copying every result on every save cost as much as the call itself for large ones.
    /// </summary>
    public class MemoryJournalStore : IJournalStore
    {
        private readonly OrderedEntries _entries = new OrderedEntries();

        public virtual IReadOnlyList<JournalEntry> Load() => _entries.Values.Select(e => e.Clone()).ToList();

        public virtual void Save(JournalEntry entry, bool sync) => _entries.Set(entry.CallId, entry.Clone());

        public virtual void Rewrite(IReadOnlyList<JournalEntry> entries)
        {
            _entries.Clear();
            foreach (var entry in entries) _entries.Set(entry.CallId, entry.Clone());
        }
    }
}
