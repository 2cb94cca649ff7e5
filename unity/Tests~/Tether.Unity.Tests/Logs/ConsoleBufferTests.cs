using System;
using System.Linq;
using System.Threading.Tasks;
using NUnit.Framework;
using Tether.Unity.Logs;

namespace Tether.Unity.Tests.Logs
{
    [TestFixture]
    public class ConsoleBufferTests
    {
        private static ConsoleEntry Entry(string type, string message) => new ConsoleEntry(type, message, DateTime.UtcNow);

        [Test]
        public void KeepsTheNewestEntriesWhenFull()
        {
            var buffer = new ConsoleBuffer(3);
            for (var i = 1; i <= 5; i++) buffer.Add(Entry("log", "m" + i));
            Assert.That(buffer.Count, Is.EqualTo(3));
            Assert.That(buffer.Read().Select(e => e.Message), Is.EqualTo(new[] { "m3", "m4", "m5" }));
        }

        [Test]
        public void ReadsTheNewestMatchingEntriesOldestFirst()
        {
            var buffer = new ConsoleBuffer();
            buffer.Add(Entry("log", "Loaded level"));
            buffer.Add(Entry("warning", "Shader is slow"));
            buffer.Add(Entry("error", "NullReferenceException in Player"));
            buffer.Add(Entry("log", "player spawned"));
            buffer.Add(Entry("error", "Missing texture"));

            Assert.That(buffer.Read(new[] { "error" }).Select(e => e.Message), Is.EqualTo(new[] { "NullReferenceException in Player", "Missing texture" }));
            Assert.That(buffer.Read(count: 2).Select(e => e.Message), Is.EqualTo(new[] { "player spawned", "Missing texture" }));
            Assert.That(buffer.Read(filter: "PLAYER").Select(e => e.Message), Is.EqualTo(new[] { "NullReferenceException in Player", "player spawned" }));
            Assert.That(buffer.Read(new[] { "log", "warning" }, 1, "s").Select(e => e.Message), Is.EqualTo(new[] { "player spawned" }));
        }

        [Test]
        public void ClearSaysHowManyEntriesWentAndChangesTheRevision()
        {
            var buffer = new ConsoleBuffer();
            buffer.Add(Entry("log", "a"));
            buffer.Add(Entry("log", "b"));
            var revision = buffer.Revision;
            Assert.That(buffer.Clear(), Is.EqualTo(2));
            Assert.That(buffer.Read(), Is.Empty);
            Assert.That(buffer.Revision, Is.Not.EqualTo(revision));
            buffer.Add(Entry("log", "c"));
            Assert.That(buffer.Read().Single().Message, Is.EqualTo("c"));
        }

        [Test]
        public void TakesEntriesFromManyThreads()
        {
            var buffer = new ConsoleBuffer(100_000);
            Parallel.For(0, 8, t =>
            {
                for (var i = 0; i < 1000; i++) buffer.Add(Entry("log", t + ":" + i));
            });
            Assert.That(buffer.Count, Is.EqualTo(8000));
            Assert.That(buffer.Read().Select(e => e.Message).Distinct().Count(), Is.EqualTo(8000));
        }

        [Test]
        public void AnEntryIsWrittenAsTheSandboxWritesIt()
        {
            var at = new DateTime(2025, 11, 20, 9, 30, 15, 123, DateTimeKind.Utc);
            var json = new ConsoleEntry("error", "boom", at, "at Foo.Bar()").ToJson();
            Assert.That((string)json["type"], Is.EqualTo("error"));
            Assert.That((string)json["message"], Is.EqualTo("boom"));
            Assert.That((string)json["at"], Is.EqualTo("2025-11-20T09:30:15.123Z"));
            Assert.That((string)json["stackTrace"], Is.EqualTo("at Foo.Bar()"));
            var fromConsole = new ConsoleEntry("warning", "old", null, null, "Assets/A.cs", 3).ToJson();
            Assert.That(fromConsole.ContainsKey("at"), Is.False, "Unity's console keeps no time");
            Assert.That((string)fromConsole["file"], Is.EqualTo("Assets/A.cs"));
            Assert.That((int)fromConsole["line"], Is.EqualTo(3));
        }
    }
}
