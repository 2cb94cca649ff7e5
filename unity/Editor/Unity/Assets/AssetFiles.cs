using System;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Paths;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// Where an asset is on disk, and its size there. "Assets/..." is under the project root.
    /// "Packages/..." is a logical path: only an embedded package is in the project's Packages/
    /// folder; a registry or git package is in Library/PackageCache/&lt;name&gt;@&lt;version&gt;, a
    /// local one wherever its file: reference points (outside the project, possibly). Unity maps it
    /// (FileUtil.GetPhysicalPath, given here as <c>physical</c>, so this stays Unity-free).
    /// </summary>
    internal static class AssetFiles
    {
        /// <summary>The full path on disk of the asset at <paramref name="path"/>; <paramref name="physical"/> maps a Packages/ path (a relative answer is taken from the project root).</summary>
        public static string OnDisk(string projectRoot, string path, Func<string, string> physical)
        {
            if (!AssetPaths.IsWithin(path, "Packages")) return ProjectPaths.ResolveInside(projectRoot, path);
            var mapped = physical(path);
            if (string.IsNullOrEmpty(mapped)) mapped = path;
            return Path.GetFullPath(Path.IsPathRooted(mapped) ? mapped : Path.Combine(projectRoot, mapped));
        }

        /// <summary>
        /// Bytes on disk at <paramref name="full"/>: the file's, or (a folder) every file's in it but the
        /// .meta files and those Unity ignores. NOT_FOUND when nothing is there (the AssetDatabase
        /// still lists an asset deleted outside Unity until it refreshes).
        /// </summary>
        public static long Size(string full, bool isFolder, string tool, string path, string field = "path")
        {
            if (isFolder ? !Directory.Exists(full) : !File.Exists(full))
            {
                throw new TetherException(
                    ErrorCodes.NotFound,
                    tool + ": the AssetDatabase lists \"" + path + "\" (" + field + "), but there is no " + (isFolder ? "folder" : "file") + " at " + full + ". refresh_assets brings the AssetDatabase up to date with the disk.",
                    new JObject { ["tool"] = tool, ["field"] = field, ["path"] = path, ["physicalPath"] = full });
            }
            if (!isFolder) return new FileInfo(full).Length;
            return Directory.EnumerateFiles(full, "*", SearchOption.AllDirectories)
                .Where(file => !file.EndsWith(".meta", StringComparison.Ordinal) && !Ignored(file.Substring(full.Length)))
                .Sum(file => new FileInfo(file).Length);
        }

        private static bool Ignored(string relative) =>
            relative.Split(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar).Any(part => part.StartsWith(".", StringComparison.Ordinal) || part.EndsWith("~", StringComparison.Ordinal));
    }
}
