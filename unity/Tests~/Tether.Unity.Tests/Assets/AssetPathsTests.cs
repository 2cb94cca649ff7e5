using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Assets;

namespace Tether.Unity.Tests.Assets
{
    /// <summary>Asset paths as the asset tools take them, with the sandbox's errors (src/sandbox/assets/asset-paths.ts).</summary>
    [TestFixture]
    public class AssetPathsTests
    {
        private string _project;

        [SetUp]
        public void TempProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-assets-" + System.Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_project);
        }

        [TearDown]
        public void Remove() => Directory.Delete(_project, true);

        [TestCase("Assets/Art/Red.mat", "Assets/Art/Red.mat")]
        [TestCase("Assets\\Art\\Red.mat", "Assets/Art/Red.mat")]
        [TestCase("./Assets/Art/../Red.mat", "Assets/Red.mat")]
        [TestCase("Assets/Art/", "Assets/Art")]
        [TestCase("Assets", "Assets")]
        public void ProjectRelativePathsUnderAssetsAreKept(string input, string expected)
        {
            Assert.That(AssetPaths.Normalize(_project, input, "find_assets"), Is.EqualTo(expected));
        }

        [Test]
        public void AnAbsolutePathInsideTheProjectBecomesRelative()
        {
            Assert.That(AssetPaths.Normalize(_project, Path.Combine(_project, "Assets", "Red.mat"), "get_asset_info"), Is.EqualTo("Assets/Red.mat"));
        }

        [TestCase("../Other/Assets/A.mat")]
        [TestCase("/etc/passwd")]
        public void PathsOutsideTheProjectAreRefused(string input)
        {
            var error = Assert.Throws<TetherException>(() => AssetPaths.Normalize(_project, input, "move_asset", "to"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.PathOutsideProject));
        }

        [Test]
        public void PackagesAreReadOnly()
        {
            Assert.That(AssetPaths.Normalize(_project, "Packages/com.unity.ugui", "find_assets", "folders[0]", readOnly: true), Is.EqualTo("Packages/com.unity.ugui"));
            var error = Assert.Throws<TetherException>(() => AssetPaths.Normalize(_project, "Packages/com.unity.ugui/X.mat", "create_material"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("read-only"));
        }

        [Test]
        public void OtherFoldersOfTheProjectAreRefusedWithAPathToGive()
        {
            var error = Assert.Throws<TetherException>(() => AssetPaths.Normalize(_project, "Library/Red.mat", "move_asset", "to"));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That(error.Message, Does.Contain("not under Assets/").And.Contain("\"Assets/Red.mat\""));
            Assert.That((string)error.Data["field"], Is.EqualTo("to"));
        }

        [Test]
        public void TheAssetsFolderItselfCannotChange()
        {
            var error = Assert.Throws<TetherException>(() => AssetPaths.Changeable(_project, "Assets/", "delete_asset"));
            Assert.That(error.Message, Does.Contain("Assets folder itself"));
        }

        [Test]
        public void ANewAssetNeedsItsExtension()
        {
            Assert.That(AssetPaths.NewAsset(_project, "Assets/Red.mat", "create_material", ".mat", "Assets/New Material.mat"), Is.EqualTo("Assets/Red.mat"));
            var error = Assert.Throws<TetherException>(() => AssetPaths.NewAsset(_project, "Assets/Art/Red.material", "create_material", ".mat", "Assets/New Material.mat"));
            Assert.That(error.Message, Does.Contain("does not end in .mat").And.Contain("\"Assets/Art/Red.mat\""));
            error = Assert.Throws<TetherException>(() => AssetPaths.NewAsset(_project, "Assets", "create_material", ".mat", "Assets/New Material.mat"));
            Assert.That(error.Message, Does.Contain("\"Assets/New Material.mat\""));
        }

        [TestCase("Assets/Art/Red.mat", "Red", ".mat", "Assets/Art")]
        [TestCase("Assets/Art/Red.v2.mat", "Red.v2", ".mat", "Assets/Art")]
        [TestCase("Assets/Art", "Art", "", "Assets")]
        [TestCase("Assets/.hidden", ".hidden", "", "Assets")]
        public void NamesExtensionsAndParents(string path, string name, string extension, string parent)
        {
            Assert.That(AssetPaths.NameOf(path), Is.EqualTo(name));
            Assert.That(AssetPaths.ExtensionOf(path), Is.EqualTo(extension));
            Assert.That(AssetPaths.ParentOf(path), Is.EqualTo(parent));
        }

        [Test]
        public void WithinMeansTheFolderOrBelowIt()
        {
            Assert.That(AssetPaths.IsWithin("Assets/Art/Red.mat", "Assets/Art"), Is.True);
            Assert.That(AssetPaths.IsWithin("Assets/Art", "Assets/Art"), Is.True);
            Assert.That(AssetPaths.IsWithin("Assets/Artwork/Red.mat", "Assets/Art"), Is.False);
        }

        [Test]
        public void NotFoundSuggestsClosePathsButNotTheFoldersOnTheWay()
        {
            var error = AssetPaths.NotFound("get_asset_info", "path", "Assets/Materials/Grond.mat", new[] { "Assets/Materials", "Assets/Materials/Ground.mat", "Assets/Scenes/Main.unity" });
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.Contain("Did you mean \"Assets/Materials/Ground.mat\"?"));
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "Assets/Materials/Ground.mat" }));
        }
    }
}
