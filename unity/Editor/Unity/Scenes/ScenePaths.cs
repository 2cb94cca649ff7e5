using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Paths;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// Scene asset paths as the scene tools take them: project-relative, under Assets/, ending in
    /// ".unity" ("Assets/Scenes/Level1.unity"); an absolute path inside the project is made
    /// relative, "\" becomes "/". The errors are the sandbox's (src/sandbox/scene-paths.ts):
    /// PATH_OUTSIDE_PROJECT when the path leaves the project, INVALID_ARGUMENTS (data: tool,
    /// field, problem) when it is not a scene file under Assets/.
    /// </summary>
    internal static class ScenePaths
    {
        public const string Extension = ".unity";

        public static string Normalize(string projectRoot, string input, string tool, string field = "path")
        {
            var full = ProjectPaths.ResolveInside(projectRoot, input.Replace('\\', '/'));
            var relative = ProjectPaths.Relative(projectRoot, full);
            if (!relative.StartsWith("Assets/", StringComparison.Ordinal))
            {
                throw Refuse(tool, field, "\"" + input + "\" is not under Assets/", "Scenes live under Assets/, e.g. \"Assets/Scenes/Level1.unity\".");
            }
            if (!relative.EndsWith(Extension, StringComparison.Ordinal))
            {
                var dot = relative.LastIndexOf('.');
                var stem = dot > relative.LastIndexOf('/') ? relative.Substring(0, dot) : relative;
                throw Refuse(tool, field, "\"" + input + "\" is not a scene file (.unity)", "Give the scene's path with its extension, e.g. \"" + stem + Extension + "\".");
            }
            if (NameOf(relative).Length == 0) throw Refuse(tool, field, "\"" + input + "\" has no file name", "Give the scene a name, e.g. \"Assets/Scenes/Level1.unity\".");
            return relative;
        }

        /// <summary>A scene's name: its file name without the extension, as Unity names it.</summary>
        public static string NameOf(string path)
        {
            var file = path.Substring(path.LastIndexOf('/') + 1);
            return file.EndsWith(Extension, StringComparison.Ordinal) ? file.Substring(0, file.Length - Extension.Length) : file;
        }

        /// <summary>NOT_FOUND for a scene asset that does not exist, with the closest of <paramref name="known"/>.</summary>
        public static TetherException NoScene(string tool, string path, IEnumerable<string> known)
        {
            var suggestions = Tether.Core.Tools.ToolSuggestions.Closest(path, known);
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            return new TetherException(
                ErrorCodes.NotFound,
                tool + ": no scene at \"" + path + "\"." + hint + " list_scenes shows the project's scenes; create_scene makes a new one.",
                new JObject { ["path"] = path, ["suggestions"] = new JArray(suggestions) });
        }

        /// <summary>INVALID_ARGUMENTS for a path another scene already has.</summary>
        public static TetherException Taken(string tool, string field, string path, string hint) =>
            Refuse(tool, field, "a scene already exists at \"" + path + "\"", hint);

        /// <summary>The scenes that closing <paramref name="closing"/> would lose changes of, or the refusal when the caller said "refuse".</summary>
        public static IReadOnlyList<string> UnsavedToHandle(string tool, string unsavedChanges, IEnumerable<(string Path, string Name, bool IsDirty)> closing)
        {
            var dirty = closing.Where(scene => scene.IsDirty).Select(Shown).ToList();
            if (dirty.Count == 0 || unsavedChanges != "refuse") return dirty;
            throw UnsavedRefused(tool, dirty, " would be lost. Save them first (save_scene), or call again with unsavedChanges \"save\" or \"discard\".");
        }

        /// <summary>INVALID_ARGUMENTS naming the scenes with unsaved changes a tool will not go past; <paramref name="rest"/> says why and what to do.</summary>
        public static TetherException UnsavedRefused(string tool, IReadOnlyList<string> scenes, string rest)
        {
            var problem = "unsaved changes in " + string.Join(", ", scenes.Select(s => "\"" + s + "\""));
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": unsavedChanges: " + problem + rest,
                new JObject { ["tool"] = tool, ["field"] = "unsavedChanges", ["problem"] = problem, ["scenes"] = new JArray(scenes) });
        }

        /// <summary>A scene as the hierarchy shows it: its path, or for one never saved its name ("Untitled" when it has none).</summary>
        public static string Shown((string Path, string Name, bool IsDirty) scene) =>
            scene.Path.Length > 0 ? scene.Path : scene.Name.Length > 0 ? scene.Name : "Untitled";

        /// <summary>The folder a new scene's file goes in, created if missing (Unity saves only into existing folders).</summary>
        public static void EnsureFolder(string projectRoot, string relativePath)
        {
            var full = ProjectPaths.ResolveInside(projectRoot, relativePath);
            var folder = Path.GetDirectoryName(full);
            if (!string.IsNullOrEmpty(folder)) Directory.CreateDirectory(folder);
        }

        private static TetherException Refuse(string tool, string field, string problem, string hint) =>
            new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". " + hint,
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem });
    }
}
