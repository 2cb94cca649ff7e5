using System.Collections.Generic;
using Tether.Core.Tools;

namespace Tether.Unity.Testing
{
    /// <summary>One test's result (the sandbox's testResult).</summary>
    public sealed class TestResult
    {
        [ToolArg("The test's full name, e.g. \"Game.Tests.PlayerTests.MovesForward\".", Required = true)]
        public string Name;

        [ToolArg(Enum = new[] { "passed", "failed", "skipped", "inconclusive" }, Required = true)]
        public string Outcome;

        public long DurationMs;

        [ToolArg("Why it failed, or was skipped.")]
        public string Message;

        public string StackTrace;
    }

    /// <summary>run_tests' result (the sandbox's testRunSummary).</summary>
    public sealed class TestRunResult
    {
        public const string LatestPath = "Library/TestResults/latest.json";

        [ToolArg(Enum = new[] { "EditMode", "PlayMode" }, Required = true)]
        public string Mode;

        [ToolArg("False when the run goes on after this answer (a PlayMode run that reloads the domain): then read resultsPath once the editor is back.")]
        public bool Finished;

        public int Total;

        public int Passed;

        public int Failed;

        public int Skipped;

        public int Inconclusive;

        public long DurationMs;

        [ToolArg(Required = true)]
        public List<TestResult> Results;

        [ToolArg("Where the summary is written too.", Required = true)]
        public string ResultsPath;

        public bool? DomainReload;

        public string Note;
    }
}
