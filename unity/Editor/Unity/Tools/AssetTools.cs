using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using UnityEditor;

namespace Tether.Unity.Tools
{
    public sealed class FindAssetsArgs
    {
        [ToolArg("e.g. \"t:Material red\", \"t:GameSettings\", \"l:Environment t:Prefab\".", MaxLength = 1000)]
        public string Filter = "";

        [ToolArg("Search only in these folders and below, e.g. [\"Assets/Art\"]. Add \"Packages\" to search the packages too.", MinLength = 1, MaxLength = 50)]
        public string[] Folders = { "Assets" };

        [ToolArg("Return at most this many; total says how many matched.", Minimum = 1, Maximum = 1000)]
        public int Limit = 100;
    }

    public sealed class GetAssetInfoArgs
    {
        [ToolArg("e.g. \"Assets/Materials/Red.mat\". Give this or guid.")]
        public string Path;

        [ToolArg("The asset's GUID, as find_assets gives it. Give this or path.", Pattern = "^[0-9a-fA-F]{32}$")]
        public string Guid;
    }

    public sealed class CreateFolderArgs
    {
        [ToolArg("e.g. \"Assets/Art/Materials\".", Required = true)]
        public string Path;
    }

    public sealed class MoveAssetArgs
    {
        [ToolArg("e.g. \"Assets/Red.mat\".", Required = true)]
        public string From;

        [ToolArg("The full new path, e.g. \"Assets/Materials/Red.mat\".", Required = true)]
        public string To;
    }

    public sealed class RenameAssetArgs
    {
        [ToolArg("e.g. \"Assets/Materials/Red.mat\".", Required = true)]
        public string Path;

        [ToolArg("The new name without the extension, e.g. \"Crimson\".", Required = true, MinLength = 1, MaxLength = 200, Pattern = "^[^/\\\\]*$")]
        public string NewName;
    }

    public sealed class DeleteAssetArgs
    {
        [ToolArg("e.g. \"Assets/Materials/Old.mat\".", Required = true)]
        public string Path;

        [ToolArg("Where there is no trash, delete it for good instead of failing.")]
        public bool AllowPermanent = false;
    }

    public sealed class ReimportAssetArgs
    {
        [ToolArg("e.g. \"Assets/Textures/Wood.png\".", Required = true)]
        public string Path;
    }

    /// <summary>An asset as the asset tools describe it (AssetInfos.Describe).</summary>
    public class AssetSummary
    {
        [ToolArg("Project-relative, e.g. \"Assets/Materials/Red.mat\".", Required = true)]
        public string Path;

        [ToolArg("Its GUID (32 hex digits), which stays the same when it moves or is renamed.", Required = true)]
        public string Guid;

        [ToolArg("The file name without its extension.", Required = true)]
        public string Name;

        [ToolArg("Its main type: \"Material\", \"Texture2D\", \"SceneAsset\", a ScriptableObject's class, \"DefaultAsset\" for a folder.", Required = true)]
        public string Type;

        public bool IsFolder;
    }

    public sealed class AssetDetails : AssetSummary
    {
        [ToolArg("Bytes on disk (for a folder, of everything in it).")]
        public long Size;

        [ToolArg("Its asset labels (find them with \"l:Label\").", Required = true)]
        public string[] Labels;

        [ToolArg("The assets it references directly (AssetDatabase.GetDependencies, not recursive).", Required = true)]
        public string[] Dependencies;
    }

    public sealed class FindAssetsResult
    {
        public int Count;
        public int Total;

        [ToolArg(Required = true)]
        public List<AssetSummary> Assets;
    }

    public sealed class AssetInfoResult
    {
        [ToolArg(Required = true)]
        public AssetDetails Asset;
    }

    public sealed class CreateFolderResult
    {
        [ToolArg(Required = true)]
        public AssetSummary Folder;

        [ToolArg("The folders created, outermost first; empty when it existed.", Required = true)]
        public string[] Created;
    }

    public sealed class MovedAssetResult
    {
        [ToolArg(Required = true)]
        public AssetSummary Asset;

        [ToolArg(Required = true)]
        public string PreviousPath;
    }

    public sealed class DeleteAssetResult
    {
        [ToolArg("The path it had.", Required = true)]
        public string Deleted;

        [ToolArg(Required = true)]
        public string Guid;

        [ToolArg("It went to the trash (false: deleted for good, as allowPermanent allowed).")]
        public bool Trashed;

        [ToolArg("Where it is now, when the editor knows (the sandbox: under Library/Trash/).")]
        public string TrashPath;
    }

    public sealed class RefreshAssetsResult
    {
        [ToolArg("Assets seen for the first time, when the editor can tell (Unity's API does not say).")]
        public string[] Imported;

        [ToolArg("Assets forgotten because their files are gone, when the editor can tell.")]
        public string[] Removed;
    }

