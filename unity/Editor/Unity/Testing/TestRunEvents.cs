#if TETHER_TEST_FRAMEWORK
using System;
using System.IO;
using Tether.Core.Runtime;
using Tether.Core.Tools;
using Tether.Unity.Lifecycle;
using Tether.Unity.Paths;
using UnityEditor.TestTools.TestRunner.Api;
using UnityEngine;

namespace Tether.Unity.Testing
{
    /// <summary>
    /// Tether's listener on the Test Framework (com.unity.test-framework, TestRunnerApi), one per
    /// domain, registered at load as the framework's documentation says callbacks must be to
    /// survive domain reloads: a PlayMode run reloads the domain when it enters play mode, and
    /// its results arrive in the new one. Every run that finishes (Tether's or the Test Runner
    /// window's) is written to Library/TestResults/latest.json; the run_tests call under way,
    /// if any, hears of each test and of the end.
    /// </summary>
    internal sealed class TestRunEvents : IErrorCallbacks, IDisposable
    {
        /// <summary>Where the mode of the run Tether started is kept across the reload a PlayMode run makes.</summary>
        private const string ModeKey = "Tether.TestRunMode";

        public const string ResultsPath = TestRunResult.LatestPath;

        private readonly TestRunnerApi _api;
        private readonly string _projectRoot;
        private readonly ISessionStore _session;
        private readonly IHostLog _log;

        public TestRunEvents(string projectRoot, ISessionStore session, IHostLog log)
        {
            _projectRoot = projectRoot;
            _session = session;
            _log = log ?? SilentLog.Instance;
            _api = ScriptableObject.CreateInstance<TestRunnerApi>();
            _api.RegisterCallbacks(this);
        }

        /// <summary>The run_tests call waiting for the run, or null.</summary>
        public ITestRunListener Listener { get; set; }

        /// <summary>Starts a run of the tests <paramref name="selection"/> picks (its patterns checked before: a bad one throws and nothing runs).</summary>
        public void Start(TestSelection selection)
        {
            var filter = new Filter
            {
                testMode = selection.Mode == "PlayMode" ? TestMode.PlayMode : TestMode.EditMode,
                groupNames = selection.FilterGroupNames(),
                testNames = TestSelection.OrNull(selection.TestNames),
                categoryNames = TestSelection.OrNull(selection.CategoryNames),
                assemblyNames = TestSelection.OrNull(selection.AssemblyNames),
            };
            // The last run's results must not pass for this one's (a PlayMode run's caller is told to read the file).
            try { File.Delete(ProjectPaths.ResolveInside(_projectRoot, ResultsPath)); } catch (Exception) { /* none, or not ours to remove: the run writes it */ }
            _session.SetString(ModeKey, selection.Mode);
            try
            {
                _api.Execute(new ExecutionSettings(filter));
            }
            catch
            {
                _session.SetString(ModeKey, "");
                throw;
            }
        }

        /// <summary>
        /// Whether a run Tether started has not ended: kept across the reload a PlayMode run makes,
        /// where no call listens any more. (Read only in play mode: a run that ended without a word
        /// from the framework must not keep the mark for ever.)
        /// </summary>
        public bool RunGoingOn => _session.GetString(ModeKey, "").Length > 0;

        public void RunStarted(ITestAdaptor testsToRun) => Listener?.RunStarted(testsToRun?.TestCaseCount ?? 0);

        public void TestStarted(ITestAdaptor test)
        {
            if (test != null && !test.IsSuite) Listener?.TestStarted(test.FullName);
        }

        public void TestFinished(ITestResultAdaptor result)
        {
            if (result != null && !result.HasChildren) Listener?.TestFinished(ResultOf(result));
        }

        private static TestCaseResult ResultOf(ITestResultAdaptor node) =>
            new TestCaseResult(node.FullName, TestRunSummary.OutcomeOf(node.TestStatus.ToString()), node.Duration * 1000, node.Message, node.StackTrace);

        public void RunFinished(ITestResultAdaptor result)
        {
            var mode = _session.GetString(ModeKey, "");
            _session.SetString(ModeKey, "");
            var summary = TestRunSummary.FromTree(mode.Length > 0 ? mode : "unknown", result, node => node.HasChildren ? node.Children : null, ResultOf);
            if (result != null) summary.DurationMs = result.Duration * 1000;
            Write(summary);
            var listener = Listener;
            Listener = null;
            listener?.RunFinished(summary);
        }

        /// <summary>A run that failed before it could finish ends the call waiting for it, which RunFinished never will.</summary>
        public void OnError(string message)
        {
            _session.SetString(ModeKey, "");
            _log.Warning("The Test Runner could not run the tests: " + message);
            var listener = Listener;
            Listener = null;
            listener?.RunFailed(message + " (read_console has the exception)");
        }

        private void Write(TestRunSummary summary)
        {
            try
            {
                var path = ProjectPaths.ResolveInside(_projectRoot, ResultsPath);
                Directory.CreateDirectory(Path.GetDirectoryName(path));
                File.WriteAllText(path, ToolJson.Pretty(summary.ToJson()) + "\n");
            }
            catch (Exception error)
            {
                _log.Warning("Tether could not write " + ResultsPath + ": " + error.Message);
            }
        }

        public void Dispose()
        {
            try { _api.UnregisterCallbacks(this); } catch { /* the domain is going away regardless */ }
        }
    }
}
#endif
