using System.Collections.Generic;
using NUnit.Framework;
using Tether.Core.Discovery;

namespace Tether.Core.Tests.Discovery
{
    [TestFixture]
    public class TetherHomeTests
    {
        private static System.Func<string, string> Env(Dictionary<string, string> values) =>
            name => values.TryGetValue(name, out var value) ? value : null;

        private static System.Func<string, string> NoEnv => _ => null;

        [Test]
        public void TetherHomeWinsOnEveryPlatform()
        {
            var env = Env(new Dictionary<string, string> { ["TETHER_HOME"] = "/custom/home", ["XDG_STATE_HOME"] = "/xdg", ["LOCALAPPDATA"] = "D:\\local" });
            foreach (var platform in new[] { "darwin", "win32", "linux", "freebsd" })
            {
                Assert.That(TetherHome.Resolve(platform, env, "/home/ana"), Is.EqualTo("/custom/home"), platform);
            }
        }

        // The cases of test/discovery/tether-home.test.ts, which has the same.
        [Test]
        public void ATildeIsTheHomeDirectoryAndARelativeTetherHomeIsTakenFromIt()
        {
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "~/tether" }), "/home/ana"), Is.EqualTo("/home/ana/tether"));
            Assert.That(TetherHome.Resolve("darwin", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "~" }), "/Users/ana"), Is.EqualTo("/Users/ana"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "~\\tether" }), "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\tether"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "~/tether" }), "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\tether"));
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "state/tether" }), "/home/ana"), Is.EqualTo("/home/ana/state/tether"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "state\\tether" }), "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\state\\tether"));
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "~bob/tether" }), "/home/ana"), Is.EqualTo("/home/ana/~bob/tether"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["TETHER_HOME"] = "D:\\tether" }), "C:\\Users\\ana"), Is.EqualTo("D:\\tether"));
        }

        [Test]
        public void AnEmptyOrRelativeXdgStateHomeOrLocalAppDataIsIgnored()
        {
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["XDG_STATE_HOME"] = "" }), "/home/ana"), Is.EqualTo("/home/ana/.local/state/tether"));
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["XDG_STATE_HOME"] = "rel/state" }), "/home/ana"), Is.EqualTo("/home/ana/.local/state/tether"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["LOCALAPPDATA"] = "" }), "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\AppData\\Local\\tether"));
            Assert.That(TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["LOCALAPPDATA"] = "Local" }), "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\AppData\\Local\\tether"));
        }

        [Test]
        public void AnEmptyTetherHomeIsUnset()
        {
            var env = Env(new Dictionary<string, string> { ["TETHER_HOME"] = "" });
            Assert.That(TetherHome.Resolve("linux", env, "/home/ana"), Is.EqualTo("/home/ana/.local/state/tether"));
        }

        [Test]
        public void MacOsUsesApplicationSupport()
        {
            Assert.That(TetherHome.Resolve("darwin", NoEnv, "/Users/ana"), Is.EqualTo("/Users/ana/Library/Application Support/tether"));
        }

        [Test]
        public void LinuxUsesXdgStateHomeElseLocalState()
        {
            Assert.That(TetherHome.Resolve("linux", NoEnv, "/home/ana"), Is.EqualTo("/home/ana/.local/state/tether"));
            Assert.That(TetherHome.Resolve("linux", Env(new Dictionary<string, string> { ["XDG_STATE_HOME"] = "/var/state/" }), "/home/ana"), Is.EqualTo("/var/state/tether"));
            Assert.That(TetherHome.Resolve("freebsd", NoEnv, "/usr/home/ana"), Is.EqualTo("/usr/home/ana/.local/state/tether"));
        }

        // Expectations are Node's path.win32.join results, e.g.
        // node -e "console.log(require('path').win32.join('C:\\Users\\ana','AppData','Local','tether'))"
        [Test]
        public void WindowsUsesLocalAppDataElseTheProfilesAppDataLocal()
        {
            Assert.That(TetherHome.Resolve("win32", NoEnv, "C:\\Users\\ana"), Is.EqualTo("C:\\Users\\ana\\AppData\\Local\\tether"));
            Assert.That(
                TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["LOCALAPPDATA"] = "D:\\Data\\Local" }), "C:\\Users\\ana"),
                Is.EqualTo("D:\\Data\\Local\\tether"));
            Assert.That(
                TetherHome.Resolve("win32", Env(new Dictionary<string, string> { ["LOCALAPPDATA"] = "C:/Users/ana/AppData/Local/" }), "C:\\Users\\ana"),
                Is.EqualTo("C:\\Users\\ana\\AppData\\Local\\tether"));
            Assert.That(TetherHome.Resolve("win32", NoEnv, "C:\\"), Is.EqualTo("C:\\AppData\\Local\\tether"));
        }

        [Test]
        public void WindowsIgnoresXdgAndLinuxIgnoresLocalAppData()
        {
            var env = Env(new Dictionary<string, string> { ["XDG_STATE_HOME"] = "/xdg", ["LOCALAPPDATA"] = "D:\\local" });
            Assert.That(TetherHome.Resolve("win32", env, "C:\\Users\\ana"), Is.EqualTo("D:\\local\\tether"));
            Assert.That(TetherHome.Resolve("linux", env, "/home/ana"), Is.EqualTo("/xdg/tether"));
            Assert.That(TetherHome.Resolve("darwin", env, "/Users/ana"), Is.EqualTo("/Users/ana/Library/Application Support/tether"));
        }

        [Test]
        public void ResolveReadsThisProcesssEnvironment()
        {
            var saved = System.Environment.GetEnvironmentVariable("TETHER_HOME");
            try
            {
                System.Environment.SetEnvironmentVariable("TETHER_HOME", "/from/the/environment");
                Assert.That(TetherHome.Resolve(), Is.EqualTo("/from/the/environment"));
                Assert.That(TetherHome.HostsDir(), Is.EqualTo(System.IO.Path.Combine("/from/the/environment", "hosts")));
            }
            finally
            {
                System.Environment.SetEnvironmentVariable("TETHER_HOME", saved);
            }
        }

        [Test]
        public void HostsDirIsTheHomesHostsFolder()
        {
            Assert.That(TetherHome.HostsDir("/some/home"), Is.EqualTo(System.IO.Path.Combine("/some/home", "hosts")));
        }
    }
}
