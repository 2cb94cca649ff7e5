using System;
using System.IO;
using System.Threading;
using System.Threading.Channels;
using System.Threading.Tasks;
using NUnit.Framework;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;

namespace Tether.Core.Tests.Protocol
{
    /// <summary>§14 "Bounded output": a peer that sends but does not read is not read from either.</summary>
    [TestFixture]
    public class BackpressureTests
    {
        /// <summary>A stream a test feeds, whose writes do not complete until it lets them (a peer that does not read).</summary>
        private sealed class UnreadStream : Stream
        {
            private readonly Channel<byte[]> _input = Channel.CreateUnbounded<byte[]>();
            private readonly TaskCompletionSource<bool> _peerReads = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            private int _reads;

            public int ReadsStarted => Volatile.Read(ref _reads);

            public void Feed(byte[] bytes) => _input.Writer.TryWrite(bytes);

            public void PeerReadsNow() => _peerReads.TrySetResult(true);

            public override async Task<int> ReadAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken)
            {
                Interlocked.Increment(ref _reads);
                var chunk = await _input.Reader.ReadAsync(cancellationToken).ConfigureAwait(false);
                Buffer.BlockCopy(chunk, 0, buffer, offset, chunk.Length);
                return chunk.Length;
            }

            public override Task WriteAsync(byte[] buffer, int offset, int count, CancellationToken cancellationToken) => _peerReads.Task;

            public override bool CanRead => true;
            public override bool CanSeek => false;
            public override bool CanWrite => true;
            public override long Length => throw new NotSupportedException();
            public override long Position { get => throw new NotSupportedException(); set => throw new NotSupportedException(); }
            public override void Flush() { }
            public override int Read(byte[] buffer, int offset, int count) => throw new NotSupportedException();
            public override long Seek(long offset, SeekOrigin origin) => throw new NotSupportedException();
            public override void SetLength(long value) => throw new NotSupportedException();
            public override void Write(byte[] buffer, int offset, int count) => throw new NotSupportedException();
        }

        [Test]
        public void StopsReadingWhileMoreThanOneMebibyteWaitsUnreadAndReadsOnOnceThePeerCatchesUp()
        {
            var stream = new UnreadStream();
            int handled = 0;
            using (var loop = new HostLoop("test loop"))
            {
                loop.Invoke(() =>
                {
                    var rpc = new JsonRpcConnection(loop, stream, new FrameLimits(), null, readOnlyWhatPeerReads: true);
                    rpc.OnRequest("big", (p, c) =>
                    {
                        Interlocked.Increment(ref handled);
                        return Task.FromResult<JToken>(new JObject { ["text"] = new string('x', 300_000) });
                    });
                    rpc.Start();
                }).Wait();
                for (int i = 1; i <= 6; i++)
                {
                    stream.Feed(FrameEncoder.Encode(new JObject { ["jsonrpc"] = "2.0", ["id"] = i, ["method"] = "big" }, long.MaxValue));
                    if (i <= 4) SpinWait.SpinUntil(() => Volatile.Read(ref handled) == i, 5000);
                    // A round trip through the loop: whatever the read loop does after a chunk is done by then.
                    loop.Invoke(() => { }).Wait();
                }
                // Three answers (900 KB) waiting: still reading. The fourth (1.2 MB): no more reads.
                Assert.That(handled, Is.EqualTo(4));
                Assert.That(stream.ReadsStarted, Is.EqualTo(4));
                stream.PeerReadsNow();
                Assert.That(SpinWait.SpinUntil(() => Volatile.Read(ref handled) == 6, 5000), Is.True, "reading resumed once the peer caught up");
            }
        }
    }
}
