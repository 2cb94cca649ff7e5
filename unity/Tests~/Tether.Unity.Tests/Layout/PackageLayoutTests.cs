using System;
using System.Collections.Generic;
using System.IO;
using System.Linq;
using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Unity.Tests.Support;

namespace Tether.Unity.Tests.Layout
{
    /// <summary>
    /// The package as Unity imports it from git or a tarball (immutable: Unity cannot write
    /// metas into it): a .meta with a fixed, unique GUID beside every file and folder, Editor-only
    /// assemblies, Core free of UnityEngine, and a valid UPM manifest. Run
    /// `node unity/Tests~/make-metas.mjs` after adding files.
    /// </summary>
    [TestFixture]
    public class PackageLayoutTests
    {
        private static readonly Regex GuidLine = new Regex(@"^guid: (\S+)\s*$", RegexOptions.Multiline);
        private static readonly Regex Hex32 = new Regex("^[0-9a-f]{32}$");

        /// <summary>Names Unity does not import: hidden ones, and those ending in "~" (Tests~).</summary>
        private static bool Ignored(string name) => name.StartsWith(".", StringComparison.Ordinal) || name.EndsWith("~", StringComparison.Ordinal);

        private static IEnumerable<string> Assets(string dir)
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(dir).OrderBy(e => e, StringComparer.Ordinal))
            {
                var name = Path.GetFileName(entry);
                if (Ignored(name) || name.EndsWith(".meta", StringComparison.Ordinal)) continue;
                yield return entry;
                if (Directory.Exists(entry)) foreach (var inner in Assets(entry)) yield return inner;
            }
        }

        private static IEnumerable<string> Metas(string dir)
        {
            foreach (var entry in Directory.EnumerateFileSystemEntries(dir).OrderBy(e => e, StringComparer.Ordinal))
            {
                var name = Path.GetFileName(entry);
                if (Ignored(name)) continue;
                if (name.EndsWith(".meta", StringComparison.Ordinal)) yield return entry;
                else if (Directory.Exists(entry)) foreach (var inner in Metas(entry)) yield return inner;
            }
        }

        private static string Rel(string path) => Path.GetRelativePath(RepoPaths.Package, path).Replace('\\', '/');

        [Test]
        public void EveryFileAndFolderHasAMeta()
        {
            var missing = Assets(RepoPaths.Package).Where(asset => !File.Exists(asset + ".meta")).Select(Rel).ToList();
            Assert.That(missing, Is.Empty, "without a .meta, Unity ignores the asset in an immutable package. Run: node unity/Tests~/make-metas.mjs");
        }

        [Test]
        public void EveryMetaHasItsAsset()
        {
            var orphans = Metas(RepoPaths.Package).Where(meta =>
            {
                var asset = meta.Substring(0, meta.Length - ".meta".Length);
                return !File.Exists(asset) && !Directory.Exists(asset);
            }).Select(Rel).ToList();
            Assert.That(orphans, Is.Empty, "a .meta whose asset is gone: delete it");
        }

        [Test]
        public void GuidsAre32HexDigitsAndUnique()
        {
            var seen = new Dictionary<string, string>();
            var problems = new List<string>();
            foreach (var meta in Metas(RepoPaths.Package))
            {
                var text = File.ReadAllText(meta);
                if (!text.StartsWith("fileFormatVersion: 2", StringComparison.Ordinal)) problems.Add(Rel(meta) + ": does not start with fileFormatVersion: 2");
                var match = GuidLine.Match(text);
                if (!match.Success)
                {
                    problems.Add(Rel(meta) + ": no guid line");
                    continue;
                }
                var guid = match.Groups[1].Value;
                if (!Hex32.IsMatch(guid)) problems.Add(Rel(meta) + ": guid " + guid + " is not 32 lowercase hex digits");
                if (seen.TryGetValue(guid, out var other)) problems.Add(Rel(meta) + ": guid " + guid + " repeats " + other);
                else seen[guid] = Rel(meta);
                var isFolder = Directory.Exists(meta.Substring(0, meta.Length - ".meta".Length));
                if (isFolder != text.Contains("folderAsset: yes")) problems.Add(Rel(meta) + (isFolder ? ": a folder's meta needs folderAsset: yes" : ": a file's meta says folderAsset"));
            }
            Assert.That(problems, Is.Empty);
        }

        [Test]
        public void AssembliesAreEditorOnly()
        {
            var asmdefs = Directory.EnumerateFiles(RepoPaths.Package, "*.asmdef", SearchOption.AllDirectories)
                .Where(path => !Rel(path).Split('/').Any(Ignored)).ToList();
            Assert.That(asmdefs.Select(p => Path.GetFileName(p)), Is.SupersetOf(new[] { "Tether.Core.asmdef", "Tether.Unity.asmdef" }));
            foreach (var path in asmdefs)
            {
                var asmdef = JObject.Parse(File.ReadAllText(path));
                Assert.That(asmdef["includePlatforms"]?.ToObject<string[]>(), Is.EqualTo(new[] { "Editor" }), Rel(path) + " includePlatforms");
                Assert.That(asmdef["excludePlatforms"]?.ToObject<string[]>() ?? new string[0], Is.Empty, Rel(path) + " excludePlatforms");
            }
        }

        [Test]
        public void CoreReferencesNothingButNewtonsoftAndNoEngine()
        {
            var core = JObject.Parse(File.ReadAllText(Path.Combine(RepoPaths.Package, "Editor", "Core", "Tether.Core.asmdef")));
            Assert.That((string)core["name"], Is.EqualTo("Tether.Core"));
            Assert.That((bool?)core["noEngineReferences"], Is.True, "Core must not see UnityEngine");
            Assert.That(core["references"]?.ToObject<string[]>() ?? new string[0], Is.Empty, "Core references no other assembly definition");
            Assert.That((bool?)core["overrideReferences"], Is.True, "without overrideReferences Core would see every precompiled DLL of the project");
            Assert.That(core["precompiledReferences"]?.ToObject<string[]>(), Is.EqualTo(new[] { "Newtonsoft.Json.dll" }));
        }

        [Test]
        public void TheManifestIsAValidUpmPackageAtTheRepositorysVersion()
        {
            var manifest = JObject.Parse(File.ReadAllText(Path.Combine(RepoPaths.Package, "package.json")));
            var npm = JObject.Parse(File.ReadAllText(Path.Combine(RepoPaths.Repository, "package.json")));
            Assert.That((string)manifest["name"], Is.EqualTo("com.tether.host"));
            Assert.That((string)manifest["version"], Does.Match(@"^\d+\.\d+\.\d+(-[0-9A-Za-z.-]+)?$"), "UPM versions are semver");
            Assert.That((string)manifest["version"], Is.EqualTo((string)npm["version"]), "the package ships with the npm package of the same version");
            Assert.That((string)manifest["unity"], Is.EqualTo("2021.3"));
            Assert.That((string)manifest["displayName"], Is.Not.Null.And.Not.Empty);
            Assert.That(manifest["dependencies"]?["com.unity.nuget.newtonsoft-json"], Is.Not.Null, "Newtonsoft.Json.dll comes from Unity's package");
        }
    }
}
