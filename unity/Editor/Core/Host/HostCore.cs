using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Net.Sockets;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tools;

namespace Tether.Core.Host
{
    /// <summary>
    /// What the connections of one listener share (the TypeScript Host as HostCore): the options,
    /// identity and token, the engine and catalog, the host's state, and the connections in accept
    /// order. Lives on the loop: every member is called there.
    /// </summary>
    internal sealed class HostCore
    {
        private readonly List<HostConnection> _connections = new List<HostConnection>();

        /// <summary>Every stream not yet gone, including closed connections' still flushing or waiting for the peer.</summary>
        private readonly HashSet<FramedTransport> _transports = new HashSet<FramedTransport>();
        private readonly ProofNonces _nonces;
        private int _nextConnection = 1;

        /// <param name="token">The listener's token: <paramref name="options"/>.Token when the embedder gave one (its proofs' nonces are then remembered across listeners), else one of its own.</param>
        public HostCore(TetherHostOptions options, HostLoop loop, string instanceId, string token, ToolRegistry tools, Catalog catalog, IHostLog log)
        {
            Options = options;
            Loop = loop;
            Token = token;
            _nonces = ProofNonces.For(options.Token);
            Tools = tools;
            Catalog = catalog;
            Log = log;
            Limits = new FrameLimits
            {
                MaxFrameBytes = options.MaxFrameBytes,
                MaxHeaderBytes = options.MaxHeaderBytes,
                FrameTimeoutMs = options.FrameTimeoutMs,
            };
            Identity = new JObject
            {
                ["instanceId"] = instanceId,
                ["kind"] = options.Kind,
                ["name"] = options.Name,
                ["version"] = options.Version,
                ["projectPath"] = options.ProjectPath,
                ["pid"] = ProcessId.Current,
            };
        }

        public TetherHostOptions Options { get; }
        public HostLoop Loop { get; }
        public string Token { get; }
        public ToolRegistry Tools { get; }
        public Catalog Catalog { get; }
        public IHostLog Log { get; }
        public FrameLimits Limits { get; }

        /// <summary>The hello result's "host" object. Do not modify.</summary>
        public JObject Identity { get; }

        /// <summary>Set once the journal is restored (Start); calls/* are served only after.</summary>
        public CallEngine Engine { get; set; }

        private string _state = "ready";

        /// <summary>The host state ("ready", "compiling", …), as the hello result and host/state say it.</summary>
        public string State
        {
            get => _state;
            set
            {
                if (value != _state) StateSince = NowMs();
                _state = value;
            }
        }

        /// <summary>When the host entered its state (epoch ms): host/status's "since".</summary>
        public long StateSince { get; private set; } = NowMs();

        /// <summary>The host is closing: new connections are refused.</summary>
        public bool Closing { get; set; }

        /// <summary>Every open connection, authenticated or not, oldest first.</summary>
        public IReadOnlyList<HostConnection> Connections => _connections;

        /// <summary>Serves a new connection over <paramref name="stream"/>.</summary>
        public HostConnection Open(Stream stream, string endpoint, Socket socket)
        {
            var id = "c" + _nextConnection++;
            // Until its hello succeeds, a peer may send small frames only (protocol.md §14).
            var limits = Limits.Clone();
            limits.MaxFrameBytesBeforeHandshake = FrameLimits.HandshakeMaxFrameBytes;
            var transport = new FramedTransport(Loop, stream, limits, socket, readOnlyWhatPeerReads: true);
            var rpc = new JsonRpcConnection(Loop, transport);
            var connection = new HostConnection(id, endpoint, rpc, this);
            _connections.Add(connection);
            _transports.Add(transport);
            _ = ForgetWhenGone(transport);
            rpc.Start();
            return connection;
        }

        private async Task ForgetWhenGone(FramedTransport transport)
        {
            await transport.Gone;
            _transports.Remove(transport);
        }

        public void Forget(HostConnection connection) => _connections.Remove(connection);

        /// <summary>
        /// True the first time a client's proof nonce is seen by this listener, or under a given
        /// token by any listener of the process: a replayed hello is refused.
        /// </summary>
        public bool FirstUseOf(string nonce) => _nonces.FirstUseOf(nonce);

        /// <summary>The hello result (protocol.md §6.2), without the proof.</summary>
        public JObject HelloResult(string connectionId)
        {
            var capabilities = new JObject
            {
                ["tools"] = new JObject { ["listChanged"] = true },
                ["resources"] = new JObject { ["subscribe"] = true, ["listChanged"] = true },
                ["prompts"] = new JObject { ["listChanged"] = true },
                ["completions"] = new JObject(),
            };
            if (Options.MaxConnections.HasValue) capabilities["maxConnections"] = Options.MaxConnections.Value;
            return new JObject
            {
                ["protocolVersion"] = Methods.ProtocolVersion,
                ["host"] = Identity.DeepClone(),
                ["capabilities"] = capabilities,
                ["limits"] = new JObject
                {
                    ["maxFrameBytes"] = Limits.MaxFrameBytes,
                    ["maxHeaderBytes"] = Limits.MaxHeaderBytes,
                    ["frameTimeoutMs"] = Limits.FrameTimeoutMs,
                },
                ["heartbeatMs"] = Options.HeartbeatMs,
                ["deadlineGraceMs"] = Options.DeadlineGraceMs,
                ["pingIntervalMs"] = Options.PingIntervalMs,
                ["state"] = State,
                ["connectionId"] = connectionId,
            };
        }

