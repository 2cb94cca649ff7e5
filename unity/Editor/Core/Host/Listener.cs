using System;
using System.IO;
using System.Net;
using System.Net.Sockets;
using System.Runtime.InteropServices;
using System.Threading.Tasks;
using Tether.Core.Protocol;

namespace Tether.Core.Host
{
    /// <summary>
    /// Where connections come in: a TcpListener on 127.0.0.1 only (protocol.md §2, §14), on the
    /// preferred port or, when it is taken, a free one. Also takes any stream (<see cref="Accept"/>),
    /// so tests and embedders can serve pipes. Bounds how many connections may wait for their
    /// handshake at once: past the bound the oldest waiting one is closed.
    /// </summary>
    public sealed class Listener
    {
        private readonly HostCore _core;
        private TcpListener _tcp;
        private bool _stopped;

        internal Listener(HostCore core)
        {
            _core = core;
        }

        /// <summary>The port bound (0 before Listen).</summary>
        public int Port { get; private set; }

        /// <summary>
        /// Serves a connection over <paramref name="stream"/> as if it had been accepted on the port.
        /// <paramref name="remoteEndpoint"/> ("address:port") names the peer in eviction messages.
        /// Callable from any thread; the stream is disposed when the connection closes.
        /// </summary>
        public void Accept(Stream stream, string remoteEndpoint)
        {
            if (stream == null) throw new ArgumentNullException(nameof(stream));
            _core.Loop.Post(() => AcceptOnLoop(stream, remoteEndpoint ?? "?:?", null));
            if (_core.Loop.IsDisposed) stream.Dispose();
        }

        /// <summary>Binds the port (the preferred one, else a free one) and starts accepting. Synchronous; throws when nothing can be bound.</summary>
        internal int Listen(int preferredPort)
        {
            try
            {
                _tcp = Bind(preferredPort);
            }
            catch (SocketException error) when (preferredPort != 0 && (error.SocketErrorCode == SocketError.AddressAlreadyInUse || error.SocketErrorCode == SocketError.AccessDenied))
            {
                // Taken (or reserved, on Windows): any free port will do, and the record says which.
                _tcp = Bind(0);
            }
            Port = ((IPEndPoint)_tcp.LocalEndpoint).Port;
            _core.Loop.Post(() => _ = AcceptLoop());
            return Port;
        }

        /// <summary>Stops accepting. Connections already accepted are the host's to close.</summary>
        internal void Stop()
        {
            if (_stopped) return;
            _stopped = true;
            try { _tcp?.Stop(); } catch (Exception) { /* already stopped */ }
        }

        private static TcpListener Bind(int port)
        {
            var tcp = new TcpListener(IPAddress.Loopback, port);
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows))
            {
                // Without it another program could bind the same port with SO_REUSEADDR and take our clients.
                try { tcp.ExclusiveAddressUse = true; } catch (Exception) { /* not supported here: the default stands */ }
            }
            tcp.Start();
            return tcp;
        }

        private async Task AcceptLoop()
        {
            while (!_stopped)
            {
                Socket socket;
                try
                {
                    socket = await _tcp.AcceptSocketAsync();
                }
                catch (Exception error)
                {
                    if (_stopped) return;
                    // Out of descriptors or a connection reset while queued: keep listening, a little later.
                    _core.Log.Warning("Tether host: accepting a connection failed (" + error.Message + "); still listening.");
                    await Task.Delay(100);
                    continue;
                }
                if (_stopped)
                {
                    socket.Dispose();
                    return;
                }
                try
                {
                    socket.NoDelay = true;
                }
                catch (SocketException)
                {
                    // Reset already: the connection will find out on its first read.
                }
                var endpoint = socket.RemoteEndPoint is IPEndPoint peer ? EndpointText(peer) : "?:?";
                AcceptOnLoop(new NetworkStream(socket, true), endpoint, socket);
            }
        }

        /// <summary>"address:port", the address as IPv4 when it is one (a dual-mode socket reports it mapped).</summary>
        private static string EndpointText(IPEndPoint peer)
        {
            var address = peer.Address.IsIPv4MappedToIPv6 ? peer.Address.MapToIPv4() : peer.Address;
            return address + ":" + peer.Port;
        }

        private void AcceptOnLoop(Stream stream, string endpoint, Socket socket)
        {
            if (_stopped || _core.Closing)
            {
                stream.Dispose();
                return;
            }
            // At the limit the oldest waiting connection goes, not the new one: strangers that hold
            // their slots would otherwise keep every client out, while a real client says hello
            // within a moment of connecting.
            var max = _core.Options.MaxPendingHandshakes;
            var waiting = 0;
            HostConnection oldest = null;
            foreach (var connection in _core.Connections)
            {
                if (connection.IsAuthenticated) continue;
                if (oldest == null) oldest = connection;
                waiting++;
            }
            if (waiting >= max && oldest != null)
            {
                oldest.Rpc.Close(new TetherException(ErrorCodes.HandshakeRequired, $"More than {max} connections were waiting for their handshake; the oldest was closed."));
            }
            _core.Open(stream, endpoint, socket);
        }
    }
}
