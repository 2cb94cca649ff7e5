using System;
using System.IO;
using System.Runtime.InteropServices;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Unity.Paths
{
    /// <summary>
    /// Files the tools write (a build's output, test results) stay inside the project: a path
    /// is resolved against the project root and refused with PATH_OUTSIDE_PROJECT (data: path,
    /// projectPath) when it escapes it (port of Project.resolveInside in src/sandbox/project.ts).
    /// </summary>
    internal static class ProjectPaths
    {
        /// <summary>macOS and Windows file systems ignore case by default: "/Proj" and "/proj" are one folder there.</summary>
        private static StringComparison Comparison =>
            RuntimeInformation.IsOSPlatform(OSPlatform.Linux) ? StringComparison.Ordinal : StringComparison.OrdinalIgnoreCase;

        /// <summary>The full path of <paramref name="path"/> (relative to the project, or absolute) when it is inside the project.</summary>
        public static string ResolveInside(string projectRoot, string path)
        {
            if (string.IsNullOrEmpty(projectRoot)) throw new ArgumentNullException(nameof(projectRoot));
            if (path == null) throw new ArgumentNullException(nameof(path));
            var root = Path.GetFullPath(projectRoot).TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar);
            var full = Path.GetFullPath(Path.IsPathRooted(path) ? path : Path.Combine(root, path));
            var inside = string.Equals(full, root, Comparison) || full.StartsWith(root + Path.DirectorySeparatorChar, Comparison);
            if (!inside)
            {
                throw new TetherException(
                    ErrorCodes.PathOutsideProject,
                    "Path \"" + path + "\" is outside the project " + root + ". Use a path inside the project.",
                    new JObject { ["path"] = path, ["projectPath"] = root });
            }
            return full;
        }

        /// <summary>The path relative to the project root, with "/" on every OS (as results show paths).</summary>
        public static string Relative(string projectRoot, string fullPath)
        {
            var root = Path.GetFullPath(projectRoot).TrimEnd(Path.DirectorySeparatorChar, Path.AltDirectorySeparatorChar) + Path.DirectorySeparatorChar;
            var full = Path.GetFullPath(fullPath);
            var relative = full.StartsWith(root, Comparison) ? full.Substring(root.Length) : full;
            return relative.Replace(Path.DirectorySeparatorChar, '/');
        }
    }
}