    public sealed class AssetResult
    {
        [ToolArg(Required = true)]
        public AssetSummary Asset;
    }

    /// <summary>
    /// Asset tools (AssetDatabase): find by FindAssets filter, describe one asset, create folders,
    /// move, rename, delete to the trash, refresh and reimport. Paths are project-relative, under
    /// Assets/ (Packages/ may be read). None is an Undo step: Unity's Undo records changes to
    /// objects, never the AssetDatabase's operations on files.
    /// </summary>
    public static class AssetTools
    {
        private const string NotUndoable = "Not an undo step (AssetDatabase operations never are).";

        [TetherTool("find_assets", Title = "Find assets",
            Description = "Finds assets with an AssetDatabase.FindAssets filter: name words (each must be in the name, any case), \"t:Type\" (t:Material, t:Texture, t:Prefab, t:Scene, t:Folder, a ScriptableObject class; several types are alternatives) and \"l:Label\". An empty filter lists everything under the folders.",
            ReadOnly = true, Idempotent = true, Output = typeof(FindAssetsResult))]
        public static object FindAssets(FindAssetsArgs args)
        {
            const string tool = "find_assets";
            var root = EditorServices.Require().ProjectRoot;
            AssetMoves.CheckFilter(tool, args.Filter);
            var folders = args.Folders.Select((folder, i) =>
            {
                var path = AssetPaths.Normalize(root, folder, tool, "folders[" + i + "]", readOnly: true);
                AssetInfos.RequireFolder(path, tool, "folders[" + i + "]");
                return path;
            }).ToArray();
            var found = AssetDatabase.FindAssets(args.Filter, folders)
                .Select(AssetDatabase.GUIDToAssetPath)
                .Where(path => path.Length > 0 && !folders.Contains(path))
                .Distinct()
                .OrderBy(path => path, System.StringComparer.Ordinal)
                .ToList();
            var assets = found.Take(args.Limit).Select(AssetInfos.Describe).ToList();
            return new JObject { ["count"] = assets.Count, ["total"] = found.Count, ["assets"] = new JArray(assets) };
        }

        [TetherTool("get_asset_info", Title = "Get asset info",
            Description = "Describes one asset, by path or by GUID: its GUID, type, size, labels and the assets it references.",
            ReadOnly = true, Idempotent = true, Output = typeof(AssetInfoResult))]
        public static object GetAssetInfo(GetAssetInfoArgs args)
        {
            const string tool = "get_asset_info";
            var root = EditorServices.Require().ProjectRoot;
            if ((args.Path == null) == (args.Guid == null))
            {
                var problem = args.Path == null ? "neither path nor guid was given" : "both path and guid were given";
                throw AssetPaths.Refuse(tool, "path", problem, "Give one of them.");
            }
            string path;
            if (args.Path != null)
            {
                path = AssetPaths.Normalize(root, args.Path, tool, readOnly: true);
                AssetInfos.Require(path, tool);
            }
            else
            {
                path = AssetDatabase.GUIDToAssetPath(args.Guid.ToLowerInvariant());
                if (string.IsNullOrEmpty(path) || !AssetInfos.IsAsset(path))
                {
                    throw new TetherException(ErrorCodes.NotFound, tool + ": no asset has the GUID \"" + args.Guid + "\". It may have been deleted; find_assets lists the project's assets.", new JObject { ["tool"] = tool, ["guid"] = args.Guid });
                }
            }
            return new JObject { ["asset"] = AssetInfos.Details(root, path) };
        }

        [TetherTool("create_folder", Title = "Create folder",
            Description = "Creates a folder under Assets/, with any missing folders above it. A folder that exists already is left as it is. " + NotUndoable,
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(CreateFolderResult))]
        public static object CreateFolder(CreateFolderArgs args)
        {
            const string tool = "create_folder";
            var root = EditorServices.Require().ProjectRoot;
            var folder = AssetPaths.Normalize(root, args.Path, tool);
            var created = AssetInfos.CreateFolders(root, folder, tool);
            return new JObject { ["folder"] = AssetInfos.Describe(folder), ["created"] = new JArray(created) };
        }

        [TetherTool("move_asset", Title = "Move asset",
            Description = "Moves an asset or folder to a new path (its folder must exist), keeping its GUID, so references to it still hold. Never overwrites an asset; the extension stays. " + NotUndoable,
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(MovedAssetResult))]
        public static object MoveAsset(MoveAssetArgs args)
        {
            const string tool = "move_asset";
            var root = EditorServices.Require().ProjectRoot;
            var from = AssetPaths.Changeable(root, args.From, tool, "from");
            AssetInfos.Require(from, tool, "from");
            var to = AssetPaths.Changeable(root, args.To, tool, "to");
            AssetMoves.CheckMove(tool, "to", from, AssetDatabase.IsValidFolder(from), to, path => AssetInfos.IsTaken(root, path), AssetDatabase.IsValidFolder);
            Fail(tool, from, AssetDatabase.MoveAsset(from, to));
            return new JObject { ["asset"] = AssetInfos.Describe(to), ["previousPath"] = from };
        }

