using System;
using System.Collections.Generic;
using System.Linq;
using Tether.Core.Runtime;

namespace Tether.Core.Calls
{
    /// <summary>
    /// One loop timer for every live call (protocol.md §8.9): a call hears a heartbeat when
    /// nothing was sent for it for about heartbeatMs. It runs on the loop, never waiting for the
    /// main thread, so a build that blocks the editor for an hour still says "alive" every few
    /// seconds. It ticks five times per interval and stops while no call is live.
    /// </summary>
    internal sealed class HeartbeatTicker : IDisposable
    {
        private readonly HostLoop _loop;
        private readonly int _heartbeatMs;
        private readonly int _tickMs;
        private readonly Func<ICollection<LiveCall>> _live;
        private readonly Action<LiveCall> _beat;
        private IDisposable _timer;
        private bool _disposed;

        public HeartbeatTicker(HostLoop loop, int heartbeatMs, Func<ICollection<LiveCall>> live, Action<LiveCall> beat)
        {
            _loop = loop;
            _heartbeatMs = Math.Max(1, heartbeatMs);
            _tickMs = Math.Max(20, _heartbeatMs / 5);
            _live = live;
            _beat = beat;
        }

        /// <summary>Starts ticking, if it is not already.</summary>
        public void Ensure()
        {
            if (_timer != null || _disposed) return;
            _timer = _loop.SetInterval(_tickMs, Tick);
        }

        public void Stop()
        {
            _timer?.Dispose();
            _timer = null;
        }

        public void Dispose()
        {
            _disposed = true;
            Stop();
        }

        private void Tick()
        {
            var calls = _live();
            if (calls.Count == 0)
            {
                Stop();
                return;
            }
            var now = MonotonicClock.NowMs();
            foreach (var call in calls.ToList())
            {
                if (now - call.LastSentAt + _tickMs >= _heartbeatMs) _beat(call);
            }
        }
    }
}
