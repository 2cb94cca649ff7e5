using System;
using System.Linq;
using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;

namespace Tether.Core.Tools
{
    /// <summary>What a [ToolArg] adds to a member's schema: bounds, lengths, a pattern, allowed values.</summary>
    internal static class SchemaConstraints
    {
        /// <summary>
        /// Adds the attribute's constraints to <paramref name="schema"/>. On an array, MinLength and
        /// MaxLength bound the item count and the others apply to its items (a list of names
        /// that must match a pattern, of numbers in a range).
        /// </summary>
        public static void Apply(JObject schema, ToolArgAttribute arg, Type memberType, string where)
        {
            if (arg == null) return;
            var isArray = (string)schema["type"] == "array";
            var items = isArray ? schema["items"] as JObject : null;
            var scalar = items ?? schema;
            var scalarType = (string)scalar["type"];

            if (!double.IsNaN(arg.Minimum) || !double.IsNaN(arg.Maximum))
            {
                if (scalarType != "integer" && scalarType != "number") throw Misplaced(where, "Minimum and Maximum", "numbers");
                if (!double.IsNaN(arg.Minimum) && !double.IsNaN(arg.Maximum) && arg.Minimum > arg.Maximum) throw new ToolDefinitionException(where + " has a Minimum above its Maximum");
                if (!double.IsNaN(arg.Minimum)) scalar["minimum"] = Number(arg.Minimum);
                if (!double.IsNaN(arg.Maximum)) scalar["maximum"] = Number(arg.Maximum);
            }

            if (arg.MinLength >= 0 || arg.MaxLength >= 0)
            {
                if (arg.MinLength >= 0 && arg.MaxLength >= 0 && arg.MinLength > arg.MaxLength) throw new ToolDefinitionException(where + " has a MinLength above its MaxLength");
                if (isArray)
                {
                    if (arg.MinLength >= 0) schema["minItems"] = arg.MinLength;
                    if (arg.MaxLength >= 0) schema["maxItems"] = arg.MaxLength;
                }
                else if (scalarType == "string")
                {
                    if (arg.MinLength >= 0) schema["minLength"] = arg.MinLength;
                    if (arg.MaxLength >= 0) schema["maxLength"] = arg.MaxLength;
                }
                else
                {
                    throw Misplaced(where, "MinLength and MaxLength", "strings and arrays");
                }
            }

            if (arg.Pattern != null)
            {
                if (scalarType != "string") throw Misplaced(where, "Pattern", "strings");
                if (!JsonSchemaPatterns.TryCompile(arg.Pattern, out _)) throw new ToolDefinitionException(where + " has a Pattern that is not a valid regular expression: " + arg.Pattern);
                scalar["pattern"] = arg.Pattern;
            }

            if (arg.Enum != null)
            {
                if (scalarType != "string" || scalar["enum"] != null) throw Misplaced(where, "Enum", "string members (a C# enum lists its own values)");
                if (arg.Enum.Length == 0) throw new ToolDefinitionException(where + " has an empty Enum: no value could be given");
                scalar["enum"] = new JArray(arg.Enum.Distinct());
            }
        }

        private static ToolDefinitionException Misplaced(string where, string what, string forWhat) =>
            new ToolDefinitionException(where + " sets " + what + ", which apply to " + forWhat + " only");

        /// <summary>A bound as JSON: 600000, not 600000.0.</summary>
        private static JToken Number(double value) =>
            Math.Abs(value) < 9007199254740992d && Math.Floor(value) == value ? new JValue((long)value) : new JValue(value);
    }
}
