using NUnit.Framework;
using Tether.Unity.Lifecycle;
using Tether.Unity.Tests.Support;
using UnityEditor;
using UnityEditor.Compilation;

namespace Tether.Unity.Tests.Lifecycle
{
    /// <summary>The editor's lifecycle against the stand-ins' events, raised as Unity raises them.</summary>
    [TestFixture]
    public class EditorLifecycleTests
    {
        private long _now;
        private RecordingHost _host;
        private RecordingLog _log;
        private int _teardowns;

        [SetUp]
        public void FreshEditor()
        {
            UnityStandInState.Reset();
            _now = 1_000_000;
            _host = new RecordingHost();
            _log = new RecordingLog();
            _teardowns = 0;
        }

        private ReloadBookkeeping Books() => new ReloadBookkeeping(new UnitySessionStore(), () => _now);

        private EditorLifecycle Attach(bool playing = false, bool compiling = false)
        {
            var lifecycle = new EditorLifecycle(_host, Books(), _log, () => _teardowns++);
            lifecycle.Attach(playing, compiling);
            return lifecycle;
        }

        [Test]
        public void ADomainLoadedInPlayModeSaysSo()
        {
            Attach(playing: true);
            Assert.That(_host.Calls, Is.EqualTo(new[] { "state playing" }));
        }

        [Test]
        public void PlayModeChangesBecomeStatesOnceTheyHappened()
        {
            Attach();
            EditorApplication.RaisePlayModeStateChanged(PlayModeStateChange.ExitingEditMode);
            Assert.That(_host.Calls, Is.Empty, "leaving edit mode may still be refused");
            EditorApplication.RaisePlayModeStateChanged(PlayModeStateChange.EnteredPlayMode);
            EditorApplication.RaisePlayModeStateChanged(PlayModeStateChange.ExitingPlayMode);
            EditorApplication.RaisePlayModeStateChanged(PlayModeStateChange.EnteredEditMode);
            Assert.That(_host.Calls, Is.EqualTo(new[] { "state playing", "state ready" }));
        }

        [Test]
        public void CompilingAnnouncesTheLastCompilationsDuration()
        {
            Attach();
            CompilationPipeline.RaiseCompilationStarted(new object());
            _now += 3000;
            CompilationPipeline.RaiseCompilationFinished(new object());
            CompilationPipeline.RaiseCompilationStarted(new object());
            Assert.That(_host.Calls, Is.EqualTo(new[] { "state compiling", "state ready", "state compiling 3000" }));
        }

        [Test]
        public void BeforeAReloadTheHostSaysGoodbyeWithTheMeasuredEstimateThenLetsGo()
        {
            // A previous reload took 6 s.
            var earlier = Books();
            earlier.ReloadStarting();
            _now += 6000;
            earlier.ReloadFinished();

            Attach();
            AssemblyReloadEvents.RaiseBeforeAssemblyReload();
            Assert.That(_host.Calls, Is.EqualTo(new[] { "reload 6000" }), "BeginReload announces reloading and says bye itself");
            Assert.That(_teardowns, Is.EqualTo(1));

            // Detached: the old domain hears nothing more.
            AssemblyReloadEvents.RaiseBeforeAssemblyReload();
            EditorApplication.RaisePlayModeStateChanged(PlayModeStateChange.EnteredPlayMode);
            CompilationPipeline.RaiseCompilationStarted(null);
            Assert.That(_host.Calls, Has.Count.EqualTo(1));

            // The next domain measures the reload from that moment.
            _now += 2500;
            Assert.That(Books().ReloadFinished(), Is.EqualTo(2500));
        }

        [Test]
        public void QuittingClosesTheHostWithQuit()
        {
            Attach();
            EditorApplication.RaiseQuitting();
            Assert.That(_host.Calls, Is.EqualTo(new[] { "state quitting", "close quit" }));
            Assert.That(_teardowns, Is.EqualTo(1));
        }

        [Test]
        public void AHostThatFailsToSayGoodbyeDoesNotThrowIntoUnity()
        {
            var lifecycle = new EditorLifecycle(new ThrowingHost(), Books(), _log, () => _teardowns++);
            lifecycle.Attach(false, false);
            Assert.DoesNotThrow(() => AssemblyReloadEvents.RaiseBeforeAssemblyReload());
            Assert.That(_log.Errors, Has.Count.EqualTo(1));
            Assert.That(_teardowns, Is.EqualTo(1), "the domain lets go of Unity's events all the same");
        }

        private sealed class ThrowingHost : IEditorHost
        {
            public void SetState(string state, long? expectedMs = null) => throw new System.InvalidOperationException("down");
            public void BeginReload(long expectedBackMs) => throw new System.InvalidOperationException("down");
            public void Close(string reason) => throw new System.InvalidOperationException("down");
        }
    }
}
