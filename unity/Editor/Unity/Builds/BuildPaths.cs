using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Assets;
using Tether.Unity.Paths;

namespace Tether.Unity.Builds
{
    /// <summary>
    /// Where build_player puts a player (the sandbox's build-player.ts): Builds/&lt;target&gt;/ or
    /// the folder given, inside the project unless the caller allows an outside one, never in a
    /// folder the editor owns; the file name each platform needs; the options it passes on.
    /// </summary>
    internal static class BuildPaths
    {
        /// <summary>The targets build_player offers (the sandbox's list), by BuildTarget name.</summary>
        public static readonly string[] Targets = { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" };

        /// <summary>The BuildOptions build_player passes on by name (Development has its own argument).</summary>
        public static readonly string[] Options = { "AllowDebugging", "ConnectWithProfiler", "StrictMode", "CleanBuildCache", "DetailedBuildReport", "CompressWithLz4", "CompressWithLz4HC" };

        /// <summary>Folders the editor owns: a player written there would be imported (Assets) or clobber its state.</summary>
        private static readonly string[] EditorFolders = { "Assets", "Library", "Packages", "ProjectSettings", "UserSettings", "Temp", "Logs" };

        /// <summary>
        /// The target to build: the one given, else the active build target when it is one of
        /// <see cref="Targets"/> (a build for the target Unity is set to needs no module it may lack,
        /// and compiles with that target's scripting symbols). INVALID_ARGUMENTS when none fits.
        /// </summary>
        public static string TargetOf(string given, string active)
        {
            if (given != null) return given;
            if (Array.IndexOf(Targets, active) >= 0) return active;
            var problem = "none given, and the active build target (" + active + ") is not one build_player builds";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for build_player: target: " + problem + ". Pass one of " + string.Join(", ", Targets) + ".",
                new JObject { ["tool"] = "build_player", ["field"] = "target", ["problem"] = problem });
        }

        /// <summary>TOOL_FAILED for a target this editor has no Build Support module for (BuildPipeline.IsBuildTargetSupported).</summary>
        public static TetherException NotInstalled(string target) =>
            new TetherException(
                ErrorCodes.ToolFailed,
                "Unity cannot build for " + target + ": this editor does not have its Build Support module. Add it in Unity Hub (Installs, the editor's menu, Add modules) and restart the editor, or build for another target (get_editor_state's buildTarget is the active one).",
                new JObject { ["tool"] = "build_player", ["target"] = target });

        /// <summary>The default folder of a target's builds, relative to the project: "Builds/StandaloneLinux64".</summary>
        public static string OutputFolder(string target) => "Builds/" + target;

        /// <summary>
        /// The folder the player goes to, as shown (project-relative, or absolute outside the
        /// project) and in full: PATH_OUTSIDE_PROJECT for one outside unless allowed, saying why;
        /// INVALID_ARGUMENTS for the project itself or a folder the editor owns.
        /// </summary>
        public static (string Shown, string Full) Output(string projectRoot, string target, string outputPath, bool allowOutsideProject)
        {
            var given = string.IsNullOrEmpty(outputPath) ? OutputFolder(target) : outputPath.Replace('\\', '/');
            string full;
            try
            {
                full = ProjectPaths.ResolveInside(projectRoot, given);
            }
            catch (TetherException outside) when (outside.Code == ErrorCodes.PathOutsideProject)
            {
                var absolute = Path.GetFullPath(Path.IsPathRooted(given) ? given : Path.Combine(projectRoot, given));
                if (allowOutsideProject) return (absolute, absolute);
                throw new TetherException(
                    ErrorCodes.PathOutsideProject,
                    "build_player would write the player to \"" + given + "\", outside the project " + projectRoot + ", replacing what is there. Build inside the project (by default " + OutputFolder(target) + "), or pass allowOutsideProject: true if you mean that folder.",
                    new JObject { ["path"] = given, ["projectPath"] = projectRoot, ["tool"] = "build_player", ["field"] = "outputPath" });
            }
            var root = Path.GetFullPath(projectRoot).TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar);
            var isRoot = full.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar).Length == root.Length;
            var shown = isRoot ? "" : ProjectPaths.Relative(projectRoot, full).TrimEnd('/');
            var top = shown.Split('/')[0];
            var owned = EditorFolders.FirstOrDefault(folder => string.Equals(folder, top, StringComparison.OrdinalIgnoreCase));
            if (isRoot || owned != null)
            {
                var problem = "\"" + given + "\" is " + (owned == null ? "the project folder itself" : "inside " + owned + "/, which the editor owns");
                throw AssetPaths.Refuse("build_player", "outputPath", problem, "Give a folder of its own, e.g. \"" + OutputFolder(target) + "\".");
            }
            return (shown, full.TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar));
        }

        /// <summary>
        /// BuildPlayerOptions.locationPathName in <paramref name="folder"/>: the executable for the
        /// desktop targets (.exe, .x86_64, .app), the .apk for Android, the folder itself for iOS
        /// (an Xcode project) and WebGL.
        /// </summary>
        public static string LocationIn(string folder, string target, string productName)
        {
            var name = SafeFileName(productName);
            switch (target)
            {
                case "StandaloneWindows64": return folder + "/" + name + ".exe";
                case "StandaloneLinux64": return folder + "/" + name + ".x86_64";
                case "StandaloneOSX": return folder + "/" + name + ".app";
                case "Android": return folder + "/" + name + ".apk";
                case "iOS":
                case "WebGL":
                    return folder;
                default:
                    throw new ArgumentException("build_player does not build for " + target + "; targets are " + string.Join(", ", Targets));
            }
        }

        /// <summary>The location in the default folder, relative to the project.</summary>
        public static string Location(string target, string productName) => LocationIn(OutputFolder(target), target, productName);

        /// <summary>The options' names as build_player reports them ("Development" first when asked), and their flags' names.</summary>
        public static List<string> OptionNames(bool development, IEnumerable<string> options) =>
            (development ? new[] { "Development" } : Array.Empty<string>()).Concat((options ?? Enumerable.Empty<string>()).Where(o => Options.Contains(o)).Distinct()).ToList();

        /// <summary>The product name as a file name on every OS ("Player" when nothing is left).</summary>
        public static string SafeFileName(string productName)
        {
            var invalid = Path.GetInvalidFileNameChars().Concat(new[] { '/', '\\', ':', '*', '?', '"', '<', '>', '|' }).ToArray();
            var chars = (productName ?? "").Select(c => invalid.Contains(c) || char.IsControl(c) ? '_' : c).ToArray();
            var name = new string(chars).Trim().Trim('.');
            return name.Length == 0 ? "Player" : name;
        }
    }
}
