using System;
using System.Collections.Generic;
using System.IO;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Runtime;

namespace Tether.Core.Protocol
{
    /// <summary>Handles a request; the result (null: {}) is the answer, an exception the error answer.</summary>
    public delegate Task<JToken> RequestHandler(JToken parameters, RequestContext context);

    /// <summary>
    /// A JSON-RPC 2.0 peer over a stream (protocol.md §4): matches responses to requests, dispatches
    /// incoming requests and notifications to handlers, and closes idempotently. On close, every
    /// pending outgoing request fails with CONNECTION_CLOSED and every running handler's
    /// cancellation fires. Everything happens on the HostLoop: call every member there.
    /// </summary>
    public sealed class JsonRpcConnection : ITransportHandlers
    {
        /// <summary>The notification either side sends to abandon one of its own requests.</summary>
        public const string CancelRequest = "notifications/cancelled";

        private readonly HostLoop _loop;
        private readonly FramedTransport _transport;
        private readonly Dictionary<string, RequestHandler> _requestHandlers = new Dictionary<string, RequestHandler>();
        private readonly Dictionary<string, Action<JToken>> _notificationHandlers = new Dictionary<string, Action<JToken>>();
        private readonly Dictionary<long, PendingRequest> _pending = new Dictionary<long, PendingRequest>();
        private readonly Dictionary<string, RequestContext> _running = new Dictionary<string, RequestContext>();
        private readonly List<Action<TetherException>> _closeListeners = new List<Action<TetherException>>();
        private RequestHandler _otherRequests;
        private Action<JToken> _otherNotifications;
        private long _nextId = 1;
        private bool _closed;
        private bool _refusing;

        public JsonRpcConnection(HostLoop loop, FramedTransport transport)
        {
            _loop = loop ?? throw new ArgumentNullException(nameof(loop));
            _transport = transport ?? throw new ArgumentNullException(nameof(transport));
            OnNotification(CancelRequest, parameters =>
            {
                var key = Messages.IdKey((parameters as JObject)?["requestId"]);
                if (key != null && _running.TryGetValue(key, out var context))
                    context.Abandonment.Cancel(new TetherException(ErrorCodes.Cancelled, "The peer cancelled the request."));
            });
        }

        /// <summary>A connection over any stream, with its own framed transport.</summary>
        public JsonRpcConnection(HostLoop loop, Stream stream, FrameLimits limits, Socket socket = null, bool readOnlyWhatPeerReads = false)
            : this(loop, new FramedTransport(loop, stream, limits, socket, readOnlyWhatPeerReads)) { }

        public FramedTransport Transport => _transport;

        public bool IsOpen => !_closed;

        /// <summary>Why the connection closed, once it has (null for a clean close).</summary>
        public TetherException ClosedWith { get; private set; }

        /// <summary>Starts reading. Register the handlers first.</summary>
        public JsonRpcConnection Start()
        {
            _transport.Start(this);
            return this;
        }

        public JsonRpcConnection OnRequest(string method, RequestHandler handler)
        {
            _requestHandlers[method] = handler;
            return this;
        }

        public JsonRpcConnection OnNotification(string method, Action<JToken> handler)
        {
            _notificationHandlers[method] = handler;
            return this;
        }

        /// <summary>Handles requests no specific handler claims (null: METHOD_NOT_FOUND).</summary>
        public JsonRpcConnection OnOtherRequest(RequestHandler handler)
        {
            _otherRequests = handler;
            return this;
        }

        /// <summary>Handles notifications no specific handler claims (null: ignored, as JSON-RPC says).</summary>
        public JsonRpcConnection OnOtherNotification(Action<JToken> handler)
        {
            _otherNotifications = handler;
            return this;
        }

        /// <summary>Called once when the connection closes, with the reason (at once, later on the loop, if it already has).</summary>
        public JsonRpcConnection OnClose(Action<TetherException> listener)
        {
            if (_closed) _loop.Post(() => listener(ClosedWith));
            else _closeListeners.Add(listener);
            return this;
        }

        /// <summary>The peer passed the handshake; <paramref name="maxFrameBytes"/> bounds what may be sent to it.</summary>
        public void PeerAuthenticated(long? maxFrameBytes) => _transport.PeerAuthenticated(maxFrameBytes);

