using System;

namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// The host state Unity is in (protocol.md §7.14), from what the editor reports: compiling
    /// wins over playing (scripts can recompile in play mode), playing over ready. Publishes
    /// only changes; "reloading" and "quitting" are announced by the host itself (BeginReload,
    /// Close), after which nothing more is published.
    /// </summary>
    internal sealed class HostStateTracker
    {
        private readonly Action<string, long?> _publish;
        private bool _playing;
        private bool _compiling;
        private long? _compileExpectedMs;
        private bool _over;

        /// <param name="publish">Sends the state (and expectedMs for "compiling") to the host.</param>
        public HostStateTracker(Action<string, long?> publish)
        {
            _publish = publish ?? throw new ArgumentNullException(nameof(publish));
        }

        /// <summary>The state last published ("ready" before anything was).</summary>
        public string State { get; private set; } = "ready";

        public void SetPlaying(bool playing)
        {
            _playing = playing;
            Update();
        }

        public void SetCompiling(bool compiling, long? expectedMs = null)
        {
            _compiling = compiling;
            _compileExpectedMs = compiling ? expectedMs : null;
            Update();
        }

        /// <summary>The domain is going away (reload or quit): publish nothing more.</summary>
        public void End(string finalState)
        {
            _over = true;
            State = finalState;
        }

        private void Update()
        {
            if (_over) return;
            var next = _compiling ? "compiling" : _playing ? "playing" : "ready";
            if (next == State) return;
            State = next;
            _publish(next, next == "compiling" ? _compileExpectedMs : null);
        }
    }
}
