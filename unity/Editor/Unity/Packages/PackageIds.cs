using System.Text.RegularExpressions;
using Tether.Unity.Assets;

namespace Tether.Unity.Packages
{
    /// <summary>What an add_package identifier is: a registry name (and version), a Git URL, or a local "file:" package.</summary>
    internal sealed class PackageSpec
    {
        public string Kind;
        public string Name;
        public string Version;
        public string Text;
    }

    /// <summary>
    /// What add_package and remove_package accept, read as Unity's Package Manager reads it (the
    /// sandbox's package-id.ts): a name in reverse-domain form ("com.unity.textmeshpro"), a name and
    /// a version ("com.unity.textmeshpro@3.0.6"), a Git URL ("https://github.com/owner/repo.git?path=/pkg#v1.2.0"),
    /// or a local package ("file:../MyPackage"). Anything else is refused saying what to give.
    /// </summary>
    internal static class PackageIds
    {
        /// <summary>Tether's own package: removing it would cut the agent off from the editor.</summary>
        public const string TetherPackage = "com.tether.host";

        private static readonly Regex Name = new Regex("^[a-z0-9][a-z0-9_-]*(\\.[a-z0-9][a-z0-9_-]*)+$");
        private static readonly Regex Semver = new Regex("^(0|[1-9]\\d*)\\.(0|[1-9]\\d*)\\.(0|[1-9]\\d*)(-[0-9A-Za-z.-]+)?(\\+[0-9A-Za-z.-]+)?$");
        private static readonly Regex Git = new Regex("^(git\\+)?(https?|ssh|git|file)://[^\\s]+$|^git@[^\\s:]+:[^\\s]+$");

        private const string Forms = "Give a package name (\"com.unity.textmeshpro\"), a name and version (\"com.unity.textmeshpro@3.0.6\"), a Git URL (\"https://github.com/owner/repo.git\") or a local path (\"file:../MyPackage\").";

        /// <summary>A package's name as Unity requires it: lowercase, reverse-domain ("com.company.tool"), at most 214 characters.</summary>
        public static bool IsName(string name) => name != null && name.Length <= 214 && Name.IsMatch(name);

        public static bool IsVersion(string version) => version != null && Semver.IsMatch(version);

        /// <summary>An add_package identifier, or INVALID_ARGUMENTS saying which forms there are.</summary>
        public static PackageSpec Parse(string identifier, string tool, string field = "identifier")
        {
            var text = (identifier ?? "").Trim();
            if (text.StartsWith("file:", System.StringComparison.Ordinal))
            {
                if (text.Length == "file:".Length) throw AssetPaths.Refuse(tool, field, "\"file:\" names no folder", "Give the package's folder or .tgz after it, e.g. \"file:../MyPackage\".");
                return new PackageSpec { Kind = "local", Text = text };
            }
            if (Git.IsMatch(text)) return new PackageSpec { Kind = "git", Text = text };
            var at = text.IndexOf('@');
            var name = at < 0 ? text : text.Substring(0, at);
            var version = at < 0 ? null : text.Substring(at + 1);
            if (!IsName(name))
            {
                var lower = name.ToLowerInvariant() != name && IsName(name.ToLowerInvariant()) ? " Package names are lowercase: \"" + name.ToLowerInvariant() + "\"." : "";
                throw AssetPaths.Refuse(tool, field, "\"" + identifier + "\" is not a package name, a Git URL or a local path", Forms + lower);
            }
            if (version != null && !IsVersion(version))
            {
                throw AssetPaths.Refuse(tool, field, "\"" + version + "\" is not a version", "Give a semantic version after the \"@\", e.g. \"" + name + "@1.2.3\", or the name alone for the newest one.");
            }
            return new PackageSpec { Kind = "registry", Name = name, Version = version, Text = text };
        }

        /// <summary>remove_package's name: INVALID_ARGUMENTS unless a package name, and never Tether's own.</summary>
        public static void CheckRemovable(string name, string tool)
        {
            if (!IsName(name)) throw AssetPaths.Refuse(tool, "name", "\"" + name + "\" is not a package name", "Give the name alone, lowercase and without a version, e.g. \"com.unity.timeline\" (list_packages shows them).");
            if (name == TetherPackage) throw AssetPaths.Refuse(tool, "name", name + " is Tether's own package", "Removing it would cut this agent off from the editor; remove it in the Package Manager window if you mean to.");
        }
    }
}
