using System;
using System.Collections.Generic;
using System.Diagnostics;
using System.IO;
using System.Net.Sockets;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Runtime;

namespace Tether.Core.Protocol
{
    /// <summary>What a transport tells the connection above it. Called on the loop.</summary>
    public interface ITransportHandlers
    {
        /// <summary>A well-formed message arrived.</summary>
        void OnMessage(JObject message);

        /// <summary>A frame arrived intact but is not a valid message; the stream is still in sync.</summary>
        void OnMalformed(TetherException error, JToken id);

        /// <summary>The transport closed; <paramref name="error"/> says why when it was not a clean close.</summary>
        void OnClose(TetherException error);
    }

    /// <summary>
    /// Whole JSON-RPC messages over any System.IO.Stream (a NetworkStream, a pipe, a test double),
    /// with Content-Length framing (protocol.md §3). Lives on the HostLoop: reads are awaited from
    /// loop code, so they resume on the loop; writes go through one queue, so frames never
    /// interleave and sending never blocks the loop.
    /// <para>
    /// Backpressure (§14 "Bounded output"): a peer that sends but does not read is not read from
    /// either while more than <see cref="MaxUnreadOutputBytes"/> it was sent waits in the queue.
    /// Every request gets an answer, and unread answers would otherwise pile up without end. Only
    /// one side may do this (the host): if both waited, a large message each way would stop both.
    /// </para>
    /// </summary>
    public sealed class FramedTransport
    {
        /// <summary>Unsent output past which the peer's input waits until it has read what it was sent.</summary>
        public const int MaxUnreadOutputBytes = 1024 * 1024;

        /// <summary>Bodies at least this large are parsed off the loop, so one huge frame does not stall other connections.</summary>
        private const int ParseOffLoopBytes = 256 * 1024;

        private const int ReadBufferBytes = 64 * 1024;

        /// <summary>Small frames waiting together go out in one write, up to this size.</summary>
        private const int CoalesceBytes = 64 * 1024;

        private static readonly byte[] NoBytes = new byte[0];

        private readonly HostLoop _loop;
        private readonly Stream _stream;
        private readonly Socket _socket;
        private readonly FrameLimits _limits;
        private readonly FrameDecoder _decoder;
        private readonly bool _readOnlyWhatPeerReads;
        private readonly Queue<byte[]> _writes = new Queue<byte[]>();
        private readonly TaskCompletionSource<bool> _gone = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
        private readonly Stopwatch _clock = Stopwatch.StartNew();
        private ITransportHandlers _handlers;
        private long _maxSendBytes;
        private long _unflushedBytes;
        private bool _pumping;
        private TaskCompletionSource<bool> _drained;
        private IDisposable _stallTimer;
        private long _lastChunkAtMs;
        private IDisposable _graceTimer;
        private TetherException _closeError;
        private bool _closed;
        private bool _ended;
        private bool _destroyed;
        private bool _peerEnded;

        /// <param name="socket">The stream's socket, when it has one: closing half-closes it and waits for the peer.</param>
        /// <param name="closeGraceMs">After Close, how long the last frames have to flush and the peer to close its side before the stream is destroyed.</param>
        public FramedTransport(HostLoop loop, Stream stream, FrameLimits limits, Socket socket = null, bool readOnlyWhatPeerReads = false, int closeGraceMs = 2000)
        {
            _loop = loop ?? throw new ArgumentNullException(nameof(loop));
            _stream = stream ?? throw new ArgumentNullException(nameof(stream));
            _limits = (limits ?? new FrameLimits()).Clone();
            _decoder = new FrameDecoder(_limits);
            _socket = socket;
            _readOnlyWhatPeerReads = readOnlyWhatPeerReads;
            _maxSendBytes = _limits.MaxFrameBytes;
            CloseGraceMs = closeGraceMs;
        }

        public int CloseGraceMs { get; set; }

        public bool IsClosed => _closed;

        /// <summary>Completes once the stream is disposed (after the flush and the peer's close, or the grace).</summary>
        public Task Gone => _gone.Task;

        /// <summary>Starts reading. Call on the loop.</summary>
        public void Start(ITransportHandlers handlers)
        {
            _handlers = handlers ?? throw new ArgumentNullException(nameof(handlers));
            _ = ReadLoop();
        }

