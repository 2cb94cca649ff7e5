using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Assets;
using Tether.Unity.Paths;

namespace Tether.Unity.Prefabs
{
    /// <summary>
    /// Prefab asset paths as the prefab tools take them: asset paths (AssetPaths: project-relative,
    /// under Assets/, or Packages/ to read) ending in ".prefab". The errors are the sandbox's
    /// (src/sandbox/prefabs/prefab-file.ts, src/sandbox/tools/prefab-tools.ts):
    /// PATH_OUTSIDE_PROJECT outside the project,
    /// INVALID_ARGUMENTS (data: tool, field, problem) for a path that cannot be a prefab's,
    /// NOT_FOUND (data: path, suggestions) for a prefab that is not there.
    /// </summary>
    internal static class PrefabPaths
    {
        public const string Extension = ".prefab";

        /// <summary>The project-relative path of an existing prefab to read (Assets/ or Packages/).</summary>
        public static string Existing(string projectRoot, string input, string tool, string field = "assetPath")
        {
            var path = AssetPaths.Normalize(projectRoot, input, tool, field, readOnly: true);
            if (!path.EndsWith(Extension, StringComparison.Ordinal))
            {
                throw AssetPaths.Refuse(tool, field, "\"" + input + "\" is not a prefab (" + Extension + ")", "Give a prefab asset's path, e.g. \"Assets/Prefabs/Enemy.prefab\".");
            }
            return path;
        }

        /// <summary>The project-relative path of a new prefab: under Assets/, a ".prefab" file name, not taken.</summary>
        public static string New(string projectRoot, string input, string tool, string field = "assetPath")
        {
            var path = AssetPaths.Normalize(projectRoot, input, tool, field);
            var file = path.Substring(path.LastIndexOf('/') + 1);
            if (!file.EndsWith(Extension, StringComparison.Ordinal) || file == Extension)
            {
                throw AssetPaths.Refuse(tool, field, "\"" + input + "\" is not a prefab file name (" + Extension + ")", "Give the file's path with its extension, e.g. \"Assets/Prefabs/Enemy.prefab\".");
            }
            if (File.Exists(ProjectPaths.ResolveInside(projectRoot, path)) || Directory.Exists(ProjectPaths.ResolveInside(projectRoot, path)))
            {
                throw AssetPaths.Taken(tool, field, path, "Choose another path; create_prefab never overwrites an asset (apply_prefab_overrides updates a prefab).");
            }
            return path;
        }

        /// <summary>NOT_FOUND for a prefab that is not there, with the closest of <paramref name="known"/>.</summary>
        public static TetherException NoPrefab(string tool, string path, IEnumerable<string> known)
        {
            var suggestions = ToolSuggestions.Closest(path, known);
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            return new TetherException(
                ErrorCodes.NotFound,
                tool + ": no prefab at \"" + path + "\"." + hint + " find_assets with \"t:Prefab\" lists the project's prefabs; create_prefab makes one.",
                new JObject { ["path"] = path, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
