using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Scenes
{
    /// <summary>Which of a GameObject's components a call means, and the error when it has none such (the sandbox's words).</summary>
    internal static class ComponentChoices
    {
        /// <summary>Whether <paramref name="type"/> names the Transform, short or full, as the tools name every type (the sandbox's namesComponent).</summary>
        public static bool NamesTransform(string type) => type == "Transform" || type == "UnityEngine.Transform";

        /// <summary>NOT_FOUND naming the GameObject's components, with the closest names when it has none of the type.</summary>
        public static TetherException NotFound(string path, string type, int index, int count, IReadOnlyList<string> components)
        {
            var suggestions = count > 0 ? new List<string>() : ToolSuggestions.Closest(type, components).ToList();
            var hint = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            var which = count > 0 ? "only " + count + " " + type + " (index " + index + " asked)" : "no " + type;
            return new TetherException(
                ErrorCodes.NotFound,
                "\"" + path + "\" has " + which + "." + hint + " Its components: " + string.Join(", ", components) + ".",
                new JObject { ["path"] = path, ["type"] = type, ["components"] = new JArray(components), ["suggestions"] = new JArray(suggestions) });
        }
    }
}
