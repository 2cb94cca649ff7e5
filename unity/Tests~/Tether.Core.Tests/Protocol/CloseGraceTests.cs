using System;
using System.Diagnostics;
using System.Net;
using System.Net.Sockets;
using System.Text;
using System.Threading;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Protocol
{
    /// <summary>
    /// A closed transport's stream is destroyed within the close grace even when a peer that never
    /// reads has blocked its write (the TypeScript SocketByteStream.end destroys after 2 s, always).
    /// </summary>
    [TestFixture]
    public class CloseGraceTests
    {
        private sealed class NoHandlers : ITransportHandlers
        {
            public void OnMessage(JObject message) { }
            public void OnMalformed(TetherException error, JToken id) { }
            public void OnClose(TetherException error) { }
        }

        [Test]
        public void ClosingWhileAWriteIsBlockedByAPeerThatNeverReadsDestroysTheStreamWithinTheGrace()
        {
            var listener = new TcpListener(IPAddress.Loopback, 0);
            listener.Start();
            using (var client = new TcpClient { ReceiveBufferSize = 4096 })
            {
                client.Connect(IPAddress.Loopback, ((IPEndPoint)listener.LocalEndpoint).Port);
                var socket = listener.AcceptSocket();
                listener.Stop();
                socket.SendBufferSize = 4096;
                using (var loop = new HostLoop("test loop"))
                {
                    FramedTransport transport = null;
                    loop.Invoke(() =>
                    {
                        transport = new FramedTransport(loop, new NetworkStream(socket, true), new FrameLimits(), socket, readOnlyWhatPeerReads: true, closeGraceMs: 300);
                        transport.Start(new NoHandlers());
                        // Far more than the socket buffers hold: the write blocks, since the peer never reads.
                        transport.Send(OutgoingMessage.Notification("big", new JObject { ["text"] = new string('x', 16 * 1024 * 1024) }));
                    }).Wait();
                    Thread.Sleep(200);
                    Assert.That(transport.Gone.IsCompleted, Is.False, "the write is still blocked");
                    var watch = Stopwatch.StartNew();
                    loop.Invoke(() => transport.Close()).Wait();
                    Assert.That(transport.Gone.Wait(3000), Is.True, "the stream was destroyed although the write never completed");
                    Assert.That(watch.ElapsedMilliseconds, Is.LessThan(2000));
                    Assert.That(socket.SafeHandle.IsClosed, Is.True, "the socket is released");
                }
            }
        }

        [Test]
        public void AnUnauthenticatedPeerThatFloodsGarbageAndNeverReadsIsDisconnectedAfterTheHandshakeTimeoutAndTheGrace()
        {
            using (var host = TestHost.Start(o => o.HandshakeTimeoutMs = 300))
            using (var client = new TcpClient(AddressFamily.InterNetwork) { ReceiveBufferSize = 4096 })
            {
                client.Connect(IPAddress.Loopback, host.Port);
                // 1-byte garbage bodies: each is answered with an error the peer never reads, until the host's write blocks.
                var frame = Encoding.ASCII.GetBytes("Content-Length: 1\r\n\r\nx");
                var burst = new byte[frame.Length * 2000];
                for (int i = 0; i < 2000; i++) Buffer.BlockCopy(frame, 0, burst, i * frame.Length, frame.Length);
                var socket = client.Client;
                socket.Blocking = false;
                // Until the host's answers back up and it stops reading, the garbage goes out.
                var until = Stopwatch.StartNew();
                while (until.ElapsedMilliseconds < 2000)
                {
                    socket.Send(burst, 0, burst.Length, SocketFlags.None, out var error);
                    if (error == SocketError.WouldBlock) break;
                    Assert.That(error, Is.EqualTo(SocketError.Success));
                }
                // The handshake timeout closes the connection; the grace (2 s) must then destroy the
                // socket although the host's write never completes. Once it has, sending fails (reset).
                var watch = Stopwatch.StartNew();
                var failed = SocketError.Success;
                while (watch.ElapsedMilliseconds < 6000)
                {
                    socket.Send(frame, 0, frame.Length, SocketFlags.None, out failed);
                    if (failed != SocketError.Success && failed != SocketError.WouldBlock) break;
                    Thread.Sleep(50);
                }
                Assert.That(failed, Is.Not.EqualTo(SocketError.Success).And.Not.EqualTo(SocketError.WouldBlock), "the host destroyed the socket");
                Assert.That(watch.ElapsedMilliseconds, Is.LessThan(300 + 2000 + 1500));
            }
        }
    }
}
