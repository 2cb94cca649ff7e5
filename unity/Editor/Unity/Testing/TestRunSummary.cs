using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;

namespace Tether.Unity.Testing
{
    /// <summary>One test's result as run_tests reports it: { name, outcome, durationMs, message? }.</summary>
    internal sealed class TestCaseResult
    {
        public TestCaseResult(string name, string outcome, double durationMs, string message)
        {
            Name = name ?? "";
            Outcome = outcome ?? "inconclusive";
            DurationMs = Math.Max(0, Math.Round(durationMs));
            Message = string.IsNullOrEmpty(message) ? null : message;
        }

        public string Name { get; }

        /// <summary>"passed", "failed", "skipped" or "inconclusive".</summary>
        public string Outcome { get; }

        public double DurationMs { get; }

        public string Message { get; }

        public JObject ToJson()
        {
            var json = new JObject { ["name"] = Name, ["outcome"] = Outcome, ["durationMs"] = (long)DurationMs };
            if (Message != null) json["message"] = Message;
            return json;
        }
    }

    /// <summary>
    /// A test run's summary, the sandbox's shape: { mode, total, passed, failed, results }, plus
    /// skipped (Unity reports ignored tests). Built from the run's result tree, whose leaves are
    /// the tests; without Unity, so the Test Framework's types stay in TestRunEvents.
    /// </summary>
    internal sealed class TestRunSummary
    {
        private readonly List<TestCaseResult> _results = new List<TestCaseResult>();

        public TestRunSummary(string mode)
        {
            Mode = mode ?? "EditMode";
        }

        public string Mode { get; }

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

        public JObject ToJson() => new JObject
        {
            ["mode"] = Mode,
            ["total"] = _results.Count,
            ["passed"] = _results.Count(r => r.Outcome == "passed"),
            ["failed"] = _results.Count(r => r.Outcome == "failed"),
            ["skipped"] = _results.Count(r => r.Outcome == "skipped"),
            ["results"] = new JArray(_results.Select(r => r.ToJson())),
        };
    }
}
