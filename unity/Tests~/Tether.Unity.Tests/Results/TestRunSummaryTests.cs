using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using Tether.Unity.Testing;

namespace Tether.Unity.Tests.Results
{
    [TestFixture]
    public class TestRunSummaryTests
    {
        private sealed class Node
        {
            public string Name;
            public string Status;
            public double Seconds;
            public string Message;
            public List<Node> Children = new List<Node>();
        }

        [Test]
        public void SummarizesTheLeavesOfTheResultTree()
        {
            var root = new Node
            {
                Name = "Project",
                Children =
                {
                    new Node
                    {
                        Name = "Player",
                        Children =
                        {
                            new Node { Name = "Player.MovesForward", Status = "Passed", Seconds = 0.0123 },
                            new Node { Name = "Player.Jumps", Status = "Failed", Seconds = 0.5, Message = "Expected 1 but was 0" },
                        },
                    },
                    new Node { Name = "Save.RoundTrips", Status = "Skipped" },
                },
            };
            var summary = TestRunSummary.FromTree("EditMode", root, n => n.Children,
                n => new TestCaseResult(n.Name, TestRunSummary.OutcomeOf(n.Status), n.Seconds * 1000, n.Message));
            var json = summary.ToJson();
            Assert.That((string)json["mode"], Is.EqualTo("EditMode"));
            Assert.That((int)json["total"], Is.EqualTo(3));
            Assert.That((int)json["passed"], Is.EqualTo(1));
            Assert.That((int)json["failed"], Is.EqualTo(1));
            Assert.That((int)json["skipped"], Is.EqualTo(1));
            var results = json["results"].ToList();
            Assert.That(results.Select(r => (string)r["name"]), Is.EqualTo(new[] { "Player.MovesForward", "Player.Jumps", "Save.RoundTrips" }));
            Assert.That((long)results[0]["durationMs"], Is.EqualTo(12));
            Assert.That((string)results[1]["message"], Is.EqualTo("Expected 1 but was 0"));
            Assert.That(((Newtonsoft.Json.Linq.JObject)results[0]).ContainsKey("message"), Is.False);
        }

        [TestCase("Passed", "passed")]
        [TestCase("Failed", "failed")]
        [TestCase("Skipped", "skipped")]
        [TestCase("Inconclusive", "inconclusive")]
        public void NamesOutcomes(string status, string outcome) => Assert.That(TestRunSummary.OutcomeOf(status), Is.EqualTo(outcome));
    }
}
