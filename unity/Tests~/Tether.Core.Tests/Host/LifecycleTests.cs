using System;
using System.Globalization;
using System.IO;
using System.IO.Pipes;
using System.Linq;
using System.Net;
using System.Net.Sockets;
using System.Threading;
using System.Threading.Tasks;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Discovery;
using Tether.Core.Host;
using Tether.Core.Protocol;
using Tether.Core.Tests.Host.Support;

namespace Tether.Core.Tests.Host
{
    /// <summary>Start, close and reload (protocol.md §2, §7.15, §9, §12).</summary>
    [TestFixture]
    public class LifecycleTests
    {
        private static string RecordPath(TestHost host) => HostRecords.PathOf(host.RecordsDir, host.Host.InstanceId);

        [Test]
        public void StartWritesTheRecordAndCloseSaysByeAsTheLastFrameThenRemovesIt()
        {
            var host = TestHost.Start();
            try
            {
                var record = HostRecord.Parse(File.ReadAllText(RecordPath(host)));
                Assert.That(record.Port, Is.EqualTo(host.Port));
                Assert.That(record.Host, Is.EqualTo("127.0.0.1"));
                Assert.That(record.Pid, Is.EqualTo(System.Diagnostics.Process.GetCurrentProcess().Id));
                Assert.That(record.Kind, Is.EqualTo("test"));
                Assert.That(record.ProjectPath, Is.EqualTo(host.Dir));
                Assert.That(record.ProtocolVersion, Is.EqualTo(1));
                using (var peer = host.Authenticated())
                using (var stranger = host.Connect())
                {
                    host.Host.Close("quit");
                    peer.ExpectClosed();
                    stranger.ExpectClosed();
                    var bye = peer.Seen.Last();
                    Assert.That((string)bye["method"], Is.EqualTo("notifications/host/bye"));
                    Assert.That((string)bye["params"]["reason"], Is.EqualTo("quit"));
                    Assert.That((string)bye["params"]["message"], Is.Not.Empty);
                    Assert.That(stranger.Seen, Is.Empty, "an unauthenticated connection is closed without a frame");
                }
                Assert.That(File.Exists(RecordPath(host)), Is.False);
                Assert.That(host.Host.Loop.IsDisposed, Is.True);
                Assert.Throws<SocketException>(() => RawPeer.Connect(host.Port).Dispose(), "nothing listens any more");
                host.Host.Close();
            }
            finally
            {
                host.Dispose();
            }
        }

