using System.Collections.Generic;

namespace Tether.Core.Journal
{
    /// <summary>Where journal entries are kept (a file, or memory).</summary>
    public interface IJournalStore
    {
        /// <summary>
        /// What the store holds, one entry per callId (the latest record), in the order the callIds
        /// first appear. Throws when it cannot tell (a journal that exists but cannot be read, or a
        /// place it cannot be written): a host that went on without its journal could run again a
        /// call it had already run.
        /// </summary>
        IReadOnlyList<JournalEntry> Load();

        /// <summary>
        /// Records the entry's latest state before returning; throws, having recorded nothing, when
        /// it cannot. <paramref name="sync"/>: on the disk itself, surviving a power cut or an OS
        /// crash; otherwise it may only have reached the OS (it survives a crash of the process).
        /// </summary>
        void Save(JournalEntry entry, bool sync);

        /// <summary>Replaces the whole store with these entries (compaction).</summary>
        void Rewrite(IReadOnlyList<JournalEntry> entries);
    }
}
