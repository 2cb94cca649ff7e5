using System;
using System.Collections.Generic;
using Tether.Core.Runtime;

namespace Tether.Core.Calls
{
    /// <summary>
    /// After a restart or a reload, the calls queued before it wait for their requesters
    /// (protocol.md §8.5): a client that cancelled while the host was away sends its calls/cancel
    /// once it reconnects, and it must find the call still queued. Nothing starts until a
    /// requester of each is back (a calls/start with its callId), or the grace has passed.
    /// </summary>
    internal sealed class RequeueGrace : IDisposable
    {
        private readonly HostLoop _loop;
        private readonly HashSet<LiveCall> _awaiting = new HashSet<LiveCall>();
        private IDisposable _timer;
        private Action<List<LiveCall>> _onEnd;

        public RequeueGrace(HostLoop loop)
        {
            _loop = loop;
        }

        public bool Active => _onEnd != null;

        /// <summary>True while this requeued call still waits for its requesters.</summary>
        public bool IsHolding(LiveCall call) => _awaiting.Contains(call);

        /// <summary>Holds the calls for at most graceMs; onEnd gets those none of whose requesters came back.</summary>
        public void Begin(IEnumerable<LiveCall> calls, int graceMs, Action<List<LiveCall>> onEnd)
        {
            foreach (var call in calls) _awaiting.Add(call);
            _onEnd = onEnd;
            _timer = _loop.SetTimeout(graceMs, End);
        }

        /// <summary>A requester of a requeued call is back (or the call ended): the last one back ends the grace.</summary>
        public void RequesterBack(LiveCall call)
        {
            if (call == null || !_awaiting.Remove(call)) return;
            if (_awaiting.Count == 0) End();
        }

        /// <summary>The requeued calls may run: their requesters are back, or had their chance.</summary>
        public void End()
        {
            _timer?.Dispose();
            _timer = null;
            var unclaimed = new List<LiveCall>(_awaiting);
            _awaiting.Clear();
            var onEnd = _onEnd;
            _onEnd = null;
            onEnd?.Invoke(unclaimed);
        }

        public void Dispose()
        {
            _timer?.Dispose();
            _timer = null;
            _awaiting.Clear();
            _onEnd = null;
        }
    }
}