        /// <summary>
        /// The peer passed the handshake. <paramref name="maxFrameBytes"/> is the largest body it
        /// says it reads; until told, the transport assumes it reads what it reads itself.
        /// </summary>
        public void PeerAuthenticated(long? maxFrameBytes)
        {
            if (maxFrameBytes.HasValue && maxFrameBytes.Value > 0) _maxSendBytes = maxFrameBytes.Value;
            _decoder.TrustPeer();
        }

        /// <summary>Queues a message. Throws FRAME_TOO_LARGE for an oversize message; silently drops once closed.</summary>
        public void Send(OutgoingMessage message)
        {
            if (_closed || _destroyed) return;
            var frame = FrameEncoder.Encode(message, _maxSendBytes);
            _writes.Enqueue(frame);
            _unflushedBytes += frame.Length;
            if (!_pumping) _ = Pump();
        }

        /// <summary>
        /// Flushes what was sent, then closes. Idempotent; the first error is kept. The stream is
        /// destroyed at the latest <see cref="CloseGraceMs"/> after this, flushed or not: a peer
        /// that sends but never reads blocks the write, and must not keep the socket forever.
        /// </summary>
        public void Close(TetherException error = null)
        {
            if (_closed) return;
            _closed = true;
            _closeError = error;
            DisarmStall();
            ReleaseReader();
            if (!_destroyed && _graceTimer == null) _graceTimer = _loop.SetTimeout(CloseGraceMs, Destroy);
            if (!_pumping) EndStream();
            Finish();
        }

        /// <summary>Tears the stream down at once, discarding unsent data.</summary>
        public void Destroy()
        {
            if (_destroyed) return;
            _destroyed = true;
            _closed = true;
            DisarmStall();
            _graceTimer?.Dispose();
            _writes.Clear();
            _unflushedBytes = 0;
            try { _stream.Dispose(); } catch (Exception) { /* already broken: nothing to release */ }
            ReleaseReader();
            _gone.TrySetResult(true);
            Finish();
        }

        private async Task ReadLoop()
        {
            var buffer = new byte[ReadBufferBytes];
            try
            {
                while (!_destroyed)
                {
                    if (!_closed && _readOnlyWhatPeerReads && _unflushedBytes > MaxUnreadOutputBytes)
                    {
                        await WaitUntilDrained();
                        continue;
                    }
                    int read = await _stream.ReadAsync(buffer, 0, buffer.Length);
                    if (read == 0)
                    {
                        _peerEnded = true;
                        break;
                    }
                    // After our close, reading on only waits for the peer's end (a half-closed socket drains).
                    if (!_closed) await OnData(buffer, read);
                }
            }
            catch (Exception)
            {
                // Reset by the peer, or disposed under the read: the stream is gone either way.
                _peerEnded = true;
            }
            if (!_closed) Close();
            else if (_ended) Destroy();
        }

        private async Task OnData(byte[] buffer, int count)
        {
            _lastChunkAtMs = _clock.ElapsedMilliseconds;
            byte[] input = buffer;
            for (;;)
            {
                List<byte[]> bodies;
                try
                {
                    bodies = _decoder.Push(input, 0, input == buffer ? count : 0);
                }
                catch (TetherException fault)
                {
                    // Framing is lost: tell the peer why, then close. The host keeps serving others.
                    SendQuietly(OutgoingMessage.Failure(null, fault));
                    Close(fault);
                    return;
                }
                if (bodies.Count == 0) break;
                foreach (var body in bodies)
                {
                    if (_closed) return;
                    await Deliver(body);
                }
                // Frames complete before a fault are delivered first; pushing nothing surfaces the fault.
                input = NoBytes;
            }
            if (!_closed) ArmStall();
        }

        private async Task Deliver(byte[] body)
        {
            JToken value;
            try
            {
                value = body.Length >= ParseOffLoopBytes ? await Task.Run(() => Messages.ParseBody(body)) : Messages.ParseBody(body);
            }
            catch (BodyException bad)
            {
                if (!_closed) _handlers?.OnMalformed(bad.Error, bad.Id);
                return;
            }
            if (_closed) return;
            var reason = Messages.Validate(value);
            if (reason != null)
            {
                _handlers?.OnMalformed(new TetherException(ErrorCodes.InvalidRequest, $"Invalid JSON-RPC message: {reason}."), Messages.IdOf(value));
                return;
            }
            _handlers?.OnMessage((JObject)value);
        }

