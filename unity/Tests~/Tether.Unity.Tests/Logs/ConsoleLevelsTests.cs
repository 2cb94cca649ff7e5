using NUnit.Framework;
using Tether.Unity.Logs;
using UnityEngine;

namespace Tether.Unity.Tests.Logs
{
    [TestFixture]
    public class ConsoleLevelsTests
    {
        [TestCase(LogType.Log, "log")]
        [TestCase(LogType.Warning, "warning")]
        [TestCase(LogType.Error, "error")]
        [TestCase(LogType.Exception, "error")]
        [TestCase(LogType.Assert, "error")]
        public void FoldsLogTypes(LogType type, string expected) => Assert.That(ConsoleLevels.FromLogType(type.ToString()), Is.EqualTo(expected));

        [TestCase(1 << 2, "log")]              // Log
        [TestCase(1 << 10, "log")]             // ScriptingLog
        [TestCase(1 << 9, "warning")]          // ScriptingWarning
        [TestCase(1 << 12, "warning")]         // ScriptCompileWarning
        [TestCase(1 << 7, "warning")]          // AssetImportWarning
        [TestCase(1 << 8, "error")]            // ScriptingError
        [TestCase(1 << 11, "error")]           // ScriptCompileError
        [TestCase((1 << 17) | (1 << 8), "error")] // ScriptingException
        [TestCase((1 << 13) | (1 << 11), "error")] // sticky compile error
        public void FoldsLogEntryModes(int mode, string expected) => Assert.That(ConsoleLevels.FromLogEntryMode(mode), Is.EqualTo(expected));

        [Test]
        public void SplitsConsoleTextWhereUnitySaysTheStackBegins()
        {
            var (message, trace) = ConsoleLevels.SplitConsoleText("Hello\nworld\nUnityEngine.Debug:Log (object)", 12);
            Assert.That(message, Is.EqualTo("Hello\nworld"));
            Assert.That(trace, Is.EqualTo("UnityEngine.Debug:Log (object)"));
        }

        [Test]
        public void SplitsConsoleTextAtTheFirstFrameOtherwise()
        {
            var (message, trace) = ConsoleLevels.SplitConsoleText("Spawned 3 enemies\nUnityEngine.Debug:Log (object)\nSpawner:Start () (at Assets/Spawner.cs:12)\n");
            Assert.That(message, Is.EqualTo("Spawned 3 enemies"));
            Assert.That(trace, Does.StartWith("UnityEngine.Debug:Log"));
            Assert.That(ConsoleLevels.SplitConsoleText("Assets/A.cs(3,5): error CS1002: ; expected"), Is.EqualTo(("Assets/A.cs(3,5): error CS1002: ; expected", (string)null)));
        }
    }
}
