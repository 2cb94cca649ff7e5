using System.IO;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Assets;

namespace Tether.Unity.Tests.Assets
{
    /// <summary>
    /// get_asset_info's size on disk: an Assets/ path under the project, a Packages/ path where Unity
    /// maps it (a registry package in Library/PackageCache/&lt;name&gt;@&lt;version&gt;, not Packages/),
    /// and NOT_FOUND when nothing is there.
    /// </summary>
    [TestFixture]
    public class AssetFilesTests
    {
        private string _project;

        [SetUp]
        public void TempProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-asset-files-" + System.Guid.NewGuid().ToString("N"));
            var package = Path.Combine(_project, "Library", "PackageCache", "com.example.tools@1.2.0");
            Directory.CreateDirectory(Path.Combine(package, "Runtime"));
            Directory.CreateDirectory(Path.Combine(package, "Documentation~"));
            File.WriteAllText(Path.Combine(package, "package.json"), "12345");
            File.WriteAllText(Path.Combine(package, "package.json.meta"), "ignored");
            File.WriteAllText(Path.Combine(package, "Runtime", "Tool.cs"), "1234567");
            File.WriteAllText(Path.Combine(package, "Documentation~", "index.md"), "ignored too");
            Directory.CreateDirectory(Path.Combine(_project, "Assets", "Art"));
            File.WriteAllText(Path.Combine(_project, "Assets", "Art", "Red.mat"), "123");
        }

        [TearDown]
        public void Remove() => Directory.Delete(_project, true);

        /// <summary>Unity's FileUtil.GetPhysicalPath for this project: the package is in the cache, relative to the project (as the editor's working folder).</summary>
        private static string Physical(string path) =>
            path.StartsWith("Packages/com.example.tools") ? "Library/PackageCache/com.example.tools@1.2.0" + path.Substring("Packages/com.example.tools".Length) : path;

        private long SizeOf(string path, bool isFolder) => AssetFiles.Size(AssetFiles.OnDisk(_project, path, Physical), isFolder, "get_asset_info", path);

        [Test]
        public void APackageFolderIsSizedWhereUnityKeepsIt()
        {
            Assert.That(SizeOf("Packages/com.example.tools", true), Is.EqualTo(5 + 7), "no .meta, nothing in a folder ending in ~");
            Assert.That(SizeOf("Packages/com.example.tools/Runtime/Tool.cs", false), Is.EqualTo(7));
        }

        [Test]
        public void AnAbsolutePhysicalPathIsTakenAsItIs()
        {
            var elsewhere = Path.Combine(_project, "Library", "PackageCache", "com.example.tools@1.2.0");
            Assert.That(AssetFiles.OnDisk(_project, "Packages/com.example.tools", _ => elsewhere), Is.EqualTo(Path.GetFullPath(elsewhere)));
        }

        [Test]
        public void AnAssetsPathIsUnderTheProjectWithoutAskingUnity()
        {
            Assert.That(AssetFiles.OnDisk(_project, "Assets/Art/Red.mat", _ => throw new AssertionException("asked")), Is.EqualTo(Path.Combine(_project, "Assets", "Art", "Red.mat")));
            Assert.That(SizeOf("Assets/Art", true), Is.EqualTo(3));
        }

        [TestCase("Packages/com.example.gone", true)]
        [TestCase("Packages/com.example.tools/Runtime/Gone.cs", false)]
        [TestCase("Assets/Art/Gone.mat", false)]
        public void NothingOnDiskIsNotFound(string path, bool isFolder)
        {
            var error = Assert.Throws<TetherException>(() => SizeOf(path, isFolder));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That((string)error.Data["path"], Is.EqualTo(path));
            Assert.That(error.Message, Does.Contain("refresh_assets"));
        }
    }
}
