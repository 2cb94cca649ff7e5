using System.Linq;
using NUnit.Framework;
using Tether.Unity.Logs;
using UnityEngine;

namespace Tether.Unity.Tests.Logs
{
    /// <summary>The capture against the stand-ins: Application.logMessageReceivedThreaded raised as Unity raises it.</summary>
    [TestFixture]
    public class ConsoleCaptureTests
    {
        [Test]
        public void MessagesLoggedFromAnyThreadLandInTheBuffer()
        {
            var buffer = new ConsoleBuffer();
            using (new ConsoleCapture(buffer, null))
            {
                Application.RaiseLog("hello", "", LogType.Log);
                System.Threading.Tasks.Task.Run(() => Application.RaiseLog("Boom", "at X.Y()", LogType.Exception)).Wait();
            }
            Application.RaiseLog("after dispose", "", LogType.Log);
            var entries = buffer.Read();
            Assert.That(entries.Select(e => e.Type + ":" + e.Message), Is.EqualTo(new[] { "log:hello", "error:Boom" }));
            Assert.That(entries[1].StackTrace, Is.EqualTo("at X.Y()"));
            Assert.That(entries[0].At, Is.Not.Null);
        }

        [Test]
        public void WithoutUnitysLogEntriesTheEarlierEntriesAreMissingWithANoteAndNoException()
        {
            // The stand-in UnityEditor assembly has no LogEntries: what an unknown future Unity would look like.
            var unityConsole = new UnityLogEntries();
            Assert.That(unityConsole.CanRead, Is.False);
            Assert.That(unityConsole.Note, Does.Contain("LogEntries"));
            Assert.That(unityConsole.ReadAll(out var note), Is.Empty);
            Assert.That(note, Is.Not.Null);
            Assert.That(unityConsole.Clear(out var clearNote), Is.False);
            Assert.That(clearNote, Is.Not.Null);
            using (var capture = new ConsoleCapture(new ConsoleBuffer(), unityConsole))
            {
                Assert.That(capture.SeedNote, Is.EqualTo(unityConsole.Note));
            }
        }
    }
}
