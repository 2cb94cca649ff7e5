using System;
using System.IO;
using System.Linq;

namespace Tether.Unity.Builds
{
    /// <summary>Where build_player puts a player: Builds/&lt;target&gt;/, the file name each platform needs.</summary>
    internal static class BuildPaths
    {
        /// <summary>The targets build_player offers (the sandbox's list), by BuildTarget name.</summary>
        public static readonly string[] Targets = { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" };

        /// <summary>The folder of a target's builds, relative to the project: "Builds/StandaloneLinux64".</summary>
        public static string OutputFolder(string target) => "Builds/" + target;

        /// <summary>
        /// BuildPlayerOptions.locationPathName, relative to the project: the executable for the
        /// desktop targets (.exe, .x86_64, .app), the .apk for Android, the folder itself for iOS
        /// (an Xcode project) and WebGL.
        /// </summary>
        public static string Location(string target, string productName)
        {
            var folder = OutputFolder(target);
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
