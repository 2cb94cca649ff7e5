using System;
using System.Linq;
using System.Threading;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    [TestFixture]
    public class ToolRegistryTests
    {
        private static RegisteredTool Make(string name, string description = "A tool.") =>
            ToolFactory.Create<NoArguments>(new TetherToolAttribute(name) { Description = description }, (args, context) => name);

        [Test]
        public void AddReplaceAndRemoveShowInTheSnapshotAndDescriptors()
        {
            var registry = new ToolRegistry();
            registry.Add(Make("a"));
            registry.Add(Make("b"));
            registry.Add(Make("a", "A again."));
            Assert.That(registry.Snapshot.Keys, Is.EquivalentTo(new[] { "a", "b" }));
            Assert.That(registry.Descriptors().Select(d => (string)d["name"]), Is.EqualTo(new[] { "a", "b" }), "a replaced tool keeps its place");
            Assert.That((string)registry.Descriptors()[0]["description"], Is.EqualTo("A again."));
            Assert.That(registry.Remove("a"), Is.True);
            Assert.That(registry.Remove("a"), Is.False);
            Assert.That(registry.TryGet("b", out var b) && b.Name == "b", Is.True);
            Assert.That(registry.TryGet("a", out _), Is.False);
        }

        [Test]
        public void ASnapshotTakenEarlierDoesNotChange()
        {
            var registry = new ToolRegistry();
            registry.Add(Make("a"));
            var before = registry.Snapshot;
            var descriptors = registry.Descriptors();
            registry.Add(Make("b"));
            Assert.That(before.Count, Is.EqualTo(1));
            Assert.That(descriptors.Count, Is.EqualTo(1));
            Assert.That(registry.Descriptors(), Is.Not.SameAs(descriptors));
            Assert.That(registry.Descriptors(), Is.SameAs(registry.Descriptors()), "cached until the next change");
        }

        [Test]
        public void ChangedFiresOnlyWhenWhatClientsSeeChanged()
        {
            var registry = new ToolRegistry();
            var changes = 0;
            registry.Changed += () => changes++;
            registry.Add(Make("a"));
            Assert.That(changes, Is.EqualTo(1));
            var again = Make("a");
            registry.Add(again);
            Assert.That(changes, Is.EqualTo(1), "the same descriptor again (a domain reload) is no change");
            Assert.That(registry.Snapshot["a"], Is.SameAs(again), "but the new handler is used");
            registry.Add(Make("a", "Changed."));
            Assert.That(changes, Is.EqualTo(2));
            registry.Remove("missing");
            Assert.That(changes, Is.EqualTo(2));
            registry.Replace(new[] { Make("a", "Changed.") });
            Assert.That(changes, Is.EqualTo(2));
            registry.Replace(new[] { Make("a", "Changed."), Make("c") });
            Assert.That(changes, Is.EqualTo(3));
            registry.Remove("c");
            Assert.That(changes, Is.EqualTo(4));
        }

        [Test]
        public void ReplaceRefusesTwoToolsOfOneNameAndChangesNothing()
        {
            var registry = new ToolRegistry();
            registry.Add(Make("keep"));
            Assert.Throws<ArgumentException>(() => registry.Replace(new[] { Make("x"), Make("x") }));
            Assert.That(registry.Snapshot.Keys, Is.EqualTo(new[] { "keep" }));
        }

        [Test]
        public void ReadersOnOtherThreadsAlwaysSeeAConsistentSet()
        {
            var registry = new ToolRegistry();
            var changes = 0;
            var inconsistent = 0;
            registry.Changed += () => Interlocked.Increment(ref changes);
            var made = Enumerable.Range(0, 4).Select(w => Enumerable.Range(0, 10).Select(i => Make("w" + w + "_" + i)).ToArray()).ToArray();
            using (var stop = new CancellationTokenSource())
            {
                // Dedicated threads: spinning readers on pool threads would starve the writers of threads.
                var readers = Enumerable.Range(0, 4).Select(_ => Task.Factory.StartNew(() =>
                {
                    var reads = 0;
                    while (!stop.IsCancellationRequested)
                    {
                        var snapshot = registry.Snapshot;
                        if (snapshot.Any(pair => pair.Value.Name != pair.Key)) Interlocked.Increment(ref inconsistent);
                        var names = registry.Descriptors().Select(d => (string)d["name"]).ToList();
                        if (names.Distinct().Count() != names.Count) Interlocked.Increment(ref inconsistent);
                        reads++;
                    }
                    return reads;
                }, TaskCreationOptions.LongRunning)).ToArray();
                var writers = Enumerable.Range(0, 4).Select(w => Task.Factory.StartNew(() =>
                {
                    for (var i = 0; i < 100; i++)
                    {
                        registry.Add(made[w][i % 10]);
                        if (i % 3 == 0) registry.Remove("w" + w + "_" + ((i + 5) % 10));
                    }
                }, TaskCreationOptions.LongRunning)).ToArray();
                Assert.That(Task.WaitAll(writers, TimeSpan.FromSeconds(30)), Is.True);
                stop.Cancel();
                Assert.That(Task.WaitAll(readers, TimeSpan.FromSeconds(30)), Is.True);
            }
            Assert.That(inconsistent, Is.EqualTo(0));
            Assert.That(changes, Is.GreaterThan(0));
            Assert.That(registry.Snapshot.Count, Is.EqualTo(registry.Descriptors().Count));
            foreach (var descriptor in registry.Descriptors().OfType<JObject>()) Assert.That(registry.Snapshot.ContainsKey((string)descriptor["name"]), Is.True);
        }
    }
}
