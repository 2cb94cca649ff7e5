using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using UnityEditor;
using UnityEditorInternal;
using UnityEngine;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// The names a scene edit may use, checked before anything changes (a call that fails
    /// leaves no half-made object): component types Unity knows, tags the project defines.
    /// </summary>
    internal static class SceneVocabulary
    {
        private static ComponentTypeResolver _components;

        /// <summary>Every Component type of the loaded assemblies (read once per domain; a new type means a new domain).</summary>
        public static ComponentTypeResolver Components => _components ?? (_components = new ComponentTypeResolver(TypeCache.GetTypesDerivedFrom<Component>()));

        /// <summary>Throws INVALID_ARGUMENTS when the project defines no such tag (Unity would throw on assignment).</summary>
        public static void RequireTag(string tag, string tool, string field = "tag")
        {
            var tags = InternalEditorUtility.tags;
            if (tags.Contains(tag)) return;
            var suggestions = ToolSuggestions.Closest(tag, tags);
            var problem = "the project defines no tag \"" + tag + "\"";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + ". Tags are: " + string.Join(", ", tags) + ". Add new ones in Project Settings > Tags and Layers.",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
