using System.Collections.Generic;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Testing;
#if TETHER_TEST_FRAMEWORK
using System.Linq;
using Tether.Unity.Dispatch;
using UnityEditor;
using UnityEditor.SceneManagement;
#endif

namespace Tether.Unity.Tools
{
    public sealed class RunTestsArgs
    {
        [ToolArg(Enum = new[] { "EditMode", "PlayMode" })]
        public string Mode = "EditMode";

        [ToolArg("Only tests whose full name contains this text.")]
        public string Filter;

        [ToolArg("Only these tests, by full name (\"Fixture.Test\", arguments in parentheses).")]
        public List<string> TestNames;

        [ToolArg("Only tests whose full name matches one of these regular expressions, e.g. \"^Game\\\\.Player\".")]
        public List<string> GroupNames;

        [ToolArg("Only tests in one of these [Category]s.")]
        public List<string> CategoryNames;

        [ToolArg("Only tests in one of these assemblies (names without \".dll\").")]
        public List<string> AssemblyNames;

        [ToolArg(TestRunRules.UnsavedDescription, Enum = new[] { "refuse", "save" })]
        public string UnsavedChanges = "refuse";

        internal TestSelection Selection() => new TestSelection
        {
            Mode = Mode,
            Contains = Filter,
            TestNames = TestNames?.ToArray(),
            GroupNames = GroupNames?.ToArray(),
            CategoryNames = CategoryNames?.ToArray(),
            AssemblyNames = AssemblyNames?.ToArray(),
        };
    }

    /// <summary>
    /// run_tests: the project's tests through the Test Framework's TestRunnerApi (the package
    /// com.unity.test-framework; without it the tool says so), selected by a Filter. Progress as
    /// each test starts and ends; the summary when the run finishes, also written to
    /// Library/TestResults/latest.json. A PlayMode run that reloads the domain as it enters play
    /// mode cannot be followed by this call (its Task lives in the old domain): the call then
    /// answers as the run starts (finished: false), and the results land in latest.json when it
    /// finishes. Cancelling the call ends it at once; the Test Framework this Unity ships (1.1)
    /// cannot stop a run, so Unity finishes the tests. Refused in play mode and past unsaved
    /// scenes (TestRunRules: the framework would ask about them in a modal dialog); a run that
    /// fails before it finishes (IErrorCallbacks.OnError) fails the call.
    /// </summary>
    public static class RunTestsTool
    {
        [TetherTool("run_tests", Title = "Run tests",
            Description = "Runs the project's EditMode or PlayMode tests (Unity Test Framework), all or those a filter selects (names, regular expressions, categories, assemblies: every kind given must match), with progress as each test starts and ends; answers with each test's outcome, duration, message and stack. Writes Library/TestResults/latest.json.",
            ReadOnly = false, Destructive = false, Idempotent = true, LongRunning = true, Output = typeof(TestRunResult))]
        public static Task<object> RunTests(RunTestsArgs args, IToolContext context)
        {
            var selection = args.Selection();
            // A bad pattern is refused before anything starts, here as in the sandbox.
            selection.FilterGroupNames();
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
            // Its call, or (in the next domain of a PlayMode run, still playing) the run itself.
            if (tests.Listener != null || (EditorApplication.isPlaying && tests.RunGoingOn))
            {
                throw new TetherException(ErrorCodes.ToolFailed, "A test run started by Tether is still going. Wait for it, then run tests again.", new JObject { ["tool"] = "run_tests" });
            }
            TestRunRules.RequireEditMode(EditorApplication.isPlayingOrWillChangePlaymode);
            SaveScenes(TestRunRules.ScenesToSave(args.UnsavedChanges, SceneFileTools.Loaded().Select(scene => (scene.path, scene.name, scene.isDirty))));
            if (args.Mode == "PlayMode" && PlayModeTool.ReloadsOnEnter())
            {
                tests.Start(selection);
                return Task.FromResult<object>(new TestRunResult
                {
                    Mode = args.Mode,
                    Finished = false,
                    Results = new List<TestResult>(),
                    ResultsPath = TestRunResult.LatestPath,
                    DomainReload = true,
                    Note = "PlayMode tests enter play mode, which reloads the code domain: this call ends as the run starts. Read " + TestRunResult.LatestPath + " once the editor is back in edit mode (host state \"ready\"), or turn domain reload off in Enter Play Mode Options to be answered with the results.",
                });
            }
            var listener = new CallListener(context);
            // Stoppable: the run changes nothing the call reports on, so a cancel ends the wait (the
            // run itself goes on in the Test Runner, and writes its results file as it ends).
            var wait = new MainThreadWait<object>(
                context,
                services.MainThread,
                () =>
                {
                    if (tests.Listener == listener) tests.Listener = null;
                },
                stoppable: true);
            listener.Finished = summary => wait.Complete(summary.ToResult());
            listener.Failed = message => wait.Fail(new TetherException(ErrorCodes.ToolFailed, "The Test Runner could not run the tests: " + message, new JObject { ["tool"] = "run_tests" }));
            tests.Listener = listener;
            context.Progress(null, null, "Starting " + args.Mode + " tests");
            tests.Start(selection);
            return wait.Task;
#else
            throw Unavailable("the Test Framework package (com.unity.test-framework) is not in this project; add it with add_package (\"com.unity.test-framework\")");
#endif
        }

#if TETHER_TEST_FRAMEWORK
        /// <summary>Saves the scenes the caller said to save, so that the Test Runner has nothing to ask about.</summary>
        private static void SaveScenes(IReadOnlyList<string> paths)
        {
            foreach (var scene in SceneFileTools.Loaded().Where(scene => paths.Contains(scene.path)).ToList())
            {
                if (!EditorSceneManager.SaveScene(scene))
                {
                    throw new TetherException(ErrorCodes.ToolFailed, "Unity could not save the scene \"" + scene.path + "\" before the test run (the console may say why); no test ran.", new JObject { ["tool"] = "run_tests", ["path"] = scene.path });
                }
            }
        }
#endif

        private static TetherException Unavailable(string why) =>
            new TetherException(ErrorCodes.ToolFailed, "run_tests cannot run here: " + why + ".", new JObject { ["tool"] = "run_tests" });
    }

    /// <summary>Turns a run's events into the call's progress ("Running X", "Passed X (12 ms)") and result.</summary>
    internal sealed class CallListener : ITestRunListener
    {
        private readonly IToolContext _context;
        private int _total;
        private int _started;
        private int _finished;

        public CallListener(IToolContext context)
        {
            _context = context;
        }

        public System.Action<TestRunSummary> Finished { get; set; }

        public System.Action<string> Failed { get; set; }

        private double? Total => _total > 0 ? _total : (double?)null;

        public void RunStarted(int testCount) => _total = testCount;

        public void TestStarted(string fullName) => _context.Progress(_started++, Total, "Running " + fullName);

        public void TestFinished(TestCaseResult result)
        {
            var verb = result.Outcome == "passed" ? "Passed" : result.Outcome == "failed" ? "Failed" : "Skipped";
            _context.Progress(++_finished, Total, verb + " " + result.Name + " (" + (long)result.DurationMs + " ms)");
        }

        public void RunFinished(TestRunSummary summary)
        {
            _context.Progress(summary.Results.Count, summary.Results.Count, "Tests finished");
            Finished?.Invoke(summary);
        }

        public void RunFailed(string message) => Failed?.Invoke(message);
    }
}
