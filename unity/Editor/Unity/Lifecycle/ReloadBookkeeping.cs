using System;
using System.Globalization;

namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// What one domain leaves the next (protocol.md §9): the host's instanceId (the same across
    /// reloads, new per editor process), the port it listened on (tried first after a reload),
    /// and how long the last reload and compilation took, so the next "reloading" and
    /// "compiling" states announce a measured expectedMs rather than a guess.
    /// </summary>
    internal sealed class ReloadBookkeeping
    {
        /// <summary>Announced before any reload was measured (Unity's reloads take seconds on small projects, more on big ones).</summary>
        public const long DefaultReloadMs = 8000;

        /// <summary>A measured time is kept within these bounds: a reload that took an hour (a debugger stop) is no estimate.</summary>
        public const long MinEstimateMs = 500;
        public const long MaxEstimateMs = 120000;

        internal const string InstanceIdKey = "Tether.InstanceId";
        internal const string PortKey = "Tether.Port";
        internal const string ReloadStartedKey = "Tether.ReloadStartedAt";
        internal const string LastReloadKey = "Tether.LastReloadMs";
        internal const string CompileStartedKey = "Tether.CompileStartedAt";
        internal const string LastCompileKey = "Tether.LastCompileMs";

        private readonly ISessionStore _store;
        private readonly Func<long> _nowMs;

        public ReloadBookkeeping(ISessionStore store, Func<long> nowMs)
        {
            _store = store ?? throw new ArgumentNullException(nameof(store));
            _nowMs = nowMs ?? (() => DateTimeOffset.UtcNow.ToUnixTimeMilliseconds());
        }

        /// <summary>The host's instanceId: made once per editor process, read back after every reload.</summary>
        public string InstanceId
        {
            get
            {
                var id = _store.GetString(InstanceIdKey, "");
                if (!string.IsNullOrEmpty(id)) return id;
                id = Guid.NewGuid().ToString();
                _store.SetString(InstanceIdKey, id);
                return id;
            }
        }

        /// <summary>
        /// True in the first domain of the editor's process, before the instanceId is made (the
        /// session store outlives domain reloads, not the process): the journal's queued calls
        /// were left by an editor that stopped, not by a reload.
        /// </summary>
        public bool FirstDomain => string.IsNullOrEmpty(_store.GetString(InstanceIdKey, ""));

        /// <summary>The port the previous domain listened on, or 0 (any free port).</summary>
        public int PreviousPort => (int)Math.Max(0, Math.Min(65535, Read(PortKey) ?? 0));

        public void RememberPort(int port) => Write(PortKey, port);

        /// <summary>The domain is about to reload: the next domain measures from now.</summary>
        public void ReloadStarting() => Write(ReloadStartedKey, _nowMs());

        /// <summary>
        /// The new domain's host is up: the reload's duration (kept as the next estimate), or null
        /// when this domain did not follow a reload (the editor just started).
        /// </summary>
        public long? ReloadFinished()
        {
            var started = Read(ReloadStartedKey);
            if (started == null) return null;
            _store.SetString(ReloadStartedKey, "");
            var took = Math.Max(0, _nowMs() - started.Value);
            Write(LastReloadKey, took);
            return took;
        }

        /// <summary>How long the coming reload should keep the host away.</summary>
        public long ExpectedReloadMs => Clamp(Read(LastReloadKey)) ?? DefaultReloadMs;

        public void CompileStarting() => Write(CompileStartedKey, _nowMs());

        /// <summary>The compilation's duration (kept as the next estimate), or null without a start.</summary>
        public long? CompileFinished()
        {
            var started = Read(CompileStartedKey);
            if (started == null) return null;
            _store.SetString(CompileStartedKey, "");
            var took = Math.Max(0, _nowMs() - started.Value);
            Write(LastCompileKey, took);
            return took;
        }

        /// <summary>How long a compilation should take, or null before one was measured.</summary>
        public long? ExpectedCompileMs => Clamp(Read(LastCompileKey));

        private static long? Clamp(long? value) => value == null ? (long?)null : Math.Max(MinEstimateMs, Math.Min(MaxEstimateMs, value.Value));

        private long? Read(string key)
        {
            var text = _store.GetString(key, "");
            return long.TryParse(text, NumberStyles.Integer, CultureInfo.InvariantCulture, out var value) ? value : (long?)null;
        }

        // Strings, not SessionState ints: epoch milliseconds do not fit in 32 bits.
        private void Write(string key, long value) => _store.SetString(key, value.ToString(CultureInfo.InvariantCulture));
    }
}
