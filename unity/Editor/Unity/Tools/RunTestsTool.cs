using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
#if TETHER_TEST_FRAMEWORK
using Tether.Unity.Dispatch;
using Tether.Unity.Testing;
using UnityEditor;
#endif

namespace Tether.Unity.Tools
{
    public sealed class RunTestsArgs
    {
        [ToolArg(Enum = new[] { "EditMode", "PlayMode" })]
        public string Mode = "EditMode";

        [ToolArg("Only tests whose name contains this text.")]
        public string Filter;
    }

    /// <summary>
    /// run_tests: the project's tests through the Test Framework's TestRunnerApi (the package
    /// com.unity.test-framework; without it the tool says so). Progress per test; the summary
    /// when the run finishes, also written to Library/TestResults/latest.json.
    /// A PlayMode run that reloads the domain as it enters play mode cannot be followed by this
    /// call (its Task lives in the old domain): the call then answers as the run starts, and the
    /// results land in latest.json when it finishes. Cancelling the call ends it at once; the
    /// Test Framework this Unity ships (1.1) cannot stop a run, so Unity finishes the tests.
    /// </summary>
    public static class RunTestsTool
    {
        [TetherTool("run_tests", Title = "Run tests",
            Description = "Runs the project test suite (EditMode or PlayMode) and reports progress per test. Writes Library/TestResults/latest.json.",
            ReadOnly = false, Destructive = false, Idempotent = true, LongRunning = true)]
        public static Task<object> RunTests(RunTestsArgs args, IToolContext context)
        {
#if TETHER_TEST_FRAMEWORK
            var services = EditorServices.Require();
            var tests = services.Tests;
            if (tests == null) throw Unavailable("the Test Framework listener did not start in this domain (Unity's console says why)");
            if (EditorUtility.scriptCompilationFailed)
            {
                throw new TetherException(
                    ErrorCodes.ToolFailed,
                    "Unity cannot run tests while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.",
                    new JObject { ["tool"] = "run_tests" });
            }
            if (tests.Listener != null)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "A test run started by Tether is still going. Wait for it, then run tests again.", new JObject { ["tool"] = "run_tests" });
            }
            if (args.Mode == "PlayMode" && ReloadsOnEnter())
            {
                tests.Start(args.Mode, args.Filter);
                return Task.FromResult<object>(new JObject
                {
                    ["mode"] = args.Mode,
                    ["started"] = true,
                    ["finished"] = false,
                    ["domainReload"] = true,
                    ["resultsPath"] = TestRunEvents.ResultsPath,
                    ["note"] = "PlayMode tests enter play mode, which reloads the code domain: this call ends as the run starts. Read " + TestRunEvents.ResultsPath + " once the editor is back in edit mode (host state \"ready\"), or turn domain reload off in Enter Play Mode Options to be answered with the results.",
                });
            }
            var listener = new CallListener(context);
            var wait = new MainThreadWait<object>(context, services.MainThread, () =>
            {
                if (tests.Listener == listener) tests.Listener = null;
            });
            listener.Finished = summary => wait.Complete(summary.ToJson());
            tests.Listener = listener;
            context.Progress(null, null, "Starting " + args.Mode + " tests");
            tests.Start(args.Mode, args.Filter);
            return wait.Task;
#else
            throw Unavailable("the Test Framework package (com.unity.test-framework) is not in this project; add it with the Package Manager");
#endif
        }

        private static TetherException Unavailable(string why) =>
            new TetherException(ErrorCodes.ToolFailed, "run_tests cannot run here: " + why + ".", new JObject { ["tool"] = "run_tests" });

#if TETHER_TEST_FRAMEWORK
        private static bool ReloadsOnEnter() =>
            !(EditorSettings.enterPlayModeOptionsEnabled && (EditorSettings.enterPlayModeOptions & EnterPlayModeOptions.DisableDomainReload) != 0);

        /// <summary>Turns the run's events into the call's progress and result.</summary>
        private sealed class CallListener : ITestRunListener
        {
            private readonly IToolContext _context;
            private int _total;
            private int _started;

            public CallListener(IToolContext context)
            {
                _context = context;
            }

            public System.Action<TestRunSummary> Finished { get; set; }

            public void RunStarted(int testCount) => _total = testCount;

            public void TestStarted(string fullName)
            {
                _context.Progress(_started, _total > 0 ? _total : (double?)null, "Running " + fullName);
                _started++;
            }

            public void RunFinished(TestRunSummary summary)
            {
                _context.Progress(summary.Results.Count, summary.Results.Count, "Tests finished");
                Finished?.Invoke(summary);
            }
        }
#endif
    }
}