        /// <summary>
        /// Sends a request and completes with its result, or fails with the peer's error,
        /// REQUEST_TIMEOUT, CANCELLED (the token; the peer is sent notifications/cancelled) or
        /// CONNECTION_CLOSED.
        /// </summary>
        public Task<JToken> Request(string method, JToken parameters = null, CancellationToken cancellation = default, long? timeoutMs = null)
        {
            if (_closed) return Task.FromException<JToken>(ClosedError());
            if (cancellation.IsCancellationRequested) return Task.FromException<JToken>(Cancelled(method));
            long id = _nextId++;
            var pending = new PendingRequest(method);
            _pending[id] = pending;
            try
            {
                _transport.Send(OutgoingMessage.Request(id, method, parameters));
            }
            catch (Exception error)
            {
                _pending.Remove(id);
                return Task.FromException<JToken>(AsTether(error));
            }
            if (timeoutMs.HasValue)
            {
                pending.Timer = _loop.SetTimeout(timeoutMs.Value, () => Abandon(id, new TetherException(
                    ErrorCodes.RequestTimeout,
                    $"\"{method}\" got no answer within {timeoutMs.Value} ms.",
                    new JObject { ["method"] = method, ["timeoutMs"] = timeoutMs.Value })));
            }
            if (cancellation.CanBeCanceled)
            {
                pending.Registration = cancellation.Register(() =>
                {
                    if (_loop.IsCurrent) Abandon(id, Cancelled(method));
                    else _loop.Post(() => Abandon(id, Cancelled(method)));
                });
            }
            return pending.Completion.Task;
        }

        /// <summary>
        /// Sends a notification; false when nothing was sent: the connection is closed, or the
        /// notification is larger than the peer reads (a tool's long progress or log line), in which
        /// case it is dropped for this peer alone. A notification is never worth a call or a connection.
        /// </summary>
        public bool Notify(string method, JToken parameters = null)
        {
            if (_closed) return false;
            try
            {
                _transport.Send(OutgoingMessage.Notification(method, parameters));
            }
            catch (TetherException error) when (error.Code == ErrorCodes.FrameTooLarge)
            {
                return false;
            }
            return true;
        }

        /// <summary>
        /// Refuses the peer: nothing else it sent is dispatched (even frames already received in the
        /// same chunk), the reply being written now still goes out, and the connection then closes.
        /// </summary>
        public void Refuse(TetherException error)
        {
            if (_refusing || _closed) return;
            _refusing = true;
            _loop.Post(() => Close(error));
        }

        /// <summary>Sends an error not tied to any request (id null), e.g. before closing for a protocol fault.</summary>
        public void SendError(TetherException error) => Reply(null, null, error, null);

        /// <summary>Closes the connection, flushing what was sent first. Idempotent.</summary>
        public void Close(TetherException error = null)
        {
            if (_closed) return;
            _transport.Close(error);
            Finish(error);
        }

        // --- ITransportHandlers (from the transport, on the loop) ---------------------------------

        void ITransportHandlers.OnMessage(JObject message)
        {
            if (_refusing || _closed) return;
            if (Messages.IsRequest(message)) HandleRequest(message);
            else if (Messages.IsNotification(message)) HandleNotification(message);
            else HandleResponse(message);
        }

        void ITransportHandlers.OnMalformed(TetherException error, JToken id) => Reply(id, null, error, null);

        void ITransportHandlers.OnClose(TetherException error) => Finish(error);

        // --- Dispatch --------------------------------------------------------------------------

        private void HandleRequest(JObject message)
        {
            var method = (string)message["method"];
            var id = message["id"];
            if (!_requestHandlers.TryGetValue(method, out var handler)) handler = _otherRequests;
            if (handler == null)
            {
                var name = Text.Clipped(method);
                Reply(id, null, new TetherException(ErrorCodes.MethodNotFound, $"Unknown method \"{name}\".", new JObject { ["method"] = name }), method);
                return;
            }
            var context = new RequestContext(id, method, this);
            var key = Messages.IdKey(id);
            _running[key] = context;
            Task<JToken> outcome;
            try
            {
                outcome = handler(message["params"], context) ?? Task.FromResult<JToken>(null);
            }
            catch (Exception error)
            {
                Settle(key, context, null, error);
                return;
            }
            // A handler that answered at once is answered at once: a refusal's reply precedes its close.
            if (outcome.IsCompleted) SettleFrom(key, context, outcome);
            else _ = AwaitAndSettle(key, context, outcome);
        }

        private async Task AwaitAndSettle(string key, RequestContext context, Task<JToken> outcome)
        {
            try
            {
                await outcome;
            }
            catch (Exception)
            {
                // Read from the task below, with the error unwrapped.
            }
            SettleFrom(key, context, outcome);
        }

        private void SettleFrom(string key, RequestContext context, Task<JToken> outcome)
        {
            if (outcome.IsFaulted) Settle(key, context, null, outcome.Exception);
            else if (outcome.IsCanceled) Settle(key, context, null, new TetherException(ErrorCodes.Cancelled, $"\"{context.Method}\" was cancelled."));
            else Settle(key, context, outcome.Result, null);
        }

        private void Settle(string key, RequestContext context, JToken result, Exception error)
        {
            if (_running.TryGetValue(key, out var current) && current == context) _running.Remove(key);
            Reply(context.Id, result, error == null ? null : AsTether(error), context.Method);
        }

        private void HandleNotification(JObject message)
        {
            var method = (string)message["method"];
            if (!_notificationHandlers.TryGetValue(method, out var handler)) handler = _otherNotifications;
            try
            {
                handler?.Invoke(message["params"]);
            }
            catch (Exception)
            {
                // A notification has no one to answer; a faulty handler must not take the connection down.
            }
        }

