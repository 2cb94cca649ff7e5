using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Packages;
using UnityEditor.PackageManager;

namespace Tether.Unity.Tools
{
    public sealed class ListPackagesArgs
    {
        [ToolArg("Also list the packages the project's packages depend on.")]
        public bool IncludeIndirect = false;
    }

    public sealed class AddPackageArgs
    {
        [ToolArg("\"com.unity.inputsystem\", \"com.unity.inputsystem@1.7.0\", \"https://github.com/owner/repo.git?path=/pkg#v1.0.0\" or \"file:../MyPackage\".", Required = true)]
        public string Identifier;
    }

    public sealed class RemovePackageArgs
    {
        [ToolArg("The package's name, e.g. \"com.unity.timeline\".", Required = true)]
        public string Name;
    }

    /// <summary>A package as the package tools describe it (the sandbox's packageInfo).</summary>
    public sealed class PackageResult
    {
        [ToolArg(Required = true)]
        public string Name;

        [ToolArg(Required = true)]
        public string Version;

        [ToolArg(Required = true)]
        public string DisplayName;

        [ToolArg(Enum = new[] { "Registry", "BuiltIn", "Embedded", "Local", "LocalTarball", "Git", "Unknown" }, Required = true)]
        public string Source;

        [ToolArg("What the manifest resolves, e.g. \"com.unity.textmeshpro@3.0.6\".", Required = true)]
        public string PackageId;

        [ToolArg("Listed in Packages/manifest.json (else a dependency of one that is).")]
        public bool IsDirectDependency;

        internal static PackageResult From(PackageInfo info) => new PackageResult
        {
            Name = info.name,
            Version = info.version,
            DisplayName = string.IsNullOrEmpty(info.displayName) ? info.name : info.displayName,
            Source = info.source.ToString(),
            PackageId = info.packageId,
            IsDirectDependency = info.isDirectDependency,
        };
    }

    public sealed class ListPackagesResult
    {
        public int Count;

        [ToolArg(Required = true)]
        public List<PackageResult> Packages;
    }

    public sealed class AddPackageResult
    {
        [ToolArg(Required = true)]
        public PackageResult Package;

        [ToolArg("False when the project had it already, as asked.")]
        public bool Changed;

        [ToolArg("What the manifest said before (another version or source).")]
        public string Previous;

        [ToolArg("The editor resolves the packages and reloads its code domain after this answer.")]
        public bool DomainReload;
    }

    public sealed class RemovePackageResult
    {
        [ToolArg(Required = true)]
        public string Removed;

        [ToolArg("What the manifest said (version, Git URL or path).")]
        public string Previous;

        [ToolArg("The editor resolves the packages and reloads its code domain after this answer.")]
        public bool DomainReload;

        public string Note;
    }

    /// <summary>
    /// list_packages, add_package, remove_package: the Package Manager's Client.List, Add and
    /// Remove, each waited for on the editor's ticks (PackageRequests). After a change Unity
    /// resolves the packages, recompiles and reloads the domain. Tether's own package is never removed.
    /// </summary>
    public static class PackageTools
    {
        [TetherTool("list_packages", Title = "List packages",
            Description = "Lists the project's packages (Package Manager): those in Packages/manifest.json, and with includeIndirect also what they depend on, each with its version and source.",
            ReadOnly = true, Idempotent = true, Output = typeof(ListPackagesResult))]
        public static Task<object> ListPackages(ListPackagesArgs args, IToolContext context) =>
            // Offline: what the project has is in the local cache; asking the registry for news would only slow the answer.
            PackageRequests.Await("list_packages", context, EditorServices.Require(), "listing packages", changes: false, () => Client.List(true, args.IncludeIndirect), request =>
            {
                var packages = request.Result
                    .Select(PackageResult.From)
                    .OrderByDescending(p => p.IsDirectDependency)
                    .ThenBy(p => p.Name, System.StringComparer.Ordinal)
                    .ToList();
                return new ListPackagesResult { Count = packages.Count, Packages = packages };
            });

        [TetherTool("add_package", Title = "Add package",
            Description = "Adds a package to the project, or changes its version (Package Manager Client.Add): a name (\"com.unity.inputsystem\", the newest version), a name and version (\"com.unity.inputsystem@1.7.0\"), a Git URL or a local \"file:\" path. Waits for the Package Manager; the editor then recompiles and reloads its code domain.",
            ReadOnly = false, Destructive = false, Idempotent = true, OpenWorld = true, LongRunning = true, Output = typeof(AddPackageResult))]
        public static Task<object> AddPackage(AddPackageArgs args, IToolContext context)
        {
            const string tool = "add_package";
            var spec = PackageIds.Parse(args.Identifier, tool);
            var services = EditorServices.Require();
            var before = ManifestFile.Dependencies(services.ProjectRoot);
            return PackageRequests.Await(tool, context, services, "adding " + spec.Text, changes: true, () => Client.Add(spec.Text), request =>
            {
                var added = request.Result;
                before.TryGetValue(added.name, out var previous);
                ManifestFile.Dependencies(services.ProjectRoot).TryGetValue(added.name, out var now);
                var changed = previous != now;
                return new AddPackageResult { Package = PackageResult.From(added), Changed = changed, Previous = changed ? previous : null, DomainReload = changed };
            });
        }

        [TetherTool("remove_package", Title = "Remove package",
            Description = "Removes a package the project lists in Packages/manifest.json (Package Manager Client.Remove), by name. Waits for the Package Manager; the editor then recompiles and reloads its code domain. Refuses Tether's own package (com.tether.host).",
            ReadOnly = false, Destructive = true, Idempotent = true, LongRunning = true, Output = typeof(RemovePackageResult))]
        public static Task<object> RemovePackage(RemovePackageArgs args, IToolContext context)
        {
            const string tool = "remove_package";
            PackageIds.CheckRemovable(args.Name, tool);
            var services = EditorServices.Require();
            var dependencies = ManifestFile.Dependencies(services.ProjectRoot);
            if (!dependencies.TryGetValue(args.Name, out var previous))
            {
                var suggestions = ToolSuggestions.Closest(args.Name, dependencies.Keys);
                var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
                throw new TetherException(
                    ErrorCodes.NotFound,
                    tool + ": the project does not list \"" + args.Name + "\" in Packages/manifest.json." + hint + " list_packages shows what it has.",
                    new JObject { ["tool"] = tool, ["name"] = args.Name, ["suggestions"] = new JArray(suggestions) });
            }
            return PackageRequests.Await(tool, context, services, "removing " + args.Name, changes: true, () => Client.Remove(args.Name), _ =>
                new RemovePackageResult { Removed = args.Name, Previous = previous, DomainReload = true });
        }
    }
}
