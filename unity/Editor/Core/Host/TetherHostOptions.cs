using System;
using Tether.Core.Protocol;
using Tether.Core.Runtime;

namespace Tether.Core.Host
{
    /// <summary>How a TetherHost runs (the TypeScript HostOptions). Kind, Name, Version, ProjectPath and MainThread are required.</summary>
    public sealed class TetherHostOptions
    {
        /// <summary>What kind of editor this is ("unity", "console", …).</summary>
        public string Kind;
        public string Name;
        public string Version;

        /// <summary>Absolute path of the open project.</summary>
        public string ProjectPath;

        /// <summary>TCP port on 127.0.0.1. 0: any free port; else preferred, falling back to a free one (the record says which).</summary>
        public int Port;

        /// <summary>Stable across domain reloads of one editor process. Null: a new Guid; pass the same one after a domain reload.</summary>
        public string InstanceId;

        /// <summary>
        /// The key of the proofs clients give (they never send it: protocol.md §14). Leave it null
        /// so that each listener (each domain reload) has a fresh one, which clients re-read from
        /// the record. A given token is kept as the key, and the nonces of its proofs are
        /// remembered for the life of the process, so a proof sent to whatever held the port
        /// between two listeners opens neither. In Unity that memory lasts only as long as the
        /// domain (a domain reload clears it): leave it null there.
        /// </summary>
        public string Token;

        /// <summary>Journal file. Null: the journal lives in memory only (and does not survive a reload).</summary>
        public string JournalPath;

        /// <summary>How long finished calls' outcomes are kept.</summary>
        public long RetentionMs = 15 * 60_000;

        /// <summary>How much memory finished read-only calls may hold; past it the oldest are forgotten early.</summary>
        public long ReadOnlyBudgetBytes = 64L << 20;

        /// <summary>Longest silence while a call is queued or running.</summary>
        public int HeartbeatMs = 5000;

        /// <summary>Execution deadline when neither call nor tool sets one.</summary>
        public long DefaultDeadlineMs = 600_000;

        /// <summary>How long past its deadline a tool that has not stopped is waited for before its call is given up, outcome unknown (protocol.md §8.6).</summary>
        public long DeadlineGraceMs = 30_000;

        /// <summary>After a reload, how long calls queued before it wait for their requesters to come back; 0 runs them at once.</summary>
        public int RequeueGraceMs = 2000;

        /// <summary>
        /// Set on the first host of an editor's process (not after a domain reload): calls found
        /// queued in the journal were left by an editor that stopped, and run only if one of their
        /// requesters comes back within RequeueGraceMs; the others end cancelled, never started.
        /// </summary>
        public bool AfterRestart;

        public long MaxFrameBytes = FrameLimits.DefaultMaxFrameBytes;
        public int MaxHeaderBytes = FrameLimits.DefaultMaxHeaderBytes;
        public int FrameTimeoutMs = FrameLimits.DefaultFrameTimeoutMs;

        /// <summary>A connection that has not completed the handshake by then is closed.</summary>
        public int HandshakeTimeoutMs = 10_000;

        /// <summary>How often the host pings each client; a client that misses one is dropped. 0 disables.</summary>
        public int PingIntervalMs = 15_000;

        /// <summary>Connections served at once; past it the oldest is evicted with a bye. Null: no limit.</summary>
        public int? MaxConnections;

        /// <summary>
        /// Connections that have not passed the handshake yet, held at once; past it the oldest of
        /// them is closed, so strangers cannot pile up buffers and timers.
        /// </summary>
        public int MaxPendingHandshakes = 32;

        /// <summary>Where the host record goes. Null: TetherHome.HostsDir().</summary>
        public string RecordsDir;

        /// <summary>Write a host record at all.</summary>
        public bool Advertise = true;

        /// <summary>Where tools run. Required.</summary>
        public IMainThread MainThread;

        /// <summary>Where the host tells a person what happened. Null: silent.</summary>
        public IHostLog Log;

        /// <summary>Throws ArgumentException naming the first option that cannot work.</summary>
        internal void Validate()
        {
            Require(Kind, nameof(Kind));
            Require(Name, nameof(Name));
            Require(Version, nameof(Version));
            Require(ProjectPath, nameof(ProjectPath));
            if (MainThread == null) throw new ArgumentException("TetherHostOptions.MainThread is required: tools run there.", nameof(MainThread));
            if (Port < 0 || Port > 65535) throw Invalid(nameof(Port), "a TCP port (0 to 65535)");
            if (MaxFrameBytes < FrameLimits.HandshakeMaxFrameBytes || MaxFrameBytes > FrameDecoder.MaxArrayBytes)
                throw Invalid(nameof(MaxFrameBytes), $"at least {FrameLimits.HandshakeMaxFrameBytes} (what the handshake takes) and at most {FrameDecoder.MaxArrayBytes}");
            if (MaxHeaderBytes < 64) throw Invalid(nameof(MaxHeaderBytes), "at least 64");
            if (FrameTimeoutMs <= 0) throw Invalid(nameof(FrameTimeoutMs), "positive");
            if (HandshakeTimeoutMs <= 0) throw Invalid(nameof(HandshakeTimeoutMs), "positive");
            if (PingIntervalMs < 0) throw Invalid(nameof(PingIntervalMs), "0 (no pings) or positive");
            if (HeartbeatMs <= 0) throw Invalid(nameof(HeartbeatMs), "positive");
            if (DefaultDeadlineMs <= 0) throw Invalid(nameof(DefaultDeadlineMs), "positive");
            if (DeadlineGraceMs < 0) throw Invalid(nameof(DeadlineGraceMs), "0 or positive");
            if (RequeueGraceMs < 0) throw Invalid(nameof(RequeueGraceMs), "0 or positive");
            if (MaxConnections.HasValue && MaxConnections.Value < 1) throw Invalid(nameof(MaxConnections), "null (no limit) or at least 1");
            if (MaxPendingHandshakes < 1) throw Invalid(nameof(MaxPendingHandshakes), "at least 1");
        }

        private static void Require(string value, string name)
        {
            if (string.IsNullOrEmpty(value)) throw new ArgumentException($"TetherHostOptions.{name} is required.", name);
        }

        private static ArgumentException Invalid(string name, string what) =>
            new ArgumentException($"TetherHostOptions.{name} must be {what}.", name);
    }
}
