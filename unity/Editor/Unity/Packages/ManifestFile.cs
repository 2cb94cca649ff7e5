using System.Collections.Generic;
using System.IO;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Unity.Paths;

namespace Tether.Unity.Packages
{
    /// <summary>
    /// Packages/manifest.json read (never written: Client.Add and Client.Remove write it): the
    /// direct dependencies, to say what a change replaced and to refuse removing what is not there.
    /// </summary>
    internal static class ManifestFile
    {
        public const string RelativePath = "Packages/manifest.json";

        /// <summary>Name to version, Git URL or "file:" path; empty without a manifest; TOOL_FAILED when it is not JSON.</summary>
        public static Dictionary<string, string> Dependencies(string projectRoot)
        {
            var path = ProjectPaths.ResolveInside(projectRoot, RelativePath);
            var found = new Dictionary<string, string>();
            if (!File.Exists(path)) return found;
            JObject manifest;
            try
            {
                manifest = JObject.Parse(File.ReadAllText(path));
            }
            catch (Newtonsoft.Json.JsonException error)
            {
                throw new TetherException(ErrorCodes.ToolFailed, RelativePath + " is not valid JSON (" + error.Message + "); Unity cannot resolve the project's packages either. Fix the file, then try again.", new JObject { ["path"] = RelativePath });
            }
            if (manifest["dependencies"] is JObject dependencies)
            {
                foreach (var pair in dependencies) if (pair.Value?.Type == JTokenType.String) found[pair.Key] = (string)pair.Value;
            }
            return found;
        }
    }
}
