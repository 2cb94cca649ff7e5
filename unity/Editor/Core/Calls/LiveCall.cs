using System;
using System.Collections.Generic;
using Tether.Core.Journal;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>
    /// An execution that is queued or running, with every callId that wants its outcome (the
    /// executing one and the aliases of identical calls that attached to it) and every connection
    /// that hears about it. Owned by the host loop.
    /// </summary>
    internal sealed class LiveCall
    {
        private readonly Dictionary<string, Requester> _requesters = new Dictionary<string, Requester>();
        private readonly List<Requester> _inOrder = new List<Requester>();

        public LiveCall(JournalEntry entry, long now)
        {
            Entry = entry;
            LastSentAt = now;
        }

        /// <summary>The entry of the callId that actually executes.</summary>
        public JournalEntry Entry { get; }

        /// <summary>Requesters in the order they came (the executing callId first).</summary>
        public IReadOnlyList<Requester> Requesters => _inOrder;

        /// <summary>Who hears about the call: each connection, under each callId it attached by, most recent last.</summary>
        public readonly List<Listener> Listeners = new List<Listener>();

        /// <summary>Requests waiting for the outcome; each is called once when the call ends.</summary>
        public readonly List<Action<TetherException>> Waiters = new List<Action<TetherException>>();

        /// <summary>The running tool's cancellation; null until it runs.</summary>
        public CallSignal Signal;

        /// <summary>The deadline's timer while the tool runs.</summary>
        public IDisposable Deadline;

        /// <summary>For a main-thread tool posted to the main thread: whether it began there, or the host took it back (MainThreadClaim).</summary>
        public MainThreadClaim Claim;

        /// <summary>Told when the call ends, by the runner that started it (the main thread is free again).</summary>
        public Action RunnerDone;

        /// <summary>When progress was last sent for it (MonotonicClock ms): a heartbeat follows heartbeatMs of silence.</summary>
        public long LastSentAt;

        /// <summary>The tool's last progress, repeated in heartbeats.</summary>
        public ToolProgress LastProgress = ToolProgress.None;

        /// <summary>Queued behind other work: its requesters are told when it starts running.</summary>
        public bool Waited;

        public Requester RequesterOf(string callId) => _requesters.TryGetValue(callId, out var requester) ? requester : null;

        public void AddRequester(JournalEntry entry)
        {
            var requester = new Requester(entry);
            if (_requesters.TryGetValue(entry.CallId, out var old)) _inOrder.Remove(old);
            _requesters[entry.CallId] = requester;
            _inOrder.Add(requester);
        }
    }

    /// <summary>One callId that wants the outcome of a live execution (unless its entry says it withdrew).</summary>
    internal sealed class Requester
    {
        public Requester(JournalEntry entry)
        {
            Entry = entry;
        }

        public JournalEntry Entry { get; }

        /// <summary>This callId's waiting requests, ended at once when it withdraws.</summary>
        public readonly List<Action<TetherException>> OnWithdraw = new List<Action<TetherException>>();
    }

    /// <summary>A connection hearing about a call under one callId.</summary>
    internal sealed class Listener
    {
        public Listener(ICallObserver observer, string callId)
        {
            Observer = observer;
            CallId = callId;
        }

        public ICallObserver Observer { get; }

        public string CallId { get; }

        /// <summary>Requests of this connection waiting under this callId; at 0 it stops hearing about the call.</summary>
        public int Waiting;
    }

    /// <summary>What a tool last reported (each report replaces the one before).</summary>
    internal sealed class ToolProgress
    {
        public static readonly ToolProgress None = new ToolProgress(null, null, null);

        public ToolProgress(double? progress, double? total, string message)
        {
            Progress = progress;
            Total = total;
            Message = message;
        }

        public double? Progress { get; }
        public double? Total { get; }
        public string Message { get; }
    }
}
