using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Scenes;

namespace Tether.Unity.Tests.Scenes
{
    /// <summary>Scene paths as the scene tools take them, with the sandbox's errors (src/sandbox/scene-paths.ts).</summary>
    [TestFixture]
    public class ScenePathsTests
    {
        private string _project;

        [SetUp]
        public void TempProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-scenes-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_project);
        }

        [TearDown]
        public void Remove() => Directory.Delete(_project, true);

        [TestCase("Assets/Scenes/Level1.unity", "Assets/Scenes/Level1.unity")]
        [TestCase("Assets\\Scenes\\Level1.unity", "Assets/Scenes/Level1.unity")]
        [TestCase("./Assets/Scenes/../Level1.unity", "Assets/Level1.unity")]
        public void ProjectRelativeScenePathsUnderAssetsAreKept(string input, string expected)
        {
            Assert.That(ScenePaths.Normalize(_project, input, "open_scene"), Is.EqualTo(expected));
        }

        [Test]
        public void AnAbsolutePathInsideTheProjectBecomesRelative()
        {
            Assert.That(ScenePaths.Normalize(_project, Path.Combine(_project, "Assets", "A.unity"), "open_scene"), Is.EqualTo("Assets/A.unity"));
        }

        [TestCase("../Other/Assets/A.unity")]
        [TestCase("/etc/passwd")]
        public void PathsOutsideTheProjectAreRefused(string input)
        {
            var error = Assert.Throws<TetherException>(() => ScenePaths.Normalize(_project, input, "open_scene"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
        }

        [Test]
        public void APathWithoutTheExtensionIsRefusedWithTheOneToGive()
        {
            var error = Assert.Throws<TetherException>(() => ScenePaths.Normalize(_project, "Assets/Scenes/Level.scene", "create_scene"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("\"Assets/Scenes/Level.unity\""));
            Assert.That((string)error.Data["field"], Is.EqualTo("path"));
            Assert.That((string)error.Data["tool"], Is.EqualTo("create_scene"));
        }

        [Test]
        public void APathOutsideAssetsIsRefused()
        {
            var error = Assert.Throws<TetherException>(() => ScenePaths.Normalize(_project, "Library/Level.unity", "save_scene", "saveAs"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("saveAs: \"Library/Level.unity\" is not under Assets/"));
        }

        [Test]
        public void ASceneIsNamedAfterItsFile()
        {
            Assert.That(ScenePaths.NameOf("Assets/Scenes/Level 1.unity"), Is.EqualTo("Level 1"));
        }

        [Test]
        public void AMissingSceneSuggestsTheClosestPaths()
        {
            var error = ScenePaths.NoScene("open_scene", "Assets/Scenes/Sample.unity", new[] { "Assets/Scenes/SampleScene.unity", "Assets/Other/Far.unity" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.Contain("Did you mean \"Assets/Scenes/SampleScene.unity\""));
            Assert.That((string)error.Data["suggestions"][0], Is.EqualTo("Assets/Scenes/SampleScene.unity"));
        }

        [Test]
        public void UnsavedChangesAreRefusedNamingTheScenesUnlessTheCallerSaidSaveOrDiscard()
        {
            var closing = new[] { ("Assets/A.unity", "A", true), ("Assets/B.unity", "B", false), ("", "Untitled", true) };
            var error = Assert.Throws<TetherException>(() => ScenePaths.UnsavedToHandle("open_scene", "refuse", closing));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("\"Assets/A.unity\", \"Untitled\""));
            Assert.That(error.Message, Does.Contain("save_scene"));
            Assert.That(ScenePaths.UnsavedToHandle("open_scene", "discard", closing), Is.EqualTo(new[] { "Assets/A.unity", "Untitled" }));
            Assert.That(ScenePaths.UnsavedToHandle("open_scene", "refuse", new[] { ("Assets/B.unity", "B", false) }), Is.Empty);
        }
    }
}
