using System;
using System.Net;
using System.Net.Sockets;
using System.Threading.Tasks;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Protocol
{
    /// <summary>
    /// A JsonRpcConnection on a HostLoop, serving one end of a real loopback TCP connection, and a
    /// RawPeer at the other end that writes and reads raw frames.
    /// </summary>
    internal sealed class RpcPair : IDisposable
    {
        private RpcPair(HostLoop loop, JsonRpcConnection connection, RawPeer peer)
        {
            Loop = loop;
            Connection = connection;
            Peer = peer;
        }

        public HostLoop Loop { get; }
        public JsonRpcConnection Connection { get; }
        public RawPeer Peer { get; }

        /// <param name="setUp">Registers handlers (on the loop) before the connection starts reading.</param>
        public static RpcPair Open(Action<JsonRpcConnection> setUp = null, FrameLimits limits = null, bool readOnlyWhatPeerReads = false)
        {
            var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            var client = new TcpClient { NoDelay = true };
            client.Connect(IPAddress.Loopback, ((IPEndPoint)listener.LocalEndpoint).Port);
            var socket = listener.AcceptSocket();
            listener.Stop();
            var loop = new HostLoop("test loop");
            var connection = loop.Invoke(() =>
            {
                var rpc = new JsonRpcConnection(loop, new NetworkStream(socket, true), limits ?? new FrameLimits(), socket, readOnlyWhatPeerReads);
                setUp?.Invoke(rpc);
                return rpc.Start();
            }).GetAwaiter().GetResult();
            return new RpcPair(loop, connection, RawPeer.Over(client));
        }

        /// <summary>Runs on the loop and waits.</summary>
        public T On<T>(Func<JsonRpcConnection, T> work) => Loop.Invoke(() => work(Connection)).GetAwaiter().GetResult();

        public void On(Action<JsonRpcConnection> work) => Loop.Invoke(() => work(Connection)).GetAwaiter().GetResult();

        /// <summary>Sends a request from the loop and gives back its task.</summary>
        public Task<Newtonsoft.Json.Linq.JToken> Request(string method, Newtonsoft.Json.Linq.JToken parameters = null, System.Threading.CancellationToken cancellation = default, long? timeoutMs = null) =>
            On(c => c.Request(method, parameters, cancellation, timeoutMs));

        public void Dispose()
        {
            try { On(c => c.Close()); } catch (ObjectDisposedException) { }
            Peer.Dispose();
            Loop.Dispose();
        }
    }
}
