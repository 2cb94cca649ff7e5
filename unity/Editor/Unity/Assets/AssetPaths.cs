using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Paths;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// Asset paths as the asset tools take them: project-relative, "/" on every OS, under Assets/
    /// (or Packages/, read only), as the AssetDatabase names them ("Assets/Art/Red.mat"). An
    /// absolute path inside the project is made relative, "\" becomes "/", a trailing "/" goes.
    /// The errors are the sandbox's (src/sandbox/assets/asset-paths.ts): PATH_OUTSIDE_PROJECT
    /// when the path leaves the project, INVALID_ARGUMENTS (data: tool, field, problem) otherwise.
    /// </summary>
    internal static class AssetPaths
    {
        /// <summary>The project-relative path <paramref name="input"/> names; Packages/ only when <paramref name="readOnly"/>.</summary>
        public static string Normalize(string projectRoot, string input, string tool, string field = "path", bool readOnly = false)
        {
            var full = ProjectPaths.ResolveInside(projectRoot, input.Replace('\\', '/'));
            var relative = ProjectPaths.Relative(projectRoot, full).TrimEnd('/');
            var top = relative.Split('/')[0];
            if (top == "Packages" && readOnly) return relative;
            if (top == "Packages") throw Refuse(tool, field, "\"" + input + "\" is in Packages/, which is read-only", "Packages are changed with the Package Manager; give a path under Assets/.");
            if (top != "Assets")
            {
                var file = NameWithExtension(relative);
                throw Refuse(tool, field, "\"" + input + "\" is not under Assets/", "Give a project-relative path such as \"Assets/" + (file.Length > 0 ? file : "Materials") + "\".");
            }
            return relative;
        }

        /// <summary>The path of an asset to move, rename or delete: under Assets/, and not Assets itself.</summary>
        public static string Changeable(string projectRoot, string input, string tool, string field = "path")
        {
            var path = Normalize(projectRoot, input, tool, field);
            if (path == "Assets") throw Refuse(tool, field, "the Assets folder itself cannot be moved, renamed or deleted", "Name something inside it, e.g. \"Assets/Materials\".");
            return path;
        }

        /// <summary>The path of a new asset of a kind with one extension (".mat", ".asset"), under Assets/.</summary>
        public static string NewAsset(string projectRoot, string input, string tool, string extension, string example)
        {
            var path = Normalize(projectRoot, input, tool);
            if (!string.Equals(ExtensionOf(path), extension, StringComparison.Ordinal))
            {
                var stem = path.Substring(0, path.Length - ExtensionOf(path).Length);
                throw Refuse(tool, "path", "\"" + input + "\" does not end in " + extension, "Give the file name with its extension, e.g. \"" + (stem == "Assets" ? example : stem + extension) + "\".");
            }
            if (NameOf(path).Length == 0) throw Refuse(tool, "path", "\"" + input + "\" has no file name", "Give one, e.g. \"" + example + "\".");
            return path;
        }

        /// <summary>An asset's name as Unity shows it: the file name without its extension.</summary>
        public static string NameOf(string path)
        {
            var file = NameWithExtension(path);
            var dot = file.LastIndexOf('.');
            return dot > 0 ? file.Substring(0, dot) : file;
        }

        /// <summary>".mat" for "Assets/Red.mat"; "" for a name without one.</summary>
        public static string ExtensionOf(string path)
        {
            var file = NameWithExtension(path);
            var dot = file.LastIndexOf('.');
            return dot > 0 ? file.Substring(dot) : "";
        }

        /// <summary>The folder an asset is in ("Assets" for a top-level one).</summary>
        public static string ParentOf(string path)
        {
            var slash = path.LastIndexOf('/');
            return slash < 0 ? "" : path.Substring(0, slash);
        }

        /// <summary>Whether <paramref name="path"/> is <paramref name="folder"/> or inside it.</summary>
        public static bool IsWithin(string path, string folder) =>
            path == folder || path.StartsWith(folder + "/", StringComparison.Ordinal);

        /// <summary>INVALID_ARGUMENTS for a path another asset already has (never overwritten).</summary>
        public static TetherException Taken(string tool, string field, string path, string hint)
        {
            var problem = "an asset already exists at \"" + path + "\"";
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". " + hint,
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem, ["path"] = path });
        }

        /// <summary>NOT_FOUND for an asset that does not exist, with the closest of <paramref name="known"/> (never the folders the path goes through).</summary>
        public static TetherException NotFound(string tool, string field, string path, IEnumerable<string> known)
        {
            var suggestions = ToolSuggestions.Closest(path, known.Where(candidate => !IsWithin(path, candidate)));
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            return new TetherException(
                ErrorCodes.NotFound,
                tool + ": no asset at \"" + path + "\" (" + field + ")." + hint + " find_assets lists the project's assets.",
                new JObject { ["tool"] = tool, ["field"] = field, ["path"] = path, ["suggestions"] = new JArray(suggestions) });
        }

        public static TetherException Refuse(string tool, string field, string problem, string hint) =>
            new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". " + hint,
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });

        private static string NameWithExtension(string path) => path.Substring(path.LastIndexOf('/') + 1);
    }
}