        private void HandleResponse(JObject message)
        {
            // An id-null error is about a frame we sent that the peer could not read: nothing to match.
            var id = message["id"];
            if (id == null || id.Type == JTokenType.Null) return;
            long number;
            if (id.Type == JTokenType.Integer) number = id.Value<long>();
            else if (id.Type == JTokenType.Float && Math.Floor(id.Value<double>()) == id.Value<double>() && Math.Abs(id.Value<double>()) < 9e18) number = (long)id.Value<double>();
            else return;
            if (!_pending.TryGetValue(number, out var pending)) return;
            _pending.Remove(number);
            pending.Dispose();
            if (message["error"] is JObject error) pending.Completion.TrySetException(TetherException.FromWire(error));
            else pending.Completion.TrySetResult(message["result"]);
        }

        private void Reply(JToken id, JToken result, TetherException error, string method)
        {
            if (_closed) return;
            if (id == null && error == null) return;
            try
            {
                _transport.Send(error != null ? OutgoingMessage.Failure(id, error) : OutgoingMessage.Success(id, result));
            }
            catch (Exception sendError)
            {
                // The answer could not be framed (too large): answer with that error instead, saying
                // that the request itself was handled, which for a call means it ran.
                var failure = AsTether(sendError);
                var unsent = error == null && failure.Code == ErrorCodes.FrameTooLarge
                    ? new TetherException(
                        ErrorCodes.FrameTooLarge,
                        $"The answer to \"{method ?? "the request"}\" was ready, but at {failure.Data["length"]} bytes it exceeds the {failure.Data["maxFrameBytes"]}-byte frame limit of the receiver, so it was not sent. The request itself was handled.",
                        Merge(failure.Data, method))
                    : failure;
                try
                {
                    _transport.Send(OutgoingMessage.Failure(id, unsent));
                }
                catch (Exception)
                {
                    // Not even that fits what the peer reads: it cannot be answered, so it is let go.
                    Close(unsent);
                }
            }
        }

        private static JObject Merge(JObject data, string method)
        {
            var merged = (JObject)data.DeepClone();
            if (method != null) merged["method"] = method;
            merged["handled"] = true;
            return merged;
        }

        private void Abandon(long id, TetherException error)
        {
            if (!_pending.TryGetValue(id, out var pending)) return;
            _pending.Remove(id);
            pending.Dispose();
            Notify(CancelRequest, new JObject { ["requestId"] = id, ["reason"] = error.Message });
            pending.Completion.TrySetException(error);
        }

        private static TetherException Cancelled(string method) =>
            new TetherException(ErrorCodes.Cancelled, $"\"{method}\" was abandoned before the peer answered.", new JObject { ["method"] = method });

        private TetherException ClosedError()
        {
            var why = ClosedWith != null ? $" ({ClosedWith.Message})" : "";
            return new TetherException(ErrorCodes.ConnectionClosed, $"The connection is closed{why}.", ClosedWith != null ? new JObject { ["cause"] = ClosedWith.ToJson() } : null);
        }

        private void Finish(TetherException error)
        {
            if (_closed) return;
            _closed = true;
            ClosedWith = error;
            var closed = ClosedError();
            var pending = new List<PendingRequest>(_pending.Values);
            _pending.Clear();
            foreach (var request in pending)
            {
                request.Dispose();
                request.Completion.TrySetException(closed);
            }
            var running = new List<RequestContext>(_running.Values);
            _running.Clear();
            foreach (var context in running) context.Abandonment.Cancel(closed);
            var listeners = _closeListeners.ToArray();
            _closeListeners.Clear();
            foreach (var listener in listeners)
            {
                try { listener(error); }
                catch (Exception) { /* one listener's fault must not keep the others from hearing */ }
            }
        }

        /// <summary>Anything thrown, as a TetherException (INTERNAL_ERROR with its message when it was not one).</summary>
        public static TetherException AsTether(Exception error)
        {
            while (error is AggregateException aggregate && aggregate.InnerExceptions.Count == 1) error = aggregate.InnerException;
            if (error is TetherException tether) return tether;
            if (error is BodyException body) return body.Error;
            if (error is OperationCanceledException) return new TetherException(ErrorCodes.Cancelled, "The operation was cancelled.");
            return new TetherException(ErrorCodes.InternalError, error?.Message ?? "Unknown error.");
        }

        private sealed class PendingRequest : IDisposable
        {
            public PendingRequest(string method) => Method = method;

            public string Method { get; }
            public TaskCompletionSource<JToken> Completion { get; } = new TaskCompletionSource<JToken>(TaskCreationOptions.RunContinuationsAsynchronously);
            public IDisposable Timer;
            public CancellationTokenRegistration Registration;

            public void Dispose()
            {
                Timer?.Dispose();
                Registration.Dispose();
            }
        }
    }
}
