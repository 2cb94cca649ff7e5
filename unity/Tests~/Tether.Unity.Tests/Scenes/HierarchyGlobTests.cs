using NUnit.Framework;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    /// <summary>find_gameobjects' path globs (the sandbox's src/sandbox/path-glob.ts, the same cases in test/sandbox/serialized-model.test.ts).</summary>
    [TestFixture]
    public class HierarchyGlobTests
    {
        [TestCase("/Environment/*", "/Environment/Crate", true)]
        [TestCase("/Environment/*", "/Environment", false)]
        [TestCase("/Environment/*", "/Environment/Crate/Lid", false)]
        [TestCase("/Environment/**", "/Environment", true)]
        [TestCase("/Environment/**", "/Environment/Crate/Lid", true)]
        [TestCase("**/Cr?te", "/Environment/Crate", true)]
        [TestCase("**/Cr?te", "/Crate", true)]
        [TestCase("**/Cr?te", "/Environment/Crates", false)]
        [TestCase("Player", "/Player", true)]
        [TestCase("/Player", "/Player (1)", false)]
        [TestCase("/Player*", "/Player (1)", true)]
        [TestCase("/*", "/Main Camera", true)]
        [TestCase("/A.B/(x)", "/A.B/(x)", true)]
        [TestCase("/A.B", "/AxB", false)]
        [TestCase("/**/Lid", "/Environment/Crate/Lid", true)]
        public void MatchesPathsAsTheSandboxDoes(string glob, string path, bool matches)
        {
            Assert.That(new HierarchyGlob(glob).Matches(path), Is.EqualTo(matches));
        }
    }
}
