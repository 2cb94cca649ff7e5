using System.Collections.Generic;

namespace Tether.Core.Journal
{
    /// <summary>What loading a journal found that the call engine must act on (protocol.md §8.5).</summary>
    public sealed class JournalLoad
    {
        public JournalLoad(IReadOnlyList<JournalEntry> requeue, IReadOnlyList<JournalEntry> interrupted)
        {
            Requeue = requeue;
            Interrupted = interrupted;
        }

        /// <summary>Entries found queued, in journal order: they never started, so they are queued again.</summary>
        public IReadOnlyList<JournalEntry> Requeue { get; }

        /// <summary>Entries found running, now interrupted (OUTCOME_UNKNOWN): they are never run again.</summary>
        public IReadOnlyList<JournalEntry> Interrupted { get; }
    }
}
