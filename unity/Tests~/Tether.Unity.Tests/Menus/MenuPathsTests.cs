using System.Linq;
using NUnit.Framework;
using Tether.Unity.Menus;

namespace Tether.Unity.Tests.Menus
{
    [TestFixture]
    public class MenuPathsTests
    {
        [TestCase("Tools/Build Player %#b", "Tools/Build Player")]
        [TestCase("Tools/Reset _g", "Tools/Reset")]
        [TestCase("Tools/Go &LEFT", "Tools/Go")]
        [TestCase("Tools/ Spaced / Item ", "Tools/Spaced/Item")]
        [TestCase("Tools/Percent 100%", "Tools/Percent 100%")]
        [TestCase("Window/General/Console", "Window/General/Console")]
        public void CleansHotkeysAndSpaces(string declared, string path) => Assert.That(MenuPaths.Clean(declared), Is.EqualTo(path));

        [TestCase("File/Save", true)]
        [TestCase("CONTEXT/Rigidbody/Reset", false)]
        [TestCase("internal:Window/Debug", false)]
        [TestCase("File", false)]
        [TestCase("", false)]
        public void KnowsWhatExecuteMenuItemCanRun(string path, bool runnable) => Assert.That(MenuPaths.IsRunnable(path), Is.EqualTo(runnable));

        [Test]
        public void MergesByPathKeepingTheFirstDescriptionInPathOrder()
        {
            var merged = MenuPaths.Merge(new[]
            {
                new MenuEntry("Tools/B", "[MenuItem] Game.Tools.B"),
                new MenuEntry("File/Save", "Unity menu item"),
                new MenuEntry("Tools/B", "Unity menu item"),
                new MenuEntry("CONTEXT/Transform/Reset", "[MenuItem] x"),
            });
            Assert.That(merged.Select(e => e.Path + "=" + e.Description), Is.EqualTo(new[] { "File/Save=Unity menu item", "Tools/B=[MenuItem] Game.Tools.B" }));
        }

        [Test]
        public void FiltersCaseInsensitively()
        {
            var entries = new[] { new MenuEntry("File/Save", ""), new MenuEntry("File/Save Project", ""), new MenuEntry("Edit/Play", "") };
            Assert.That(MenuPaths.Filter(entries, "save").Select(e => e.Path), Is.EqualTo(new[] { "File/Save", "File/Save Project" }));
            Assert.That(MenuPaths.Filter(entries, null), Has.Count.EqualTo(3));
            Assert.That(MenuPaths.RootOf("GameObject/Create Empty"), Is.EqualTo("GameObject"));
        }
    }
}
