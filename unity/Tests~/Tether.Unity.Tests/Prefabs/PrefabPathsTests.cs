using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Prefabs;

namespace Tether.Unity.Tests.Prefabs
{
    /// <summary>Prefab asset paths as the prefab tools take them, with the sandbox's errors (src/sandbox/tools/prefab-tools.ts).</summary>
    [TestFixture]
    public class PrefabPathsTests
    {
        private string _project;

        [SetUp]
        public void TempProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-prefabs-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(Path.Combine(_project, "Assets", "Prefabs"));
        }

        [TearDown]
        public void Remove() => Directory.Delete(_project, true);

        [TestCase("Assets/Prefabs/Enemy.prefab", "Assets/Prefabs/Enemy.prefab")]
        [TestCase("Assets\\Prefabs\\Enemy.prefab", "Assets/Prefabs/Enemy.prefab")]
        [TestCase("./Assets/Other/../Prefabs/Enemy.prefab", "Assets/Prefabs/Enemy.prefab")]
        public void ANewPrefabsPathIsProjectRelative(string input, string expected)
        {
            Assert.That(PrefabPaths.New(_project, input, "create_prefab"), Is.EqualTo(expected));
        }

        [Test]
        public void AnExistingPrefabMayBeReadFromPackages()
        {
            Assert.That(PrefabPaths.Existing(_project, "Packages/com.x/Tree.prefab", "instantiate_prefab"), Is.EqualTo("Packages/com.x/Tree.prefab"));
        }

        [TestCase("../Elsewhere.prefab")]
        [TestCase("/etc/Enemy.prefab")]
        public void PathsOutsideTheProjectAreRefused(string input)
        {
            var error = Assert.Throws<TetherException>(() => PrefabPaths.New(_project, input, "create_prefab"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
        }

        [TestCase("Assets/Prefabs/Enemy.asset", "not a prefab file name")]
        [TestCase("Assets/Prefabs/.prefab", "not a prefab file name")]
        [TestCase("Library/Enemy.prefab", "not under Assets/")]
        [TestCase("Packages/com.x/Enemy.prefab", "read-only")]
        public void ANewPrefabMustBeAPrefabFileUnderAssets(string input, string problem)
        {
            var error = Assert.Throws<TetherException>(() => PrefabPaths.New(_project, input, "create_prefab"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["field"], Is.EqualTo("assetPath"));
            Assert.That((string)error.Data["problem"], Does.Contain(problem));
        }

        [Test]
        public void ANewPrefabNeverOverwritesAnAsset()
        {
            File.WriteAllText(Path.Combine(_project, "Assets", "Prefabs", "Enemy.prefab"), "");
            var error = Assert.Throws<TetherException>(() => PrefabPaths.New(_project, "Assets/Prefabs/Enemy.prefab", "create_prefab"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("already exists").And.Contain("apply_prefab_overrides"));
            Assert.That((string)error.Data["path"], Is.EqualTo("Assets/Prefabs/Enemy.prefab"));
        }

        [Test]
        public void AnExistingPrefabMustBeAPrefab()
        {
            var error = Assert.Throws<TetherException>(() => PrefabPaths.Existing(_project, "Assets/Scenes/Level.unity", "open_prefab"));
            Assert.That(error.Message, Is.EqualTo("Invalid arguments for open_prefab: assetPath: \"Assets/Scenes/Level.unity\" is not a prefab (.prefab). Give a prefab asset's path, e.g. \"Assets/Prefabs/Enemy.prefab\"."));
        }

        [Test]
        public void AMissingPrefabIsNotFoundWithTheClosestOnes()
        {
            var error = PrefabPaths.NoPrefab("instantiate_prefab", "Assets/Prefabs/Enemi.prefab", new[] { "Assets/Prefabs/Enemy.prefab", "Assets/Art/Tree.prefab" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.Contain("Did you mean \"Assets/Prefabs/Enemy.prefab\""));
            Assert.That((string)error.Data["suggestions"][0], Is.EqualTo("Assets/Prefabs/Enemy.prefab"));
        }
    }
}
