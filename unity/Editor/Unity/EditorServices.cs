using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Runtime;
using Tether.Unity.Compiling;
using Tether.Unity.Dispatch;
using Tether.Unity.Lifecycle;
using Tether.Unity.Logs;

namespace Tether.Unity
{
    /// <summary>
    /// What the built-in tools use in this domain (tools are static methods, so they find it
    /// here): the project, the main thread, the console capture, the compilation watcher.
    /// TetherBootstrap sets it at load; null while the package is not running (a test, a
    /// failed start).
    /// </summary>
    internal sealed class EditorServices
    {
        public static EditorServices Current { get; set; }

        /// <summary>The Unity project's root (the folder holding Assets/).</summary>
        public string ProjectRoot { get; set; }

        public MainThreadDispatcher MainThread { get; set; }

        public ConsoleCapture Console { get; set; }

        public CompileWatcher Compiles { get; set; }

        public ISessionStore Session { get; set; }

        public IHostLog Log { get; set; } = SilentLog.Instance;

#if TETHER_TEST_FRAMEWORK
        public Testing.TestRunEvents Tests { get; set; }
#endif

        /// <summary>The services, or INTERNAL_ERROR when this domain has none.</summary>
        public static EditorServices Require()
        {
            var current = Current;
            if (current != null) return current;
            throw new TetherException(
                ErrorCodes.InternalError,
                "Tether's editor services are not running in this domain (the package failed to start; Unity's console says why).",
                new JObject());
        }
    }
}