        /// <summary>
        /// The host/status result (protocol.md §7.16): the state, the authenticated connections and
        /// what the engine holds, each list bounded. Answered on the loop, never on the main thread.
        /// </summary>
        public JObject HostStatus()
        {
            var max = Methods.HostStatusMaxEntries;
            var authenticated = _connections.FindAll(c => c.IsAuthenticated);
            var connections = new JArray();
            foreach (var connection in authenticated.Take(max))
            {
                var client = new JObject { ["name"] = connection.ClientName };
                if (connection.ClientVersion != null) client["version"] = connection.ClientVersion;
                connections.Add(new JObject
                {
                    ["connectionId"] = connection.Id,
                    ["client"] = client,
                    ["endpoint"] = connection.Endpoint,
                    ["since"] = connection.AuthenticatedAt,
                });
            }
            var overview = Engine?.Overview(max) ?? new JObject
            {
                ["calls"] = new JArray(),
                ["unknownOutcomes"] = new JArray(),
                ["omitted"] = new JObject { ["calls"] = 0, ["unknownOutcomes"] = 0 },
            };
            var status = new JObject
            {
                ["state"] = State,
                ["since"] = StateSince,
                ["connections"] = connections,
                ["calls"] = overview["calls"],
                ["unknownOutcomes"] = overview["unknownOutcomes"],
            };
            var omitted = (JObject)overview["omitted"];
            omitted["connections"] = Math.Max(0, authenticated.Count - max);
            if ((int)omitted["connections"] + (int)omitted["calls"] + (int)omitted["unknownOutcomes"] > 0) status["omitted"] = omitted;
            return status;
        }

        /// <summary>
        /// A connection completed its handshake: a single-connection host evicts the oldest others
        /// until it fits, each told why with a bye, before the new one's hello result is sent.
        /// </summary>
        public void Admitted(HostConnection connection)
        {
            if (!Options.MaxConnections.HasValue) return;
            int max = Options.MaxConnections.Value;
            var others = _connections.FindAll(c => c != connection && c.IsAuthenticated);
            int excess = Math.Max(0, others.Count - max + 1);
            for (int i = 0; i < excess; i++)
            {
                var stale = others[i];
                // Advice for the one evicted: "tether serve" is where several agents share a connection, unless that is what was evicted.
                var share = stale.ClientName == Methods.ServeClientName ? "" : " To use several agents at once, connect them through one \"tether serve\" (HTTP).";
                var name = string.IsNullOrEmpty(connection.ClientName) ? "unnamed" : connection.ClientName;
                stale.Bye(new JObject
                {
                    ["reason"] = "evicted",
                    ["status"] = "evicted",
                    ["message"] = $"Another client ({name}) connected from {connection.Endpoint}. This host serves {max} connection(s) at a time, so this one was evicted, and it stays away so as not to evict the other in turn: close the other client or raise the host's connection limit, then restart this one (or the editor).{share}",
                    ["newClientEndpoint"] = connection.Endpoint,
                });
            }
        }

        /// <summary>Sends a notification to every authenticated connection.</summary>
        public void Broadcast(string method, JToken parameters)
        {
            foreach (var connection in _connections.ToArray()) connection.Send(method, parameters);
        }

        /// <summary>Tells the connections subscribed to <paramref name="uri"/> that it changed.</summary>
        public void ResourceUpdated(string uri)
        {
            foreach (var connection in _connections.ToArray())
            {
                if (connection.Subscriptions.Contains(uri)) connection.Send(Methods.ResourceUpdated, new JObject { ["uri"] = uri });
            }
        }

        /// <summary>
        /// Says bye to every authenticated connection and closes the others; returns what completes
        /// once each connection's stream is gone (its frames flushed and the peer hung up, or the grace ended).
        /// </summary>
        public Task[] CloseAll(string reason, string message, long? expectedBackMs)
        {
            foreach (var connection in _connections.ToArray())
            {
                if (connection.IsAuthenticated)
                {
                    var bye = new JObject { ["reason"] = reason, ["message"] = message };
                    if (expectedBackMs.HasValue) bye["expectedBackMs"] = expectedBackMs.Value;
                    connection.Bye(bye);
                }
                else
                {
                    connection.Rpc.Close();
                }
            }
            var gone = new List<Task>();
            foreach (var transport in _transports) gone.Add(transport.Gone);
            return gone.ToArray();
        }

        /// <summary>Tears down every stream that is still there (after the close grace).</summary>
        public void DestroyAll()
        {
            foreach (var transport in new List<FramedTransport>(_transports)) transport.Destroy();
            _transports.Clear();
        }

        /// <summary>Current time as protocol timestamps are: Unix epoch milliseconds.</summary>
        public static long NowMs() => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds();
    }
}