        [Test]
        public void BeginReloadAnnouncesItSaysByeKeepsTheRecordAndTheNextHostComesBackWithANewToken()
        {
            var dir = Path.Combine(Path.GetTempPath(), "tether-reload-" + Guid.NewGuid().ToString("N"));
            var journal = Path.Combine(dir, "journal.jsonl");
            using (var started = new ManualResetEventSlim())
            {
                var first = TestHost.Start(o => o.JournalPath = journal, dir: dir);
                string instanceId = first.Host.InstanceId;
                string oldToken = first.Token;
                try
                {
                    // The tool asks for the reload on the main thread as it finishes, as compile_scripts does in Unity:
                    // its result is posted to the loop before the reload drains the loop, so it is journaled.
                    first.Host.Tools.Add(HostTools.Make("compile", (args, context) =>
                    {
                        first.MainThread.Post(() => first.Host.BeginReload(3000));
                        started.Set();
                        return Task.FromResult<object>("compiled");
                    }));
                    using (var peer = first.Authenticated())
                    {
                        peer.Request(1, "calls/start", new JObject { ["callId"] = "k1", ["tool"] = "compile" });
                        peer.ExpectClosed();
                        var state = peer.Seen.First(m => (string)m["method"] == "notifications/host/state");
                        Assert.That((string)state["params"]["state"], Is.EqualTo("reloading"));
                        Assert.That((long)state["params"]["expectedMs"], Is.EqualTo(3000));
                        var bye = peer.Seen.Last();
                        Assert.That((string)bye["method"], Is.EqualTo("notifications/host/bye"));
                        Assert.That((string)bye["params"]["reason"], Is.EqualTo("reload"));
                        Assert.That((long)bye["params"]["expectedBackMs"], Is.EqualTo(3000));
                        Assert.That((string)bye["params"]["message"], Does.Contain("about 3 s"));
                    }
                    Assert.That(File.Exists(RecordPath(first)), Is.True, "a reload keeps the record");
                    // Marked, so that a client refused by its port waits for the next domain (protocol.md §12).
                    var marked = HostRecord.Parse(File.ReadAllText(RecordPath(first)));
                    Assert.That(DateTime.Parse(marked.ReloadingSince, CultureInfo.InvariantCulture, DateTimeStyles.RoundtripKind), Is.EqualTo(DateTime.UtcNow).Within(TimeSpan.FromMinutes(1)));
                    Assert.That(first.Host.State, Is.EqualTo("reloading"));
                }
                finally
                {
                    first.Host.Dispose();
                }

                using (var second = TestHost.Start(o => { o.JournalPath = journal; o.InstanceId = instanceId; }, dir: dir, mainThread: first.MainThread))
                {
                    var record = HostRecord.Parse(File.ReadAllText(RecordPath(second)));
                    Assert.That(record.Port, Is.EqualTo(second.Port));
                    Assert.That(record.ReloadingSince, Is.Null, "the next domain listens: no mark");
                    Assert.That(record.Token, Is.Not.EqualTo(oldToken));
                    using (var peer = second.Connect())
                    {
                        Assert.That((string)peer.Hello(record.Token)["result"]["connectionId"], Is.EqualTo("c1"), "ids restart after a reload");
                        second.Host.Tools.Add(HostTools.Make("compile", (args, context) => Task.FromResult<object>("compiled again")));
                        peer.Request(2, "calls/start", new JObject { ["callId"] = "k1", ["tool"] = "compile", ["attachOnly"] = true });
                        var replay = peer.ResponseTo(2);
                        Assert.That((bool)replay["result"]["replayed"], Is.True, replay.ToString());
                        Assert.That((string)replay["result"]["result"]["content"][0]["text"], Is.EqualTo("compiled"));
                    }
                }
            }
        }

        [TestCase("quit")]
        [TestCase("shutdown")]
        public void ClosingForGoodAnswersAQueuedCallCancelledBeforeTheBye(string reason)
        {
            // Its answer used to be dropped by the close that followed at once: the client, its
            // connection gone, could only say that the outcome was unknown.
            using (var started = new ManualResetEventSlim())
            using (var release = new ManualResetEventSlim())
            using (var host = TestHost.Start())
            {
                host.Host.Tools.Add(HostTools.Blocking("build", started, release));
                host.Host.Tools.Add(HostTools.Echo());
                using (var agent = host.Authenticated())
                {
                    agent.Request("b", "calls/start", new JObject { ["callId"] = "b1", ["tool"] = "build" });
                    Assert.That(started.Wait(5000), Is.True, "the tool is running on the main thread");
                    agent.Request("q", "calls/start", new JObject { ["callId"] = "q1", ["tool"] = "echo" });
                    agent.Request(1, "calls/status", new JObject { ["callId"] = "q1" });
                    Assert.That((string)agent.ResponseTo(1)["result"]["state"], Is.EqualTo("queued"));
                    var closing = Task.Run(() => host.Host.Close(reason));
                    var answer = agent.ResponseTo("q");
                    Assert.That((string)answer["error"]?["data"]?["code"] ?? (string)answer["error"]?["message"], Does.Contain("CANCELLED").Or.Contain("before it started"), answer.ToString());
                    Assert.That((bool)answer["error"]["data"]["started"], Is.False, answer.ToString());
                    release.Set();
                    Assert.That(closing.Wait(10000), Is.True, "the host closed");
                }
            }
        }

