using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Builds;

namespace Tether.Unity.Tests.Builds
{
    /// <summary>Where build_player may write a player, and the options it passes on: the sandbox's rules (build-player.ts).</summary>
    [TestFixture]
    public class BuildPathsTests
    {
        private string _root;

        [SetUp]
        public void Project() => _root = Directory.CreateDirectory(Path.Combine(Path.GetTempPath(), "tether-builds-" + TestContext.CurrentContext.Test.ID, "Game")).FullName;

        [TearDown]
        public void Done() => Directory.Delete(Path.GetDirectoryName(_root), true);

        [Test]
        public void APlayerGoesToBuildsOrAFolderOfItsOwnInTheProject()
        {
            Assert.That(BuildPaths.Output(_root, "WebGL", null, false).Shown, Is.EqualTo("Builds/WebGL"));
            var custom = BuildPaths.Output(_root, "Android", "Out\\Mobile/", false);
            Assert.That(custom.Shown, Is.EqualTo("Out/Mobile"));
            Assert.That(custom.Full, Is.EqualTo(Path.Combine(_root, "Out", "Mobile")));
            Assert.That(BuildPaths.LocationIn(custom.Shown, "Android", "My Game"), Is.EqualTo("Out/Mobile/My Game.apk"));
        }

        [TestCase("Assets/Build", "inside Assets/, which the editor owns")]
        [TestCase("library/Out", "inside Library/, which the editor owns")]
        [TestCase("ProjectSettings", "inside ProjectSettings/")]
        [TestCase(".", "the project folder itself")]
        public void NeverIntoTheProjectItselfOrAFolderTheEditorOwns(string outputPath, string problem)
        {
            var error = Assert.Throws<TetherException>(() => BuildPaths.Output(_root, "WebGL", outputPath, false));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain(problem));
        }

        [Test]
        public void OutsideTheProjectOnlyWhenAllowedSayingWhy()
        {
            var outside = Path.Combine(Path.GetDirectoryName(_root), "elsewhere");
            var refused = Assert.Throws<TetherException>(() => BuildPaths.Output(_root, "WebGL", outside, false));
            Assert.That(refused.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
            Assert.That(refused.Message, Does.Contain("replacing what is there").And.Contain("allowOutsideProject"));
            Assert.That((string)refused.Data["projectPath"], Is.EqualTo(_root));
            Assert.That(BuildPaths.Output(_root, "WebGL", "../elsewhere", true).Full, Is.EqualTo(outside));
        }

        [Test]
        public void OptionsAreNamedDevelopmentFirstEachOnce()
        {
            Assert.That(BuildPaths.OptionNames(true, new[] { "AllowDebugging", "AllowDebugging", "StrictMode" }), Is.EqualTo(new[] { "Development", "AllowDebugging", "StrictMode" }));
            Assert.That(BuildPaths.OptionNames(false, null), Is.Empty);
        }
    }
}
