using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Paths;
using UnityEditor;
using UnityEngine.SceneManagement;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// The AssetDatabase as the asset tools ask it: whether an asset exists, what it is, and its
    /// description ({ path, guid, name, type, isFolder }, with size, labels and direct
    /// dependencies for get_asset_info), the shape the sandbox gives (src/sandbox/assets/).
    /// </summary>
    internal static class AssetInfos
    {
        /// <summary>An asset the AssetDatabase knows (a folder too).</summary>
        public static bool IsAsset(string path) => AssetDatabase.IsValidFolder(path) || AssetDatabase.GetMainAssetTypeAtPath(path) != null;

        /// <summary>An asset, or a file or folder on disk not imported yet: either way a path taken.</summary>
        public static bool IsTaken(string projectRoot, string path)
        {
            var full = ProjectPaths.ResolveInside(projectRoot, path);
            return IsAsset(path) || File.Exists(full) || Directory.Exists(full);
        }

        /// <summary>The asset at <paramref name="path"/>; NOT_FOUND with the closest paths otherwise.</summary>
        public static void Require(string path, string tool, string field = "path")
        {
            if (!IsAsset(path)) throw AssetPaths.NotFound(tool, field, path, AllPaths());
        }

        /// <summary>The folder at <paramref name="path"/>; NOT_FOUND or INVALID_ARGUMENTS otherwise.</summary>
        public static void RequireFolder(string path, string tool, string field)
        {
            if (AssetDatabase.IsValidFolder(path)) return;
            Require(path, tool, field);
            throw AssetPaths.Refuse(tool, field, "\"" + path + "\" is a file, not a folder", "Give a folder, e.g. \"" + AssetPaths.ParentOf(path) + "\".");
        }

        /// <summary>{ path, guid, name, type, isFolder } (AssetSummary).</summary>
        public static JObject Describe(string path)
        {
            var isFolder = AssetDatabase.IsValidFolder(path);
            return new JObject
            {
                ["path"] = path,
                ["guid"] = AssetDatabase.AssetPathToGUID(path),
                // A folder's name is all of it ("Art.v2"); a file's has no extension.
                ["name"] = isFolder ? path.Substring(path.LastIndexOf('/') + 1) : AssetPaths.NameOf(path),
                ["type"] = AssetDatabase.GetMainAssetTypeAtPath(path)?.Name ?? "DefaultAsset",
                ["isFolder"] = isFolder,
            };
        }

        /// <summary>Describe, with size, labels and direct dependencies (AssetDetails); NOT_FOUND when the asset is not on disk.</summary>
        public static JObject Details(string projectRoot, string path, string tool = "get_asset_info")
        {
            var described = Describe(path);
            var isFolder = (bool)described["isFolder"];
            // A package's files are where Unity maps "Packages/<name>" (Library/PackageCache/<name>@<version> for most).
            var full = AssetFiles.OnDisk(projectRoot, path, FileUtil.GetPhysicalPath);
            described["size"] = AssetFiles.Size(full, isFolder, tool, path);
            var main = AssetDatabase.LoadMainAssetAtPath(path);
            described["labels"] = new JArray(main != null ? AssetDatabase.GetLabels(main) : Array.Empty<string>());
            described["dependencies"] = new JArray(isFolder ? Array.Empty<string>() : AssetDatabase.GetDependencies(path, false).Where(p => p != path).ToArray());
            return described;
        }

        /// <summary>Every asset path under Assets/ (for "did you mean"; only asked when something was not found).</summary>
        public static IEnumerable<string> AllPaths() =>
            AssetDatabase.FindAssets("", new[] { "Assets" }).Select(AssetDatabase.GUIDToAssetPath).Distinct();

        /// <summary>The loaded scenes' paths.</summary>
        public static IEnumerable<string> LoadedScenes()
        {
            for (var i = 0; i < SceneManager.sceneCount; i++) yield return SceneManager.GetSceneAt(i).path;
        }

        /// <summary>Creates the missing folders of <paramref name="folder"/> (AssetDatabase.CreateFolder); returns them, outermost first.</summary>
        public static List<string> CreateFolders(string projectRoot, string folder, string tool)
        {
            var missing = AssetMoves.FoldersToCreate(tool, folder, path => IsTaken(projectRoot, path), AssetDatabase.IsValidFolder);
            foreach (var path in missing)
            {
                var guid = AssetDatabase.CreateFolder(AssetPaths.ParentOf(path), path.Substring(path.LastIndexOf('/') + 1));
                if (string.IsNullOrEmpty(guid)) throw new TetherException(ErrorCodes.ToolFailed, "Unity could not create the folder \"" + path + "\" (the console may say why).", new JObject { ["tool"] = tool, ["path"] = path });
            }
            return missing;
        }
    }
}