        [Test]
        public void APreferredPortThatIsTakenFallsBackToAFreeOne()
        {
            var taken = new TcpListener(IPAddress.Loopback, 0);
            taken.Start();
            try
            {
                int port = ((IPEndPoint)taken.LocalEndpoint).Port;
                using (var host = TestHost.Start(o => o.Port = port))
                {
                    Assert.That(host.Port, Is.Not.EqualTo(port).And.GreaterThan(0));
                    Assert.That(HostRecord.Parse(File.ReadAllText(RecordPath(host))).Port, Is.EqualTo(host.Port));
                    using (var peer = host.Authenticated()) { }
                }
            }
            finally
            {
                taken.Stop();
            }
        }

        [Test]
        public void ServesAnyStreamHandedToTheListener()
        {
            using (var host = TestHost.Start())
            using (var toHost = new AnonymousPipeServerStream(PipeDirection.Out))
            using (var fromPeer = new AnonymousPipeClientStream(PipeDirection.In, toHost.ClientSafePipeHandle))
            using (var toPeer = new AnonymousPipeServerStream(PipeDirection.Out))
            using (var fromHost = new AnonymousPipeClientStream(PipeDirection.In, toPeer.ClientSafePipeHandle))
            {
                host.Host.Listener.Accept(new DuplexStream(fromPeer, toPeer), "pipe:1");
                var hello = new JObject { ["jsonrpc"] = "2.0", ["id"] = 1, ["method"] = "tether/hello", ["params"] = RawPeer.HelloParams(host.Token) };
                var bytes = FrameEncoder.Encode(hello, long.MaxValue);
                toHost.Write(bytes, 0, bytes.Length);
                var decoder = new FrameDecoder(new FrameLimits());
                var buffer = new byte[65536];
                var read = Task.Run(() =>
                {
                    for (;;)
                    {
                        int n = fromHost.Read(buffer, 0, buffer.Length);
                        if (n == 0) return null;
                        var bodies = decoder.Push(buffer, 0, n);
                        if (bodies.Count > 0) return (JObject)Messages.ParseBody(bodies[0]);
                    }
                });
                Assert.That(read.Wait(5000), Is.True);
                Assert.That((string)read.Result["result"]["connectionId"], Is.EqualTo("c1"));
            }
        }

        [Test]
        public void RefusesOptionsThatCannotWork()
        {
            using (var main = new TestMainThread())
            {
                Assert.Throws<ArgumentException>(() => new TetherHost(new TetherHostOptions { Kind = "k", Name = "n", Version = "v", ProjectPath = "/p" }));
                Assert.Throws<ArgumentException>(() => new TetherHost(new TetherHostOptions { Name = "n", Version = "v", ProjectPath = "/p", MainThread = main }));
                Assert.Throws<ArgumentException>(() => new TetherHost(new TetherHostOptions { Kind = "k", Name = "n", Version = "v", ProjectPath = "/p", MainThread = main, MaxFrameBytes = 100 }));
            }
        }

        /// <summary>A stream that reads from one stream and writes to another (a pipe pair as one connection).</summary>
        private sealed class DuplexStream : Stream
        {
            private readonly Stream _read;
            private readonly Stream _write;

            public DuplexStream(Stream read, Stream write)
            {
                _read = read;
                _write = write;
            }

            public override bool CanRead => true;
            public override bool CanSeek => false;
            public override bool CanWrite => true;
            public override long Length => throw new NotSupportedException();
            public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
            public override void Flush() => _write.Flush();
            public override int Read(byte[] buffer, int offset, int count) => _read.Read(buffer, offset, count);
            public override Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => _read.ReadAsync(buffer, offset, count, cancellationToken);
            public override void Write(byte[] buffer, int offset, int count) => _write.Write(buffer, offset, count);
            public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => _write.WriteAsync(buffer, offset, count, cancellationToken);
            public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
            public override void SetLength(long value) => throw new NotSupportedException();

            protected override void Dispose(bool disposing)
            {
                if (disposing)
                {
                    _read.Dispose();
                    _write.Dispose();
                }
                base.Dispose(disposing);
            }
        }
    }
}
