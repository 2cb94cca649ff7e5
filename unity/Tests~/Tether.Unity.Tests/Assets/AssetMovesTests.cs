using System.Collections.Generic;
using System.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Unity.Assets;

namespace Tether.Unity.Tests.Assets
{
    /// <summary>The checks before a move, a rename, a delete or new folders, as the sandbox makes them (src/sandbox/assets/asset-moves.ts).</summary>
    [TestFixture]
    public class AssetMovesTests
    {
        private static readonly HashSet<string> Folders = new HashSet<string> { "Assets", "Assets/Art", "Assets/Art/Props" };
        private static readonly HashSet<string> Files = new HashSet<string> { "Assets/Art/Red.mat", "Assets/Art/Blue.mat" };

        private static bool Exists(string path) => Folders.Contains(path) || Files.Contains(path);

        private static TetherException Move(string from, string to) =>
            Assert.Throws<TetherException>(() => AssetMoves.CheckMove("move_asset", "to", from, Folders.Contains(from), to, Exists, Folders.Contains));

        [Test]
        public void AMoveIntoAnExistingFolderWithTheSameExtensionPasses()
        {
            Assert.DoesNotThrow(() => AssetMoves.CheckMove("move_asset", "to", "Assets/Art/Red.mat", false, "Assets/Art/Props/Red.MAT", Exists, Folders.Contains));
            Assert.DoesNotThrow(() => AssetMoves.CheckMove("move_asset", "to", "Assets/Art/Props", true, "Assets/Props", Exists, Folders.Contains));
        }

        [Test]
        public void EachRefusalSaysWhy()
        {
            Assert.That(Move("Assets/Art/Red.mat", "Assets/Art/Red.mat").Message, Does.Contain("already is"));
            Assert.That(Move("Assets/Art/Red.mat", "Assets/Art/Blue.mat").Message, Does.Contain("already exists").And.Contain("never overwritten"));
            Assert.That(Move("Assets/Art", "Assets/Art/Props/Art").Message, Does.Contain("into itself"));
            Assert.That(Move("Assets/Art/Red.mat", "Assets/Art/Red.png").Message, Does.Contain("changes the extension").And.Contain("Keep \".mat\""));
            var missing = Move("Assets/Art/Red.mat", "Assets/Nowhere/Red.mat");
            Assert.That(missing.Message, Does.Contain("\"Assets/Nowhere\" does not exist").And.Contain("create_folder"));
            Assert.That(missing.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)missing.Data["field"], Is.EqualTo("to"));
        }

        [Test]
        public void ARenameKeepsTheFolderAndExtension()
        {
            Assert.That(AssetMoves.Renamed("rename_asset", "Assets/Art/Red.mat", false, "Crimson"), Is.EqualTo("Assets/Art/Crimson.mat"));
            Assert.That(AssetMoves.Renamed("rename_asset", "Assets/Art", true, "Art.v2"), Is.EqualTo("Assets/Art.v2"));
            var error = Assert.Throws<TetherException>(() => AssetMoves.Renamed("rename_asset", "Assets/Art/Red.mat", false, "Crimson.MAT"));
            Assert.That(error.Message, Does.Contain("\"Crimson\"").And.Contain("the extension stays"));
            Assert.That((string)error.Data["field"], Is.EqualTo("newName"));
        }

        [Test]
        public void FoldersToCreateAreTheMissingOnesOutermostFirst()
        {
            Assert.That(AssetMoves.FoldersToCreate("create_folder", "Assets/Art/Props/Rocks/Big", Exists, Folders.Contains), Is.EqualTo(new[] { "Assets/Art/Props/Rocks", "Assets/Art/Props/Rocks/Big" }));
            Assert.That(AssetMoves.FoldersToCreate("create_folder", "Assets/Art", Exists, Folders.Contains), Is.Empty);
            var error = Assert.Throws<TetherException>(() => AssetMoves.FoldersToCreate("create_material", "Assets/Art/Red.mat/Inner", Exists, Folders.Contains));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for create_material: path:").And.Contain("is a file, not a folder"));
        }

        [Test]
        public void ALoadedSceneIsNotDeleted()
        {
            Assert.DoesNotThrow(() => AssetMoves.CheckDelete("delete_asset", "Assets/Art", new[] { "Assets/Scenes/Main.unity" }));
            var error = Assert.Throws<TetherException>(() => AssetMoves.CheckDelete("delete_asset", "Assets/Scenes", new[] { "Assets/Scenes/Main.unity", "Assets/Scenes/Menu.unity", "" }));
            Assert.That(error.Message, Does.Contain("\"Assets/Scenes/Main.unity\", \"Assets/Scenes/Menu.unity\" are loaded").And.Contain("open_scene"));
        }

        [TestCase("t:")]
        [TestCase("red L:")]
        public void AnEmptyTypeOrLabelIsRefused(string filter)
        {
            var error = Assert.Throws<TetherException>(() => AssetMoves.CheckFilter("find_assets", filter));
            Assert.That(error.Message, Does.Contain("names no"));
        }

        [TestCase("")]
        [TestCase("t:Material red l:Environment")]
        [TestCase("tree:oak")]
        public void OtherFiltersPass(string filter)
        {
            Assert.DoesNotThrow(() => AssetMoves.CheckFilter("find_assets", filter));
        }

        [Test]
        public void TheTestDataIsWhatTheTestsThinkItIs()
        {
            Assert.That(Files.All(f => !Folders.Contains(f)), Is.True);
        }
    }
}
