using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Serialization
{
    /// <summary>
    /// Why a property path finds nothing, in the sandbox's words (src/sandbox/serialized/property-tree.ts):
    /// NOT_FOUND (data: problem, suggestions) saying what is there instead, with "did you mean".
    /// Unity-free; SerializedPropertyLookup decides which applies.
    /// </summary>
    internal static class PropertyProblems
    {
        public static TetherException NoProperty(string owner, string name, IReadOnlyList<string> names) =>
            NotFound(owner + " has no property \"" + name + "\"", name, names,
                "Its properties: " + (names.Count > 0 ? string.Join(", ", names) : "none") + ". get_serialized_properties lists them with their types.");

        public static TetherException SizeHasNoFields(string path) => NotFound("\"" + path + "\" is an array's size and has no fields", null, null, "");

        public static TetherException IsArray(string path) =>
            NotFound("\"" + path + "\" is an array", null, null, "Write \"" + path + ".Array.data[0]\" (or \"" + path + "[0]\") for an element, \"" + path + ".Array.size\" for its size.");

        public static TetherException OutOfRange(string path, int count, int index) =>
            NotFound("\"" + path + "\" has " + count + " element" + (count == 1 ? "" : "s") + ", so no element " + index, null, null, "Set \"" + path + ".Array.size\" first, or write the whole array.");

        public static TetherException NotArray(string path, string type) => NotFound("\"" + path + "\" is " + SerializedValues.Article(type) + ", not an array", null, null, "");

        public static TetherException NoField(string path, string name, IReadOnlyList<string> fields) =>
            NotFound("\"" + path + "\" has no field \"" + name + "\"", name, fields, "Its fields: " + string.Join(", ", fields) + ".");

        public static TetherException NoFields(string path, string type) => NotFound("\"" + path + "\" is " + SerializedValues.Article(type) + " and has no fields", null, null, "");

        /// <summary>A struct value naming a field the struct lacks (set_serialized_properties with {"speeed": 1}).</summary>
        public static ValueProblem NoFieldInValue(string label, string key, IReadOnlyList<string> fields)
        {
            var suggestions = ToolSuggestions.Closest(key, fields);
            var hint = suggestions.Count > 0 ? "Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "? " : "";
            return new ValueProblem(label + " has no field \"" + key + "\"", hint + "Its fields: " + string.Join(", ", fields) + ".");
        }

        private static TetherException NotFound(string problem, string name, IReadOnlyList<string> known, string hint)
        {
            var suggestions = name == null || known == null ? new List<string>() : ToolSuggestions.Closest(name, known).ToList();
            var didYouMean = suggestions.Count > 0 ? " Did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "";
            return new TetherException(
                ErrorCodes.NotFound,
                problem + "." + didYouMean + (hint.Length > 0 ? " " + hint : ""),
                new JObject { ["problem"] = problem, ["suggestions"] = new JArray(suggestions) });
        }
    }
}
