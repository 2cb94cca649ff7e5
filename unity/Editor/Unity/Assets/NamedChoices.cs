using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Assets
{
    /// <summary>
    /// INVALID_ARGUMENTS for a name that is none of the known ones (a shader, a shader property, a
    /// ScriptableObject class), with "did you mean" and otherwise the list, as the sandbox says it
    /// (src/sandbox/assets/materials.ts, tools/scriptable-object-tools.ts).
    /// </summary>
    internal static class NamedChoices
    {
        /// <summary>The error about <paramref name="name"/>; <paramref name="listIntro"/> starts the list shown when nothing is close ("Shaders:").</summary>
        public static TetherException Unknown(string tool, string field, string name, string problem, IReadOnlyCollection<string> known, string listIntro, string whenNone)
        {
            var suggestions = ToolSuggestions.Closest(name, known);
            var sorted = known.OrderBy(k => k, System.StringComparer.Ordinal).ToList();
            var hint = suggestions.Count > 0
                ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?"
                : sorted.Count > 0
                    ? " " + listIntro + " " + string.Join(", ", sorted.Take(20)) + (sorted.Count > 20 ? ", …" : "") + "."
                    : whenNone;
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for " + tool + ": " + field + ": " + problem + "." + hint,
                new JObject { ["tool"] = tool, ["field"] = field, ["problem"] = problem, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
