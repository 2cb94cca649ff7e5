using System;
using System.IO;
using Tether.Core.Host;
using Tether.Unity.Compiling;
using Tether.Unity.Dispatch;
using Tether.Unity.Lifecycle;
using Tether.Unity.Logs;
using UnityEditor;
using UnityEditor.MPE;
using UnityEngine;

namespace Tether.Unity
{
    /// <summary>
    /// Makes the editor a Tether host, in every domain: Unity runs this static constructor when
    /// the editor starts and again after each domain reload ([InitializeOnLoad]), which is what
    /// afterAssemblyReload would do. Each domain builds its own host with the same instanceId,
    /// journal and (if free) port as the previous one (ReloadBookkeeping, kept in SessionState),
    /// registers the tools the loaded assemblies declare, and starts listening; EditorLifecycle
    /// then follows play mode, compilation, the next reload and quitting.
    /// Only the editor's main process hosts, never Unity's import workers or secondary processes
    /// (HostingProcess). Set TETHER_DISABLE=1 in the editor's environment to keep the host from starting.
    /// </summary>
    [InitializeOnLoad]
    internal static class TetherBootstrap
    {
        static TetherBootstrap()
        {
            // Quietly: an import worker's log is not where anyone looks, and the editor hosts anyway.
            var whyNot = HostingProcess.WhyNot(
                Environment.GetEnvironmentVariable("TETHER_DISABLE"),
                AssetDatabase.IsAssetImportWorkerProcess(),
                ProcessService.level == ProcessLevel.Secondary);
            if (whyNot != null) return;
            try
            {
                Start();
            }
            catch (Exception error)
            {
                Debug.LogError("Tether could not start the editor's host: " + error);
            }
        }

        /// <summary>The host of this domain (null before it started, or when it could not).</summary>
        internal static TetherHost Host { get; private set; }

        private static void Start()
        {
            var log = new UnityHostLog();
            var session = new UnitySessionStore();
            var books = new ReloadBookkeeping(session, null);
            // Read before the instanceId is made, which makes it false.
            var afterRestart = books.FirstDomain;
            var projectRoot = Directory.GetParent(Application.dataPath).FullName;

            var services = new EditorServices
            {
                ProjectRoot = projectRoot,
                Session = session,
                Log = log,
                MainThread = new MainThreadDispatcher(log, EditorTickSignal.Create(out _)),
                Console = new ConsoleCapture(new ConsoleBuffer(), new UnityLogEntries()),
                Compiles = new CompileWatcher(),
            };
#if TETHER_TEST_FRAMEWORK
            try
            {
                services.Tests = new Testing.TestRunEvents(projectRoot, session, log);
            }
            catch (Exception error)
            {
                log.Warning("Tether could not follow the Test Framework (run_tests will say so): " + error.Message);
            }
#endif
            EditorServices.Current = services;

            TetherHost host;
            try
            {
                host = new TetherHost(new TetherHostOptions
                {
                    Kind = "unity",
                    Name = ProductName(projectRoot),
                    Version = Application.unityVersion,
                    ProjectPath = projectRoot,
                    InstanceId = books.InstanceId,
                    AfterRestart = afterRestart,
                    JournalPath = Path.Combine(projectRoot, "Library", "Tether", "journal.jsonl"),
                    Port = books.PreviousPort,
                    MainThread = services.MainThread,
                    Log = log,
                });
                host.Tools.Replace(ToolRegistration.Collect(AppDomain.CurrentDomain.GetAssemblies(), typeof(TetherBootstrap).Assembly, log.Warning));
                host.Start();
            }
            catch
            {
                Teardown(services);
                throw;
            }
            Host = host;
            books.RememberPort(host.Port);
            books.ReloadFinished();
            var lifecycle = new EditorLifecycle(new TetherHostAdapter(host), books, log, () =>
            {
                Host = null;
                Teardown(services);
            });
            lifecycle.Attach(EditorApplication.isPlaying, EditorApplication.isCompiling);
        }

        /// <summary>Lets go of every Unity event this domain's services listen to.</summary>
        private static void Teardown(EditorServices services)
        {
            if (EditorServices.Current == services) EditorServices.Current = null;
#if TETHER_TEST_FRAMEWORK
            services.Tests?.Dispose();
#endif
            services.Compiles?.Dispose();
            services.Console?.Dispose();
            services.MainThread?.Dispose();
        }

        /// <summary>The product name (Player Settings), else the project folder's name.</summary>
        private static string ProductName(string projectRoot)
        {
            var product = Application.productName;
            return string.IsNullOrWhiteSpace(product) ? Path.GetFileName(projectRoot) : product;
        }
    }
}
