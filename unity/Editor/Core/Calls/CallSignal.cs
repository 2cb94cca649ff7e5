using System;
using System.Threading;
using Tether.Core.Protocol;

namespace Tether.Core.Calls
{
    /// <summary>
    /// A running call's cancellation: fired once, by calls/cancel or by its deadline, with the
    /// reason (CANCELLED or DEADLINE_EXCEEDED) the call ends with if the tool then stops.
    /// Two tokens, because callbacks registered on a token run on the thread that cancels it:
    /// the tool's token is cancelled on the thread pool, so that nothing a tool hangs on it (or an
    /// await without a context resuming inline) ever runs on the host loop; the token handed to
    /// the connections' elicitation and sampling requests is cancelled on the loop, where their
    /// state lives.
    /// </summary>
    internal sealed class CallSignal
    {
        private readonly CancellationTokenSource _tool = new CancellationTokenSource();
        private readonly CancellationTokenSource _requests = new CancellationTokenSource();
        private volatile TetherException _reason;

        /// <summary>What the tool watches (IToolContext.Cancellation).</summary>
        public CancellationToken ToolToken => _tool.Token;

        /// <summary>What the call's client requests (elicitation, sampling) are cancelled by.</summary>
        public CancellationToken RequestToken => _requests.Token;

        /// <summary>Why it fired, or null before it did. Readable from any thread.</summary>
        public TetherException Reason => _reason;

        /// <summary>Fires once, on the loop; later calls keep the first reason.</summary>
        public void Fire(TetherException reason, Action<Exception> onCallbackError)
        {
            if (_reason != null) return;
            _reason = reason;
            try
            {
                _requests.Cancel();
            }
            catch (AggregateException error)
            {
                onCallbackError?.Invoke(error);
            }
            ThreadPool.QueueUserWorkItem(_ =>
            {
                try { _tool.Cancel(); }
                catch (Exception error) { onCallbackError?.Invoke(error); }
            });
        }
    }
}
