#if TETHER_TEST_FRAMEWORK
using System;
using System.IO;
using System.Text.RegularExpressions;
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
    internal sealed class TestRunEvents : ICallbacks, IDisposable
    {
        /// <summary>Where the mode of the run Tether started is kept across the reload a PlayMode run makes.</summary>
        private const string ModeKey = "Tether.TestRunMode";

        public const string ResultsPath = "Library/TestResults/latest.json";

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

        /// <summary>Starts a run of the <paramref name="mode"/> tests whose full name contains <paramref name="filter"/>.</summary>
        public void Start(string mode, string filter)
        {
            _session.SetString(ModeKey, mode);
            var selection = new Filter { testMode = mode == "PlayMode" ? TestMode.PlayMode : TestMode.EditMode };
            // Unity reads group names as regular expressions over the full name: escaped, one is a substring.
            if (!string.IsNullOrEmpty(filter)) selection.groupNames = new[] { Regex.Escape(filter) };
            _api.Execute(new ExecutionSettings(selection));
        }

        public void RunStarted(ITestAdaptor testsToRun) => Listener?.RunStarted(testsToRun?.TestCaseCount ?? 0);

        public void TestStarted(ITestAdaptor test)
        {
            if (test != null && !test.IsSuite) Listener?.TestStarted(test.FullName);
        }

        public void TestFinished(ITestResultAdaptor result)
        {
        }

        public void RunFinished(ITestResultAdaptor result)
        {
            var mode = _session.GetString(ModeKey, "");
            _session.SetString(ModeKey, "");
            var summary = TestRunSummary.FromTree(
                mode.Length > 0 ? mode : "unknown",
                result,
                node => node.HasChildren ? node.Children : null,
                node => new TestCaseResult(node.FullName, TestRunSummary.OutcomeOf(node.TestStatus.ToString()), node.Duration * 1000, node.Message));
            Write(summary);
            var listener = Listener;
            Listener = null;
            listener?.RunFinished(summary);
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
