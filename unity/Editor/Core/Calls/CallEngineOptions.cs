using System;
using System.Collections.Generic;
using Tether.Core.Journal;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Calls
{
    /// <summary>What a CallEngine works with.</summary>
    public sealed class CallEngineOptions
    {
        /// <summary>Where calls are written ahead (CallJournal.Open).</summary>
        public CallJournal Journal;

        /// <summary>The tools by name, read at each call (the registry may change between calls).</summary>
        public Func<IReadOnlyDictionary<string, RegisteredTool>> Tools;

        /// <summary>Where main-thread tools run, one at a time.</summary>
        public IMainThread MainThread;

        /// <summary>The loop that owns the engine: every method is called on it, and its timers are the engine's.</summary>
        public HostLoop Loop;

        /// <summary>Longest silence allowed while a call is queued or running (advertised in the hello).</summary>
        public int HeartbeatMs = 5000;

        /// <summary>Execution deadline when neither the call nor the tool sets one: 10 minutes.</summary>
        public long DefaultDeadlineMs = 600_000;

        /// <summary>
        /// How long past its deadline a tool that has not stopped is waited for before the call is
        /// given up, its outcome unknown (protocol.md §8.6): a tool that ignores its signal must not
        /// hold its requesters, and every call queued behind it, for ever. Advertised in the hello.
        /// </summary>
        public long DeadlineGraceMs = 30_000;

        /// <summary>
        /// After a restart or a reload, how long the calls queued before it wait for their
        /// requesters to come back before they run (protocol.md §8.5): a cancel sent while the host
        /// was away must still find them queued. 0 runs them at once.
        /// </summary>
        public int RequeueGraceMs = 2000;

        /// <summary>
        /// The first life of the editor's process, not one after a domain reload: a call found
        /// queued was left by an editor that stopped (crashed), maybe long ago, and runs only if
        /// one of its requesters comes back for it within the grace (protocol.md §8.5). The mark
        /// is journaled with the call (LeftByRestart), so it outlives a domain reload within the grace.
        /// </summary>
        public bool AfterRestart;

        /// <summary>Where the engine tells a person what went wrong with its journal. Optional.</summary>
        public IHostLog Log;
    }
}
