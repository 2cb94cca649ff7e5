using System;
using System.Collections.Generic;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;
using Tether.Core.Protocol;

namespace Tether.Core.Host
{
    /// <summary>
    /// One client connection to a host (src/host/host-connection.ts). Until the handshake
    /// succeeds only tether/hello is accepted: anything else is refused with HANDSHAKE_REQUIRED
    /// and the connection closes, as does a wrong token or an unsupported protocol version (with a
    /// typed error frame first). Once authenticated it serves every method of protocol.md §7,
    /// hears about the calls it started (ICallObserver), and is pinged. Lives on the loop.
    /// </summary>
    internal sealed partial class HostConnection : ICallObserver
    {
        /// <summary>Resources one connection may follow at once: each is kept until unsubscribed, so the count is bounded.</summary>
        public const int MaxSubscriptions = 1024;

        private readonly HostCore _core;
        private bool _authenticated;
        private bool _canElicit;
        private bool _canSample;
        private IDisposable _handshakeTimer;
        private IDisposable _pingTimer;

        public HostConnection(string id, string endpoint, JsonRpcConnection rpc, HostCore core)
        {
            Id = id;
            Endpoint = endpoint;
            Rpc = rpc;
            _core = core;
            rpc.OnRequest(Methods.Hello, (parameters, context) => Task.FromResult<JToken>(Hello(parameters)));
            rpc.OnOtherRequest((parameters, context) => throw CloseSoon(HandshakeRequired()));
            rpc.OnOtherNotification(parameters =>
            {
                // A notification has no id to answer: say why with an id-less error frame, then close.
                var error = HandshakeRequired();
                Rpc.SendError(error);
                Rpc.Refuse(error);
            });
            rpc.OnClose(error => Dispose());
            var timeoutMs = core.Options.HandshakeTimeoutMs;
            _handshakeTimer = core.Loop.SetTimeout(timeoutMs, () =>
                Rpc.Close(new TetherException(ErrorCodes.HandshakeRequired, $"No handshake within {timeoutMs} ms; closing.")));
        }

        public string Id { get; }

        /// <summary>The peer's address:port.</summary>
        public string Endpoint { get; }

        public JsonRpcConnection Rpc { get; }

        /// <summary>What the client called itself in its hello ("" before).</summary>
        public string ClientName { get; private set; } = "";

        /// <summary>The version the client gave in its hello, if any.</summary>
        public string ClientVersion { get; private set; }

        /// <summary>When the handshake completed (epoch ms; 0 before).</summary>
        public long AuthenticatedAt { get; private set; }

        public HashSet<string> Subscriptions { get; } = new HashSet<string>(StringComparer.Ordinal);

        public bool IsAuthenticated => _authenticated && Rpc.IsOpen;

        /// <summary>Sends a notification if the connection is authenticated and open.</summary>
        public void Send(string method, JToken parameters)
        {
            if (IsAuthenticated) Rpc.Notify(method, parameters);
        }

        /// <summary>Says goodbye (reason, message and the rest; "at" is added), then closes: the bye is the last frame.</summary>
        public void Bye(JObject bye)
        {
            bye["at"] = HostCore.NowMs();
            Send(Methods.Bye, bye);
            var reason = (string)bye["reason"];
            Rpc.Close(new TetherException(reason == "evicted" ? ErrorCodes.Evicted : ErrorCodes.ConnectionClosed, (string)bye["message"], new JObject { ["reason"] = reason }));
        }

        // --- ICallObserver ---------------------------------------------------------------------

        public void Progress(JObject progressParams) => Send(Methods.CallProgress, progressParams);

        public void Log(string callId, string level, JToken data, string logger)
        {
            var message = new JObject { ["callId"] = callId, ["level"] = level, ["data"] = data ?? JValue.CreateNull() };
            if (!string.IsNullOrEmpty(logger)) message["logger"] = logger;
            Send(Methods.Log, message);
        }

        public bool CanElicit => _canElicit;

        public bool CanSample => _canSample;

        public async Task<JObject> Elicit(string callId, string message, JObject requestedSchema, CancellationToken cancellation)
        {
            var parameters = new JObject { ["callId"] = callId, ["message"] = message, ["requestedSchema"] = requestedSchema };
            return ObjectAnswer(Methods.Elicit, await Rpc.Request(Methods.Elicit, parameters, cancellation));
        }

        public Task<JToken> Sample(string callId, JObject parameters, CancellationToken cancellation)
        {
            var request = parameters != null ? (JObject)parameters.DeepClone() : new JObject();
            request["callId"] = callId;
            return Rpc.Request(Methods.Sample, request, cancellation);
        }

        private static JObject ObjectAnswer(string method, JToken answer)
        {
            if (answer is JObject result) return result;
            throw new TetherException(ErrorCodes.ClientRequestFailed, $"The client answered \"{method}\" with something other than an object.", new JObject { ["method"] = method });
        }

        // --- Liveness and the end -------------------------------------------------------------

        /// <summary>Host-side liveness: a client that stops answering pings is dropped, without a bye (its calls carry on).</summary>
        private void StartPinging()
        {
            var interval = _core.Options.PingIntervalMs;
            if (interval <= 0) return;
            _pingTimer = _core.Loop.SetInterval(interval, () => _ = Ping(interval));
        }

        private async Task Ping(int interval)
        {
            try
            {
                await Rpc.Request(Methods.Ping, null, default, interval);
            }
            catch (Exception error)
            {
                if (Rpc.IsOpen) Rpc.Close(new TetherException(ErrorCodes.RequestTimeout, $"Client stopped answering pings: {error.Message}"));
            }
        }

        private void Dispose()
        {
            _handshakeTimer?.Dispose();
            _pingTimer?.Dispose();
            _authenticated = false;
            _core.Engine?.Detach(this);
            _core.Forget(this);
        }
    }
}