        /// <summary>The frame I/O timeout runs only while a frame is incomplete, and restarts on every chunk.</summary>
        private void ArmStall()
        {
            if (!_decoder.HasPartialFrame)
            {
                DisarmStall();
                return;
            }
            // One timer per stall, not per chunk: when it fires early (a chunk came since), it re-arms for the rest.
            if (_stallTimer == null) _stallTimer = _loop.SetTimeout(_limits.FrameTimeoutMs, OnStallTimer);
        }

        private void OnStallTimer()
        {
            _stallTimer?.Dispose();
            _stallTimer = null;
            if (_closed || !_decoder.HasPartialFrame) return;
            long quietMs = _clock.ElapsedMilliseconds - _lastChunkAtMs;
            if (quietMs < _limits.FrameTimeoutMs)
            {
                _stallTimer = _loop.SetTimeout(_limits.FrameTimeoutMs - quietMs, OnStallTimer);
                return;
            }
            var fault = new TetherException(
                ErrorCodes.FrameTimeout,
                $"A partially received frame stalled for {_limits.FrameTimeoutMs} ms; closing the connection. Send each frame in full.",
                new JObject { ["frameTimeoutMs"] = _limits.FrameTimeoutMs });
            SendQuietly(OutgoingMessage.Failure(null, fault));
            Close(fault);
        }

        private void DisarmStall()
        {
            _stallTimer?.Dispose();
            _stallTimer = null;
        }

        private void SendQuietly(OutgoingMessage message)
        {
            try
            {
                Send(message);
            }
            catch (TetherException)
            {
                // Best effort: the connection is about to close anyway.
            }
        }

        private async Task Pump()
        {
            _pumping = true;
            try
            {
                while (_writes.Count > 0 && !_destroyed)
                {
                    var chunk = NextWrite();
                    await _stream.WriteAsync(chunk, 0, chunk.Length);
                    _unflushedBytes -= chunk.Length;
                }
                if (!_destroyed) await _stream.FlushAsync();
            }
            catch (Exception)
            {
                // The peer is gone (reset, or the stream was disposed): nothing more can be written.
                _pumping = false;
                Destroy();
                return;
            }
            _pumping = false;
            if (_writes.Count > 0 && !_destroyed)
            {
                _ = Pump();
                return;
            }
            ReleaseReader();
            if (_closed) EndStream();
        }

        /// <summary>The next frame to write, with the small frames queued behind it when they fit together.</summary>
        private byte[] NextWrite()
        {
            var first = _writes.Dequeue();
            if (_writes.Count == 0 || first.Length + _writes.Peek().Length > CoalesceBytes) return first;
            int total = first.Length;
            var parts = new List<byte[]> { first };
            while (_writes.Count > 0 && total + _writes.Peek().Length <= CoalesceBytes)
            {
                var next = _writes.Dequeue();
                parts.Add(next);
                total += next.Length;
            }
            var merged = new byte[total];
            int at = 0;
            foreach (var part in parts)
            {
                Buffer.BlockCopy(part, 0, merged, at, part.Length);
                at += part.Length;
            }
            return merged;
        }

        private Task WaitUntilDrained()
        {
            if (_drained == null) _drained = new TaskCompletionSource<bool>(TaskCreationOptions.RunContinuationsAsynchronously);
            return _drained.Task;
        }

        /// <summary>Lets a reader waiting for the peer to catch up read on (the queue emptied, or the transport closed).</summary>
        private void ReleaseReader()
        {
            var drained = _drained;
            _drained = null;
            drained?.TrySetResult(true);
        }

        /// <summary>
        /// Everything sent is flushed: half-close a socket and give the peer a grace to close its side
        /// (closing with its unread bytes would reset the connection and could lose our last frames).
        /// </summary>
        private void EndStream()
        {
            if (_ended || _destroyed) return;
            _ended = true;
            if (_peerEnded || _socket == null)
            {
                Destroy();
                return;
            }
            try
            {
                _socket.Shutdown(SocketShutdown.Send);
            }
            catch (Exception)
            {
                Destroy();
                return;
            }
            // A peer that never closes must not keep the socket forever: the grace timer Close
            // started destroys it.
        }

        private void Finish()
        {
            var handlers = _handlers;
            _handlers = null;
            handlers?.OnClose(_closeError);
        }
    }
}
