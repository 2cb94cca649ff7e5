using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Unity.Testing
{
    /// <summary>One test's result as run_tests reports it: { name, outcome, durationMs, message?, stackTrace? }.</summary>
    internal sealed class TestCaseResult
    {
        public TestCaseResult(string name, string outcome, double durationMs, string message, string stackTrace = null)
        {
            Name = name ?? "";
            Outcome = outcome ?? "inconclusive";
            DurationMs = Math.Max(0, Math.Round(durationMs));
            Message = string.IsNullOrEmpty(message) ? null : message;
            StackTrace = string.IsNullOrEmpty(stackTrace) ? null : stackTrace;
        }

        public string StackTrace { get; }

        public string Name { get; }

        /// <summary>"passed", "failed", "skipped" or "inconclusive".</summary>
        public string Outcome { get; }

        public double DurationMs { get; }

        public string Message { get; }

        public TestResult ToResult() => new TestResult { Name = Name, Outcome = Outcome, DurationMs = (long)DurationMs, Message = Message, StackTrace = StackTrace };

        public JObject ToJson() => (JObject)ToolJson.FromObject(ToResult());
    }

    /// <summary>
    /// A test run's summary, the sandbox's shape (TestRunResult): { mode, finished, total, passed,
    /// failed, skipped, inconclusive, durationMs, results, resultsPath }. Built from the run's
    /// result tree, whose leaves are the tests; without Unity, so the Test Framework's types stay
    /// in TestRunEvents.
    /// </summary>
    internal sealed class TestRunSummary
    {
        private readonly List<TestCaseResult> _results = new List<TestCaseResult>();

        public TestRunSummary(string mode)
        {
            Mode = mode ?? "EditMode";
        }

        public string Mode { get; }

        /// <summary>The whole run's duration (the root's), when known; else the tests' sum.</summary>
        public double? DurationMs { get; set; }

        public IReadOnlyList<TestCaseResult> Results => _results;

        public void Add(TestCaseResult result)
        {
            if (result != null) _results.Add(result);
        }

        /// <summary>A TestStatus name (Passed, Failed, Skipped, Inconclusive) as an outcome.</summary>
        public static string OutcomeOf(string testStatusName)
        {
            switch (testStatusName)
            {
                case "Passed": return "passed";
                case "Failed": return "failed";
                case "Skipped": return "skipped";
                default: return "inconclusive";
            }
        }

        /// <summary>The leaves of a result tree (the tests; suites hold them), depth-first.</summary>
        public static TestRunSummary FromTree<T>(string mode, T root, Func<T, IEnumerable<T>> childrenOf, Func<T, TestCaseResult> resultOf)
        {
            var summary = new TestRunSummary(mode);
            if (root == null) return summary;
            var stack = new Stack<T>();
            stack.Push(root);
            while (stack.Count > 0)
            {
                var node = stack.Pop();
                var children = (childrenOf(node) ?? Enumerable.Empty<T>()).ToList();
                if (children.Count == 0)
                {
                    summary.Add(resultOf(node));
                    continue;
                }
                for (var i = children.Count - 1; i >= 0; i--) stack.Push(children[i]);
            }
            return summary;
        }

        public TestRunResult ToResult() => new TestRunResult
        {
            Mode = Mode,
            Finished = true,
            Total = _results.Count,
            Passed = _results.Count(r => r.Outcome == "passed"),
            Failed = _results.Count(r => r.Outcome == "failed"),
            Skipped = _results.Count(r => r.Outcome == "skipped"),
            Inconclusive = _results.Count(r => r.Outcome == "inconclusive"),
            DurationMs = (long)Math.Round(DurationMs ?? _results.Sum(r => r.DurationMs)),
            Results = _results.Select(r => r.ToResult()).ToList(),
            ResultsPath = TestRunResult.LatestPath,
            Note = _results.Count == 0 ? "No " + Mode + " test matched the filter. Check the names, or call without a filter to run them all." : null,
        };

        public JObject ToJson() => (JObject)ToolJson.FromObject(ToResult());
    }
}
