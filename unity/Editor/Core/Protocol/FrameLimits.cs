namespace Tether.Core.Protocol
{
    /// <summary>
    /// The limits a reader of the host protocol enforces on what it reads (protocol.md §3.4),
    /// and what it accepts from a peer that has not passed the handshake yet.
    /// </summary>
    public sealed class FrameLimits
    {
        public const long DefaultMaxFrameBytes = 64L * 1024 * 1024;
        public const int DefaultMaxHeaderBytes = 8 * 1024;
        public const int DefaultFrameTimeoutMs = 30_000;

        /// <summary>
        /// What the reference host and client accept before the handshake: tether/hello and its
        /// answer are a few hundred bytes, so a stranger cannot make a reader buffer large frames.
        /// </summary>
        public const long HandshakeMaxFrameBytes = 64 * 1024;

        /// <summary>Largest body a frame may carry, in bytes (the Content-Length value).</summary>
        public long MaxFrameBytes = DefaultMaxFrameBytes;

        /// <summary>Largest header block (everything before the blank line), in bytes.</summary>
        public int MaxHeaderBytes = DefaultMaxHeaderBytes;

        /// <summary>
        /// How long a partially received frame may sit without new bytes before the connection is
        /// closed. It applies only while a frame is incomplete: an idle connection and a long call
        /// are never limited by it.
        /// </summary>
        public int FrameTimeoutMs = DefaultFrameTimeoutMs;

        /// <summary>Largest body accepted before the peer has passed the handshake (null: MaxFrameBytes).</summary>
        public long? MaxFrameBytesBeforeHandshake;

        public FrameLimits Clone() => (FrameLimits)MemberwiseClone();
    }
}
