using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Scenes
{
    /// <summary>
    /// The layer a tool argument names: a layer's name, or its index from 0 to 31 ("8"), as
    /// LayerMask.NameToLayer and GameObject.layer take them; INVALID_ARGUMENTS (data: tool, field,
    /// problem, suggestions) with the closest names otherwise, in the sandbox's words
    /// (src/sandbox/layers.ts). Unity-free: the names come from LayerMask.LayerToName.
    /// </summary>
    internal static class LayerChoice
    {
        public const int Count = 32;

        /// <summary>The layer <paramref name="value"/> names among the project's (LayerMask.LayerToName).</summary>
        public static int RequireInProject(string value, string tool, string field = "layer") =>
            Require(value, Enumerable.Range(0, Count).Select(UnityEngine.LayerMask.LayerToName).ToList(), tool, field);

        /// <summary>The layer <paramref name="value"/> names among <paramref name="names"/> (32 names, "" for unnamed layers).</summary>
        public static int Require(string value, IReadOnlyList<string> names, string tool, string field = "layer")
        {
            if (value.Length > 0 && value.Length <= 9 && value.All(c => c >= '0' && c <= '9') && int.Parse(value) < Count) return int.Parse(value);
            var index = value.Length == 0 ? -1 : names.ToList().IndexOf(value);
            if (index >= 0) return index;
            var named = names.Where(name => !string.IsNullOrEmpty(name)).ToList();
            var suggestions = ToolSuggestions.Closest(value, named);
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            var problem = "the project has no layer \"" + value + "\"";
            throw new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + "." + hint + " Layers: " + string.Join(", ", named) + " (or give an index from 0 to 31). Add layers in Project Settings > Tags and Layers.",
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
