using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Builds;
using Tether.Unity.Paths;

namespace Tether.Unity.Tests.Results
{
    [TestFixture]
    public class PathsTests
    {
        private string _project;

        [SetUp]
        public void TempProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-unity-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_project);
        }

        [TearDown]
        public void Remove() => Directory.Delete(_project, true);

        [Test]
        public void TheTargetIsTheOneGivenElseTheActiveBuildTargetWhenBuildPlayerBuildsIt()
        {
            Assert.That(BuildPaths.TargetOf("WebGL", "StandaloneWindows64"), Is.EqualTo("WebGL"));
            Assert.That(BuildPaths.TargetOf(null, "StandaloneWindows64"), Is.EqualTo("StandaloneWindows64"));
            Assert.That(BuildPaths.TargetOf(null, "StandaloneOSX"), Is.EqualTo("StandaloneOSX"));
            var error = Assert.Throws<TetherException>(() => BuildPaths.TargetOf(null, "Switch"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for build_player: target: none given, and the active build target (Switch) is not one build_player builds. Pass one of StandaloneLinux64,"));
            Assert.That((string)error.Data["field"], Is.EqualTo("target"));
        }

        [Test]
        public void ATargetWithoutItsModuleIsRefusedSayingWhereToAddIt()
        {
            var error = BuildPaths.NotInstalled("Android");
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.StartWith("Unity cannot build for Android: this editor does not have its Build Support module. Add it in Unity Hub"));
            Assert.That((string)error.Data["target"], Is.EqualTo("Android"));
        }

        [Test]
        public void PathsInsideTheProjectResolve()
        {
            Assert.That(ProjectPaths.ResolveInside(_project, "Builds/StandaloneLinux64"), Is.EqualTo(Path.Combine(_project, "Builds", "StandaloneLinux64")));
            Assert.That(ProjectPaths.ResolveInside(_project, "Library/../Builds"), Is.EqualTo(Path.Combine(_project, "Builds")));
            Assert.That(ProjectPaths.ResolveInside(_project, Path.Combine(_project, "Assets")), Is.EqualTo(Path.Combine(_project, "Assets")));
            Assert.That(ProjectPaths.Relative(_project, Path.Combine(_project, "Library", "TestResults", "latest.json")), Is.EqualTo("Library/TestResults/latest.json"));
        }

        [TestCase("../outside")]
        [TestCase("Builds/../../outside")]
        public void PathsOutsideAreRefused(string path)
        {
            var error = Assert.Throws<TetherException>(() => ProjectPaths.ResolveInside(_project, path));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
            Assert.That((string)error.Data["path"], Is.EqualTo(path));
            Assert.That((string)error.Data["projectPath"], Is.EqualTo(Path.GetFullPath(_project)));
        }

        [Test]
        public void ASiblingFolderSharingThePrefixIsOutside()
        {
            var sibling = _project + "-other";
            Assert.Throws<TetherException>(() => ProjectPaths.ResolveInside(_project, sibling));
            Assert.Throws<TetherException>(() => ProjectPaths.ResolveInside(_project, "/etc/passwd"));
        }

        [TestCase("StandaloneWindows64", "Builds/StandaloneWindows64/My Game.exe")]
        [TestCase("StandaloneLinux64", "Builds/StandaloneLinux64/My Game.x86_64")]
        [TestCase("StandaloneOSX", "Builds/StandaloneOSX/My Game.app")]
        [TestCase("Android", "Builds/Android/My Game.apk")]
        [TestCase("iOS", "Builds/iOS")]
        [TestCase("WebGL", "Builds/WebGL")]
        public void EachTargetBuildsWhereItsPlatformExpects(string target, string location)
        {
            Assert.That(BuildPaths.Location(target, "My Game"), Is.EqualTo(location));
            Assert.That(BuildPaths.OutputFolder(target), Is.EqualTo("Builds/" + target));
        }

        [Test]
        public void AProductNameBecomesAFileName()
        {
            Assert.That(BuildPaths.SafeFileName("Space: The \"Game\"/2"), Is.EqualTo("Space_ The _Game__2"));
            Assert.That(BuildPaths.SafeFileName("  "), Is.EqualTo("Player"));
            Assert.That(BuildPaths.SafeFileName(null), Is.EqualTo("Player"));
        }
    }
}
