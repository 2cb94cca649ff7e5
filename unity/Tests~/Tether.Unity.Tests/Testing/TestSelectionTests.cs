using System.Collections.Generic;
using System.Linq;
using System.Text.RegularExpressions;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Testing;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Testing
{
    /// <summary>run_tests' selection as a Test Framework Filter, and its progress per test (the sandbox's test-runner.ts).</summary>
    [TestFixture]
    public class TestSelectionTests
    {
        private static bool Runs(TestSelection selection, string fullName) =>
            (selection.FilterGroupNames() ?? new[] { "" }).Any(pattern => Regex.IsMatch(fullName, pattern));

        [Test]
        public void TheFilterTextAndThePatternsMustBothMatch()
        {
            Assert.That(new TestSelection().FilterGroupNames(), Is.Null, "no group filter: every test");
            Assert.That(new TestSelection { Contains = "Player.Jumps(1)" }.FilterGroupNames(), Is.EqualTo(new[] { "Player\\.Jumps\\(1\\)" }));
            var both = new TestSelection { Contains = "Player", GroupNames = new[] { "Jump", "^Game\\.Save" } };
            Assert.That(Runs(both, "Game.Player.Jumps"), Is.True);
            Assert.That(Runs(both, "Game.Jumps.Player"), Is.True);
            Assert.That(Runs(both, "Game.Enemy.Jumps"), Is.False);
            Assert.That(Runs(both, "Game.Save.PlayerState"), Is.True, "an anchored pattern still anchors");
            Assert.That(Runs(both, "Other.Game.Save.PlayerState"), Is.False);
        }

        [Test]
        public void ABadPatternIsRefusedNamingIt()
        {
            var error = Assert.Throws<TetherException>(() => new TestSelection { GroupNames = new[] { "ok", "(unclosed" } }.FilterGroupNames());
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("groupNames.1"));
        }

        [Test]
        public void EmptyListsSelectEverything()
        {
            Assert.That(TestSelection.OrNull(new string[0]), Is.Null);
            Assert.That(TestSelection.OrNull(null), Is.Null);
            Assert.That(TestSelection.OrNull(new List<string> { "Game.Tests" }), Is.EqualTo(new[] { "Game.Tests" }));
            var args = new RunTestsArgs { Filter = "x", CategoryNames = new List<string> { "AI" } }.Selection();
            Assert.That(args.Mode, Is.EqualTo("EditMode"));
            Assert.That(args.CategoryNames, Is.EqualTo(new[] { "AI" }));
        }

        [Test]
        public void EachTestReportsProgressAsItStartsAndEnds()
        {
            var context = new FakeToolContext();
            TestRunSummary finished = null;
            var listener = new CallListener(context) { Finished = summary => finished = summary };
            listener.RunStarted(2);
            listener.TestStarted("Player.Moves");
            listener.TestFinished(new TestCaseResult("Player.Moves", "passed", 12.4, null));
            listener.TestStarted("Player.Jumps");
            listener.TestFinished(new TestCaseResult("Player.Jumps", "failed", 3, "Expected 1", "at Player.Jumps () in Assets/Tests/PlayerTests.cs:9"));
            var summary = new TestRunSummary("EditMode");
            summary.Add(new TestCaseResult("Player.Jumps", "failed", 3, "Expected 1", "at Player.Jumps () in Assets/Tests/PlayerTests.cs:9"));
            listener.RunFinished(summary);
            Assert.That(context.ProgressMessages, Is.EqualTo(new[] { "Running Player.Moves", "Passed Player.Moves (12 ms)", "Running Player.Jumps", "Failed Player.Jumps (3 ms)", "Tests finished" }));
            var result = finished.ToResult();
            Assert.That(result.Finished, Is.True);
            Assert.That(result.Failed, Is.EqualTo(1));
            Assert.That(result.ResultsPath, Is.EqualTo("Library/TestResults/latest.json"));
            Assert.That(result.Results[0].StackTrace, Does.Contain("PlayerTests.cs:9"));
        }
    }
}
