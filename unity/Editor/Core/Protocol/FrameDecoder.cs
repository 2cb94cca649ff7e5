using System;
using System.Collections.Generic;
using System.Text;
using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Protocol
{
    /// <summary>
    /// Content-Length framing, reading side: bytes in, frame bodies out (protocol.md §3).
    /// A frame is <c>Content-Length: N\r\n</c> (other headers allowed and ignored), then
    /// <c>\r\n</c> and exactly N bytes of UTF-8 JSON. The decoder enforces the header and body
    /// size limits before buffering anything large, and reports whether a frame is partially
    /// received so the transport can time out a stalled frame without ever timing out an idle
    /// connection. Not thread-safe: one connection's loop feeds it.
    /// </summary>
    public sealed class FrameDecoder
    {
        /// <summary>
        /// Bodies at least this large are received into one buffer of their size rather than the
        /// shared one: at once from an authenticated peer, from half-way from anyone else.
        /// </summary>
        private const int LargeFrameBytes = 1024 * 1024;

        /// <summary>What an idle decoder keeps; a buffer grown for one large frame is given back.</summary>
        private const int IdleBufferBytes = 64 * 1024;

        private const byte CR = 13;
        private const byte LF = 10;

        /// <summary>Content-Length is at most 15 digits (what a double holds exactly).</summary>
        private const int MaxLengthDigits = 15;

        /// <summary>The header every Tether peer writes, matched byte for byte before any general parsing.</summary>
        private static readonly byte[] PlainHeaderPrefix = Encoding.ASCII.GetBytes("Content-Length: ");

        private static readonly Regex Digits = new Regex("^[0-9]{1,15}$", RegexOptions.CultureInvariant);
        private static readonly Regex AnyCharset = new Regex("charset=", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);
        private static readonly Regex Utf8Charset = new Regex("charset=[\"']?utf-?8", RegexOptions.IgnoreCase | RegexOptions.CultureInvariant);

        /// <summary>What JavaScript's String.prototype.trim removes among the characters a header byte can be.</summary>
        private static readonly char[] HeaderSpace = { ' ', '\t', '\v', '\f', '\u00A0' };

        private readonly FrameLimits _limits;
        private byte[] _buffer = new byte[4096];
        private int _start;
        private int _end;

        /// <summary>How many buffered bytes were already searched for the blank line, in vain.</summary>
        private int _scanned;

        /// <summary>Body length announced by the header being consumed, or -1 while reading a header.</summary>
        private long _bodyLength = -1;

        /// <summary>A large body being filled in place, once its header is read.</summary>
        private byte[] _large;
        private int _largeFilled;

        /// <summary>A framing fault already found: the stream cannot be trusted past it.</summary>
        private TetherException _failure;

        /// <summary>The peer passed the handshake, so a header alone may size a buffer.</summary>
        private bool _peerTrusted;

        public FrameDecoder(FrameLimits limits)
        {
            if (limits == null) throw new ArgumentNullException(nameof(limits));
            _limits = limits.Clone();
            // A body lives in one array: no limit can be larger than an array may be.
            if (_limits.MaxFrameBytes > MaxArrayBytes) _limits.MaxFrameBytes = MaxArrayBytes;
        }

        /// <summary>The largest byte array the runtime allocates.</summary>
        internal const long MaxArrayBytes = 0x7FFFFFC7;

        /// <summary>
        /// The peer has authenticated: from now on a large body gets its full-size buffer as soon as
        /// its header arrives, so its chunks are never held beside it (peak memory ~1x the frame).
        /// </summary>
        public void TrustPeer() => _peerTrusted = true;

        /// <summary>True while some bytes of a frame have arrived but not the whole frame.</summary>
        public bool HasPartialFrame => _end > _start || _bodyLength >= 0;

        public List<byte[]> Push(byte[] chunk) => Push(chunk, 0, chunk.Length);

        /// <summary>
        /// Feeds a chunk (copied: the caller may reuse it) and returns every frame body it
        /// completes, in order. Throws a TetherException (HEADER_INVALID or FRAME_TOO_LARGE) when
        /// the stream cannot be trusted any more; the caller must then close the connection. Frames
        /// completed before the fault are returned first, and the fault comes with the next push.
        /// </summary>
        public List<byte[]> Push(byte[] chunk, int offset, int count)
        {
            if (_failure != null) throw _failure;
            var bodies = new List<byte[]>();
            if (_large != null)
            {
                // Straight into the body: a large frame is copied once.
                int part = Math.Min(count, _large.Length - _largeFilled);
                Buffer.BlockCopy(chunk, offset, _large, _largeFilled, part);
                _largeFilled += part;
                offset += part;
                count -= part;
                if (_largeFilled < _large.Length) return bodies;
                bodies.Add(_large);
                _large = null;
                _bodyLength = -1;
            }
            if (count > 0) Append(chunk, offset, count);
            try
            {
                for (;;)
                {
                    if (_bodyLength < 0 && !ReadHeader()) break;
                    long length = _bodyLength;
                    int buffered = _end - _start;
                    if (buffered < length)
                    {
                        // A stranger must not make us allocate more than twice what it sent: wait for half.
                        if (length >= LargeFrameBytes && (_peerTrusted || (long)buffered * 2 >= length)) StartLarge((int)length);
                        break;
                    }
                    bodies.Add(Take((int)length));
                    _bodyLength = -1;
                }
            }
            catch (TetherException error)
            {
                _failure = error;
                if (bodies.Count == 0) throw;
            }
            if (_start == _end && _buffer.Length > IdleBufferBytes) _buffer = new byte[4096];
            return bodies;
        }

        private void Append(byte[] chunk, int offset, int count)
        {
            int buffered = _end - _start;
            if (_end + count > _buffer.Length)
            {
                if (buffered + count <= _buffer.Length)
                {
                    Buffer.BlockCopy(_buffer, _start, _buffer, 0, buffered);
                }
                else
                {
                    var grown = new byte[Math.Max(buffered + count, Math.Min(int.MaxValue / 2, _buffer.Length) * 2)];
                    Buffer.BlockCopy(_buffer, _start, grown, 0, buffered);
                    _buffer = grown;
                }
                _start = 0;
                _end = buffered;
            }
            Buffer.BlockCopy(chunk, offset, _buffer, _end, count);
            _end += count;
        }

        /// <summary>The announced body length, if this reader accepts it from this peer now.</summary>
        private long CheckLength(long length)
        {
            long max = _limits.MaxFrameBytes;
            long? beforeHandshake = _limits.MaxFrameBytesBeforeHandshake;
            if (!_peerTrusted && beforeHandshake.HasValue && length > Math.Min(max, beforeHandshake.Value))
            {
                throw new TetherException(
                    ErrorCodes.FrameTooLarge,
                    $"Frame of {length} bytes exceeds the {beforeHandshake.Value}-byte limit that applies before the handshake. Send tether/hello first; larger frames are accepted once it succeeds.",
                    new JObject { ["length"] = length, ["maxFrameBytes"] = beforeHandshake.Value, ["beforeHandshake"] = true });
            }
            if (length > max)
            {
                throw new TetherException(
                    ErrorCodes.FrameTooLarge,
                    $"Frame of {length} bytes exceeds the {max}-byte limit. Send smaller payloads (for example, write large data to a file and pass its path).",
                    new JObject { ["length"] = length, ["maxFrameBytes"] = max });
            }
            return length;
        }

        /// <summary>Moves what is buffered of a large body into a buffer of its full size.</summary>
        private void StartLarge(int length)
        {
            var body = new byte[length];
            int buffered = _end - _start;
            Buffer.BlockCopy(_buffer, _start, body, 0, buffered);
            _start = _end = 0;
            _large = body;
            _largeFilled = buffered;
        }

        /// <summary>Parses the header if complete; returns false when more bytes are needed.</summary>
        private bool ReadHeader()
        {
            int buffered = _end - _start;
            if (buffered == 0) return false;
            int window = Math.Min(buffered, _limits.MaxHeaderBytes + 4);
            if (ReadPlainHeader(window)) return true;
            int end = IndexOfBlankLine(window);
            if (end < 0)
            {
                if (buffered > _limits.MaxHeaderBytes + 3)
                {
                    throw new TetherException(
                        ErrorCodes.HeaderInvalid,
                        $"Frame header exceeds {_limits.MaxHeaderBytes} bytes without a blank line. Frames must start with \"Content-Length: N\" followed by an empty line.",
                        new JObject { ["maxHeaderBytes"] = _limits.MaxHeaderBytes });
                }
                return false;
            }
            string header = DecodeAscii(_start, end);
            Consume(end + 4);
            _bodyLength = CheckLength(ParseContentLength(header));
            return true;
        }

        /// <summary>
        /// The fast path for the one header every Tether peer writes, exactly
        /// <c>Content-Length: N\r\n\r\n</c>, read from the bytes without building a string.
        /// Anything else (other headers, other spacing or case, a partial header) returns false and
        /// goes through the general parser, which alone reports what is wrong.
        /// </summary>
        private bool ReadPlainHeader(int window)
        {
            int prefix = PlainHeaderPrefix.Length;
            if (window < prefix + 5) return false;
            for (int i = 0; i < prefix; i++) if (_buffer[_start + i] != PlainHeaderPrefix[i]) return false;
            long length = 0;
            int at = prefix;
            for (; at < window && at - prefix < MaxLengthDigits; at++)
            {
                byte b = _buffer[_start + at];
                if (b < (byte)'0' || b > (byte)'9') break;
                length = length * 10 + (b - '0');
            }
            if (at == prefix || at + 3 >= window) return false;
            int p = _start + at;
            if (_buffer[p] != CR || _buffer[p + 1] != LF || _buffer[p + 2] != CR || _buffer[p + 3] != LF) return false;
            _bodyLength = CheckLength(length);
            Consume(at + 4);
            return true;
        }

        /// <summary>Where the blank line starts within the first <paramref name="window"/> bytes, or -1.</summary>
        private int IndexOfBlankLine(int window)
        {
            // Bytes searched before cannot start a blank line except in the last three of them.
            int from = Math.Max(0, _scanned - 3);
            for (int i = from; i + 3 < window; i++)
            {
                int p = _start + i;
                if (_buffer[p] == CR && _buffer[p + 1] == LF && _buffer[p + 2] == CR && _buffer[p + 3] == LF) return i;
            }
            _scanned = window;
            return -1;
        }

        private void Consume(int n)
        {
            _start += n;
            _scanned = 0;
            if (_start == _end) _start = _end = 0;
        }

        /// <summary>Removes and returns the first n buffered bytes.</summary>
        private byte[] Take(int n)
        {
            var body = new byte[n];
            Buffer.BlockCopy(_buffer, _start, body, 0, n);
            Consume(n);
            return body;
        }

        /// <summary>Header bytes read as ASCII (one character per byte, as the reference does).</summary>
        private string DecodeAscii(int from, int count)
        {
            var chars = new char[count];
            for (int i = 0; i < count; i++) chars[i] = (char)_buffer[from + i];
            return new string(chars);
        }

        private static long ParseContentLength(string header)
        {
            long length = -1;
            foreach (var line in header.Split(new[] { "\r\n" }, StringSplitOptions.None))
            {
                int colon = line.IndexOf(':');
                if (colon <= 0) throw HeaderInvalid($"malformed header line \"{Clip(line, 80)}\"");
                string name = line.Substring(0, colon).Trim(HeaderSpace).ToLowerInvariant();
                string value = line.Substring(colon + 1).Trim(HeaderSpace);
                if (name == "content-length")
                {
                    if (!Digits.IsMatch(value)) throw HeaderInvalid($"Content-Length \"{Clip(value, 40)}\" is not a byte count");
                    length = long.Parse(value, System.Globalization.CultureInfo.InvariantCulture);
                }
                else if (name == "content-type" && AnyCharset.IsMatch(value) && !Utf8Charset.IsMatch(value))
                {
                    throw HeaderInvalid($"unsupported charset in \"{Clip(value, 80)}\"; frames are UTF-8");
                }
            }
            if (length < 0) throw HeaderInvalid("the Content-Length header is missing");
            return length;
        }

        private static string Clip(string text, int max) => text.Length <= max ? text : text.Substring(0, max);

        private static TetherException HeaderInvalid(string detail) =>
            new TetherException(ErrorCodes.HeaderInvalid, $"Invalid frame header: {detail}. Frames must start with \"Content-Length: N\\r\\n\\r\\n\".");
    }
}
