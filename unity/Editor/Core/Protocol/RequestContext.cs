using System;
using System.Threading;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// A cancellation whose CancellationTokenSource is built only when someone asks for the token.
    /// Every request a peer sends can be abandoned; almost none is, and most handlers never look.
    /// Cancelled on the loop; its callbacks run there, synchronously.
    /// </summary>
    public sealed class LazyCancellation
    {
        private CancellationTokenSource _source;
        private TetherException _reason;

        /// <summary>Why it was cancelled, once it has been.</summary>
        public TetherException Reason => _reason;

        public bool IsCancelled => _reason != null;

        public CancellationToken Token
        {
            get
            {
                if (_source == null)
                {
                    _source = new CancellationTokenSource();
                    if (_reason != null) _source.Cancel();
                }
                return _source.Token;
            }
        }

        /// <summary>Cancels once; later calls keep the first reason. A throwing callback stops neither the others nor the caller.</summary>
        public void Cancel(TetherException reason)
        {
            if (_reason != null) return;
            _reason = reason ?? new TetherException(ErrorCodes.Cancelled, "Cancelled.");
            if (_source == null) return;
            try
            {
                _source.Cancel();
            }
            catch (AggregateException)
            {
                // A callback failed; the cancellation itself happened.
            }
        }
    }

    /// <summary>A request being handled: its id, method, connection, and its abandonment.</summary>
    public sealed class RequestContext
    {
        internal RequestContext(JToken id, string method, JsonRpcConnection connection)
        {
            Id = id;
            Method = method;
            Connection = connection;
        }

        public JToken Id { get; }
        public string Method { get; }
        public JsonRpcConnection Connection { get; }

        internal LazyCancellation Abandonment { get; } = new LazyCancellation();

        /// <summary>Cancelled when the peer cancels the request (notifications/cancelled) or the connection closes.</summary>
        public CancellationToken Abandoned => Abandonment.Token;

        /// <summary>Why the request was abandoned, once it was (CANCELLED or CONNECTION_CLOSED).</summary>
        public TetherException AbandonedReason => Abandonment.Reason;
    }
}
