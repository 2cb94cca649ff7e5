using System;
using Tether.Core.Runtime;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Lifecycle
{
    /// <summary>
    /// Drives the host from the editor's lifecycle events, for one domain:
    /// play mode and compilation become host states (protocol.md §7.14); the domain reload
    /// becomes BeginReload (state "reloading" and bye "reload" with a measured expectedBackMs,
    /// before Unity tears the domain down: §9); quitting becomes Close("quit"). After either of
    /// the last two it detaches and calls <c>teardown</c> (the dispatcher and the console
    /// capture let go of Unity's events). The next domain's TetherBootstrap starts a new host
    /// (afterAssemblyReload needs no handler: it is that domain's [InitializeOnLoad]).
    /// </summary>
    internal sealed class EditorLifecycle : IDisposable
    {
        private readonly IEditorHost _host;
        private readonly ReloadBookkeeping _books;
        private readonly IHostLog _log;
        private readonly Action _teardown;
        private bool _attached;

        public EditorLifecycle(IEditorHost host, ReloadBookkeeping books, IHostLog log, Action teardown)
        {
            _host = host ?? throw new ArgumentNullException(nameof(host));
            _books = books ?? throw new ArgumentNullException(nameof(books));
            _log = log ?? SilentLog.Instance;
            _teardown = teardown;
            States = new HostStateTracker((state, expectedMs) => Guard("announce the state " + state, () => _host.SetState(state, expectedMs)));
        }

        public HostStateTracker States { get; }

        /// <summary>Listens to the editor and publishes the state it is in now.</summary>
        public void Attach(bool playing, bool compiling)
        {
            if (_attached) return;
            _attached = true;
            AssemblyReloadEvents.beforeAssemblyReload += OnBeforeAssemblyReload;
            EditorApplication.quitting += OnQuitting;
            EditorApplication.playModeStateChanged += OnPlayModeStateChanged;
            CompilationPipeline.compilationStarted += OnCompilationStarted;
            CompilationPipeline.compilationFinished += OnCompilationFinished;
            States.SetPlaying(playing);
            States.SetCompiling(compiling, compiling ? _books.ExpectedCompileMs : null);
        }

        public void Dispose() => Detach();

        private void Detach()
        {
            if (!_attached) return;
            _attached = false;
            AssemblyReloadEvents.beforeAssemblyReload -= OnBeforeAssemblyReload;
            EditorApplication.quitting -= OnQuitting;
            EditorApplication.playModeStateChanged -= OnPlayModeStateChanged;
            CompilationPipeline.compilationStarted -= OnCompilationStarted;
            CompilationPipeline.compilationFinished -= OnCompilationFinished;
        }

        private void OnPlayModeStateChanged(PlayModeStateChange change)
        {
            // The "Exiting" changes are requests that may still be refused; the state follows what happened.
            if (change == PlayModeStateChange.EnteredPlayMode) States.SetPlaying(true);
            else if (change == PlayModeStateChange.EnteredEditMode) States.SetPlaying(false);
        }

        private void OnCompilationStarted(object context)
        {
            var expected = _books.ExpectedCompileMs;
            _books.CompileStarting();
            States.SetCompiling(true, expected);
        }

        private void OnCompilationFinished(object context)
        {
            _books.CompileFinished();
            States.SetCompiling(false);
        }

        private void OnBeforeAssemblyReload()
        {
            Detach();
            _books.ReloadStarting();
            States.End("reloading");
            Guard("say goodbye before the domain reload", () => _host.BeginReload(_books.ExpectedReloadMs));
            Guard("let go of the editor", _teardown);
        }

        private void OnQuitting()
        {
            Detach();
            States.End("quitting");
            Guard("announce that the editor quits", () => _host.SetState("quitting"));
            Guard("close the host", () => _host.Close("quit"));
            Guard("let go of the editor", _teardown);
        }

        /// <summary>Runs a step of the lifecycle; a failure is logged, never thrown into Unity's event loop.</summary>
        private void Guard(string what, Action step)
        {
            if (step == null) return;
            try
            {
                step();
            }
            catch (Exception error)
            {
                _log.Error("Tether could not " + what + ": " + error);
            }
        }
    }
}
