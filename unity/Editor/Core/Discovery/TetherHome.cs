using System;
using System.IO;
using System.Runtime.InteropServices;

namespace Tether.Core.Discovery
{
    /// <summary>
    /// Where Tether keeps its per-user state: host records, logs, tokens, caches
    /// (src/discovery/tether-home.ts, protocol.md §12). Every Tether process of a user must
    /// agree on it, so the rules are exactly the TypeScript ones.
    /// </summary>
    public static class TetherHome
    {
        /// <summary>$TETHER_HOME, or this platform's per-user state directory.</summary>
        public static string Resolve() =>
            Resolve(CurrentPlatform(), Environment.GetEnvironmentVariable, Environment.GetFolderPath(Environment.SpecialFolder.UserProfile));

        /// <summary>
        /// $TETHER_HOME when set and not empty; else on "darwin" ~/Library/Application Support/tether,
        /// on "win32" %LOCALAPPDATA%\tether (fallback ~\AppData\Local\tether), elsewhere
        /// $XDG_STATE_HOME/tether (fallback ~/.local/state/tether). Nothing depends on the working
        /// directory (Unity's is the project, a terminal's anything): a leading "~" in TETHER_HOME is
        /// the user's home, a TETHER_HOME still relative is taken from the home directory, and
        /// LOCALAPPDATA and XDG_STATE_HOME count only when absolute. Paths are joined with the
        /// separator of <paramref name="platform"/> (Node's path.join there), so any platform's
        /// answer can be computed, and tested, on any other.
        /// </summary>
        /// <param name="platform">Node's process.platform: "darwin", "win32", "linux", …</param>
        /// <param name="env">Reads an environment variable (null when unset).</param>
        /// <param name="userHome">The user's home directory (os.homedir()).</param>
        public static string Resolve(string platform, Func<string, string> env, string userHome)
        {
            if (env == null) throw new ArgumentNullException(nameof(env));
            var windows = platform == "win32";
            var tetherHome = env("TETHER_HOME");
            if (!string.IsNullOrEmpty(tetherHome))
            {
                var tilde = tetherHome == "~" || tetherHome.StartsWith("~/", StringComparison.Ordinal) || (windows && tetherHome.StartsWith("~\\", StringComparison.Ordinal));
                var expanded = tilde ? Join(windows, userHome, tetherHome.Substring(1)) : tetherHome;
                return IsAbsolute(windows, expanded) ? expanded : Join(windows, userHome, expanded);
            }
            switch (platform)
            {
                case "darwin":
                    return Join(windows, userHome, "Library", "Application Support", "tether");
                case "win32":
                    return Join(windows, Absolute(windows, env("LOCALAPPDATA")) ?? Join(windows, userHome, "AppData", "Local"), "tether");
                default:
                    return Join(windows, Absolute(windows, env("XDG_STATE_HOME")) ?? Join(windows, userHome, ".local", "state"), "tether");
            }
        }

        /// <summary>The value when it is an absolute path, else null (unset, empty or relative: ignored).</summary>
        private static string Absolute(bool windows, string value) => !string.IsNullOrEmpty(value) && IsAbsolute(windows, value) ? value : null;

        /// <summary>Node's path.isAbsolute: posix "/…"; win32 "/…", "\…" or a drive letter with its root ("C:\…", "C:/…").</summary>
        private static bool IsAbsolute(bool windows, string path)
        {
            if (path.Length == 0) return false;
            if (!windows) return path[0] == '/';
            if (path[0] == '/' || path[0] == '\\') return true;
            var drive = char.ToLowerInvariant(path[0]);
            return path.Length >= 3 && drive >= 'a' && drive <= 'z' && path[1] == ':' && (path[2] == '/' || path[2] == '\\');
        }

        /// <summary>The host records' directory: &lt;home&gt;/hosts (home: Resolve() when null).</summary>
        public static string HostsDir(string home = null) => Path.Combine(home ?? Resolve(), "hosts");

        /// <summary>This process's platform, named as Node names it.</summary>
        public static string CurrentPlatform()
        {
            if (RuntimeInformation.IsOSPlatform(OSPlatform.Windows)) return "win32";
            if (RuntimeInformation.IsOSPlatform(OSPlatform.OSX)) return "darwin";
            return "linux";
        }

        /// <summary>
        /// Joins like Node's path.join for the paths Tether builds: empty parts are skipped and one
        /// separator goes between parts (a part's own trailing separators are dropped; a part that
        /// is only a root, "/" or "C:\", keeps its separator). win32 takes '/' and '\' alike.
        /// </summary>
        private static string Join(bool windows, params string[] parts)
        {
            var separator = windows ? '\\' : '/';
            var joined = "";
            foreach (var part in parts)
            {
                if (string.IsNullOrEmpty(part)) continue;
                var piece = windows ? part.Replace('/', '\\') : part;
                if (joined.Length == 0)
                {
                    joined = piece;
                    continue;
                }
                joined = joined.TrimEnd(separator) + separator + piece.TrimStart(separator);
            }
            return joined.Length == 0 ? "." : joined;
        }
    }
}
