using System;
using System.Collections.Generic;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// What the asset tools check before a move, a rename, a delete or a new folder, so that
    /// AssetDatabase is only called when it will succeed and every refusal says why, as the
    /// sandbox says it (src/sandbox/assets/asset-moves.ts, asset-database.ts). The questions
    /// about the project (what exists, what is a folder) are asked through delegates.
    /// </summary>
    internal static class AssetMoves
    {
        /// <summary>Refuses a move of <paramref name="from"/> to <paramref name="to"/> that MoveAsset would refuse or that would overwrite.</summary>
        public static void CheckMove(string tool, string field, string from, bool fromIsFolder, string to, Func<string, bool> exists, Func<string, bool> isFolder)
        {
            if (to == from) throw AssetPaths.Refuse(tool, field, "\"" + to + "\" is where the asset already is", "Give another path.");
            if (exists(to)) throw AssetPaths.Taken(tool, field, to, "Move or delete that asset first, or choose another path; an asset is never overwritten.");
            if (fromIsFolder && AssetPaths.IsWithin(to, from)) throw AssetPaths.Refuse(tool, field, "\"" + to + "\" is inside \"" + from + "\"", "A folder cannot be moved into itself.");
            var extension = AssetPaths.ExtensionOf(from);
            if (!fromIsFolder && !string.Equals(AssetPaths.ExtensionOf(to), extension, StringComparison.OrdinalIgnoreCase))
            {
                throw AssetPaths.Refuse(tool, field, "\"" + to + "\" changes the extension of \"" + from + "\"", "Keep \"" + extension + "\": the extension decides how the asset is imported.");
            }
            var parent = AssetPaths.ParentOf(to);
            if (!isFolder(parent)) throw AssetPaths.Refuse(tool, field, "the folder \"" + parent + "\" does not exist", "Create it first with create_folder.");
        }

        /// <summary>The path rename_asset gives <paramref name="path"/>: its folder, <paramref name="newName"/> and its extension.</summary>
        public static string Renamed(string tool, string path, bool isFolder, string newName)
        {
            var extension = isFolder ? "" : AssetPaths.ExtensionOf(path);
            if (extension.Length > 0 && newName.EndsWith(extension, StringComparison.OrdinalIgnoreCase))
            {
                var problem = "\"" + newName + "\" ends with the extension \"" + extension + "\"";
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": newName: " + problem + ". Give the name alone, e.g. \"" + newName.Substring(0, newName.Length - extension.Length) + "\"; the extension stays.",
                    new JObject { ["tool"] = tool, ["field"] = "newName", ["problem"] = problem });
            }
            return AssetPaths.ParentOf(path) + "/" + newName + extension;
        }

        /// <summary>The folders to create for <paramref name="path"/>, outermost first; refuses a path through a file.</summary>
        public static List<string> FoldersToCreate(string tool, string path, Func<string, bool> exists, Func<string, bool> isFolder)
        {
            var missing = new List<string>();
            var parts = path.Split('/');
            for (var i = 2; i <= parts.Length; i++)
            {
                var folder = string.Join("/", parts, 0, i);
                if (isFolder(folder)) continue;
                if (exists(folder)) throw AssetPaths.Refuse(tool, "path", "\"" + folder + "\" is a file, not a folder", "Choose another path.");
                missing.Add(folder);
            }
            return missing;
        }

        /// <summary>Refuses to delete loaded scenes (the asset itself or inside the folder).</summary>
        public static void CheckDelete(string tool, string path, IEnumerable<string> loadedScenes)
        {
            var loaded = new List<string>();
            foreach (var scene in loadedScenes) if (AssetPaths.IsWithin(scene, path)) loaded.Add("\"" + scene + "\"");
            if (loaded.Count == 0) return;
            throw AssetPaths.Refuse(tool, "path", string.Join(", ", loaded) + (loaded.Count == 1 ? " is" : " are") + " loaded", "Open another scene first (open_scene), then delete it.");
        }

        /// <summary>Refuses a FindAssets filter with an empty "t:" or "l:" (Unity would silently find nothing, or everything).</summary>
        public static void CheckFilter(string tool, string filter)
        {
            foreach (var word in (filter ?? "").Split(new[] { ' ', '\t', '\n', '\r' }, StringSplitOptions.RemoveEmptyEntries))
            {
                if (word.Length != 2 || word[1] != ':') continue;
                var kind = char.ToLowerInvariant(word[0]);
                if (kind != 't' && kind != 'l') continue;
                var problem = "\"" + word + "\" names no " + (kind == 't' ? "type" : "label");
                throw new TetherException(
                    ErrorCodes.InvalidArguments,
                    "Invalid arguments for " + tool + ": filter: " + problem + ". Write \"t:Material\" or \"l:Environment\", without a space after the colon.",
                    new JObject { ["tool"] = tool, ["field"] = "filter", ["problem"] = problem });
            }
        }
    }
}