        [TetherTool("rename_asset", Title = "Rename asset",
            Description = "Renames an asset or folder in its folder, keeping its extension and GUID. Never overwrites an asset. " + NotUndoable,
            ReadOnly = false, Destructive = false, Idempotent = false, Output = typeof(MovedAssetResult))]
        public static object RenameAsset(RenameAssetArgs args)
        {
            const string tool = "rename_asset";
            var root = EditorServices.Require().ProjectRoot;
            var path = AssetPaths.Changeable(root, args.Path, tool);
            AssetInfos.Require(path, tool);
            var isFolder = AssetDatabase.IsValidFolder(path);
            var to = AssetMoves.Renamed(tool, path, isFolder, args.NewName);
            AssetMoves.CheckMove(tool, "newName", path, isFolder, to, p => AssetInfos.IsTaken(root, p), AssetDatabase.IsValidFolder);
            Fail(tool, path, AssetDatabase.RenameAsset(path, args.NewName));
            return new JObject { ["asset"] = AssetInfos.Describe(to), ["previousPath"] = path };
        }

        [TetherTool("delete_asset", Title = "Delete asset",
            Description = "Deletes an asset or folder (with everything in it) by moving it to the trash (AssetDatabase.MoveAssetToTrash; the sandbox's trash is Library/Trash/), from where it can be restored by hand. Where the platform has no trash the call fails unless allowPermanent is true. A loaded scene is refused. Not an undo step: undo does not bring it back.",
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(DeleteAssetResult))]
        public static object DeleteAsset(DeleteAssetArgs args)
        {
            const string tool = "delete_asset";
            var root = EditorServices.Require().ProjectRoot;
            var path = AssetPaths.Changeable(root, args.Path, tool);
            AssetInfos.Require(path, tool);
            AssetMoves.CheckDelete(tool, path, AssetInfos.LoadedScenes());
            var guid = AssetDatabase.AssetPathToGUID(path);
            if (AssetDatabase.MoveAssetToTrash(path)) return new JObject { ["deleted"] = path, ["guid"] = guid, ["trashed"] = true };
            if (!args.AllowPermanent)
            {
                throw new TetherException(ErrorCodes.ToolFailed, "Unity could not move \"" + path + "\" to the trash (this platform may have none, or a file is in use); nothing was deleted. Call again with allowPermanent true to delete it for good.", new JObject { ["tool"] = tool, ["path"] = path });
            }
            if (!AssetDatabase.DeleteAsset(path)) throw new TetherException(ErrorCodes.ToolFailed, "Unity could not delete \"" + path + "\" (the console may say why).", new JObject { ["tool"] = tool, ["path"] = path });
            return new JObject { ["deleted"] = path, ["guid"] = guid, ["trashed"] = false };
        }

        [TetherTool("refresh_assets", Title = "Refresh assets",
            Description = "Imports what changed on disk and forgets assets whose files are gone (AssetDatabase.Refresh), as the editor does when it regains focus. Scripts that changed are then compiled; compile_scripts waits for that and reports errors.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(RefreshAssetsResult))]
        public static object RefreshAssets()
        {
            // Unity's Refresh says nothing of what it imported or removed.
            AssetDatabase.Refresh();
            return new JObject();
        }

        [TetherTool("reimport_asset", Title = "Reimport asset",
            Description = "Imports one asset again (AssetDatabase.ImportAsset with ForceUpdate), or a folder with everything in it.",
            ReadOnly = false, Destructive = false, Idempotent = true, Output = typeof(AssetResult))]
        public static object ReimportAsset(ReimportAssetArgs args)
        {
            const string tool = "reimport_asset";
            var root = EditorServices.Require().ProjectRoot;
            var path = AssetPaths.Normalize(root, args.Path, tool);
            AssetInfos.Require(path, tool);
            var options = AssetDatabase.IsValidFolder(path) ? ImportAssetOptions.ForceUpdate | ImportAssetOptions.ImportRecursive : ImportAssetOptions.ForceUpdate;
            AssetDatabase.ImportAsset(path, options);
            return new JObject { ["asset"] = AssetInfos.Describe(path) };
        }

        /// <summary>TOOL_FAILED with the AssetDatabase's own error (MoveAsset and RenameAsset return one instead of throwing).</summary>
        private static void Fail(string tool, string path, string error)
        {
            if (string.IsNullOrEmpty(error)) return;
            throw new TetherException(ErrorCodes.ToolFailed, "Unity refused to move \"" + path + "\": " + error, new JObject { ["tool"] = tool, ["path"] = path, ["error"] = error });
        }
    }
}
