using System.Threading;

namespace Tether.Core.Calls
{
    /// <summary>
    /// Who gets a main-thread tool's run first: the main thread, as it begins the work posted to
    /// it, or the host, stopping (a domain reload, a quit) before it did. The call is journaled
    /// running as its work is posted, and a reload drops what the main thread has not begun: a
    /// call the host takes back here never ran, so it goes back to queued instead of being read,
    /// in the next domain, as cut off mid-run (outcome unknown). Either side wins once, from any
    /// thread.
    /// </summary>
    internal sealed class MainThreadClaim
    {
        private const int Open = 0;
        private const int Started = 1;
        private const int Withdrawn = 2;
        private int _state = Open;

        /// <summary>On the main thread, before the tool runs: false when the host took the run back.</summary>
        public bool TryStart() => Interlocked.CompareExchange(ref _state, Started, Open) == Open;

        /// <summary>On the loop, as the host stops: true when the main thread had not begun the run, and now never will.</summary>
        public bool TryWithdraw() => Interlocked.CompareExchange(ref _state, Withdrawn, Open) == Open;
    }
}
