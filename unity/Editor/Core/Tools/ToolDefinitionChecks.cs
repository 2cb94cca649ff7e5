using System.Text.RegularExpressions;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>What every tool's declaration must get right, whichever way it is declared.</summary>
    internal static class ToolDefinitionChecks
    {
        /// <summary>
        /// Tool names every MCP client takes: Claude Desktop takes only ^[a-zA-Z0-9_-]{1,64}$,
        /// Codex only ^[a-zA-Z0-9_-]+$, and either refuses the whole tool list for one name it
        /// does not take. The TypeScript host's rule too (src/host/tools.ts).
        /// </summary>
        private static readonly Regex ToolName = new Regex("^[A-Za-z0-9_-]{1,64}$", RegexOptions.CultureInvariant);

        /// <summary>
        /// Tether's own namespace: the fronts' tools (tether_status, tether_use_host), which a
        /// front lists in place of a host tool of the same name, and the conformance kit's
        /// (protocol.md §15), which a host exposes when asked and so may add.
        /// </summary>
        private const string ReservedPrefix = "tether_";
        private const string KitPrefix = "tether_conformance_";

        public static bool IsValidName(string name) => name != null && ToolName.IsMatch(name);

        /// <summary>Whether the name is in Tether's own namespace and not one of the conformance kit's.</summary>
        public static bool IsReservedName(string name) =>
            name != null && name.StartsWith(ReservedPrefix, System.StringComparison.OrdinalIgnoreCase) && !name.StartsWith(KitPrefix, System.StringComparison.Ordinal);

        /// <summary>What is wrong with a tool's name, if anything.</summary>
        public static string NameProblemOf(string name) => !IsValidName(name) ? NameProblem : IsReservedName(name) ? ReservedNameProblem : null;

        public static bool IsDuplicatePolicy(string value) => value == "attach" || value == "reject" || value == "allow";

        /// <summary>
        /// Why a tool cannot be added (INTERNAL_ERROR, data: tool, and the method that declares
        /// it), said as it is added rather than found later by a client.
        /// </summary>
        public static TetherException CannotAdd(string tool, string problem, string origin = null)
        {
            var data = new JObject { ["tool"] = tool ?? "" };
            if (origin != null) data["method"] = origin;
            var where = origin != null ? " (" + origin + ")" : "";
            return new TetherException(ErrorCodes.InternalError, "Tool \"" + ToolSuggestions.Clip(tool ?? "", 140) + "\"" + where + " cannot be added: " + problem + ".", data);
        }

        /// <summary>The attribute's own mistakes: name, description, duplicates, deadline.</summary>
        public static string ProblemWith(TetherToolAttribute definition)
        {
            var nameProblem = NameProblemOf(definition.Name);
            if (nameProblem != null) return nameProblem;
            if (string.IsNullOrWhiteSpace(definition.Description)) return "it has no Description (say what it does, for a model to read)";
            if (definition.Duplicates != null && !IsDuplicatePolicy(definition.Duplicates)) return DuplicatesProblem(definition.Duplicates);
            if (definition.DeadlineMs < 0) return "its DeadlineMs is negative (0 means the host's default)";
            return null;
        }

        public const string NameProblem =
            "a tool name is 1 to 64 letters, digits, \"_\" or \"-\": Claude Desktop takes no other (^[a-zA-Z0-9_-]{1,64}$), nor Codex one with another character, and each refuses the whole tool list for one such name";

        public const string ReservedNameProblem =
            "names starting with \"tether_\" are Tether's own (tether_status, tether_use_host: a front would list its own tool in place of this one), so choose another name";

        public static string DuplicatesProblem(string value) =>
            "its Duplicates is \"" + ToolSuggestions.Clip(value, 40) + "\", not one of \"attach\", \"reject\" or \"allow\"";

        /// <summary>The wire descriptor of a tool declared with the attribute.</summary>
        public static JObject Descriptor(TetherToolAttribute definition, JObject inputSchema, JObject outputSchema)
        {
            var descriptor = new JObject { ["name"] = definition.Name };
            if (!string.IsNullOrEmpty(definition.Title)) descriptor["title"] = definition.Title;
            descriptor["description"] = definition.Description;
            descriptor["inputSchema"] = inputSchema;
            if (outputSchema != null) descriptor["outputSchema"] = outputSchema;
            var annotations = new JObject();
            if (definition.ReadOnlyHint.HasValue) annotations["readOnlyHint"] = definition.ReadOnlyHint.Value;
            if (definition.DestructiveHint.HasValue) annotations["destructiveHint"] = definition.DestructiveHint.Value;
            if (definition.IdempotentHint.HasValue) annotations["idempotentHint"] = definition.IdempotentHint.Value;
            if (definition.OpenWorldHint.HasValue) annotations["openWorldHint"] = definition.OpenWorldHint.Value;
            descriptor["annotations"] = annotations;
            var execution = new JObject { ["longRunning"] = definition.LongRunning, ["mainThread"] = definition.MainThread };
            if (definition.DeadlineMs > 0) execution["deadlineMs"] = definition.DeadlineMs;
            if (definition.Duplicates != null) execution["duplicates"] = definition.Duplicates;
            descriptor["execution"] = execution;
            return descriptor;
        }

        /// <summary>
        /// A descriptor given as JSON (a tool whose handler lives elsewhere), checked and
        /// completed: annotations {} and execution's longRunning and mainThread filled in.
        /// </summary>
        public static JObject Complete(JObject given)
        {
            var name = given["name"]?.Type == JTokenType.String ? (string)given["name"] : null;
            var problem = DescriptorProblem(given, name);
            if (problem != null) throw CannotAdd(name ?? given["name"]?.ToString() ?? "", problem);
            var descriptor = (JObject)given.DeepClone();
            if (descriptor["inputSchema"] == null) descriptor["inputSchema"] = new JObject { ["type"] = "object", ["properties"] = new JObject() };
            if (descriptor["annotations"] == null) descriptor["annotations"] = new JObject();
            var complete = new JObject { ["longRunning"] = false, ["mainThread"] = true };
            if (descriptor["execution"] is JObject execution) foreach (var pair in execution) complete[pair.Key] = pair.Value;
            descriptor["execution"] = complete;
            return descriptor;
        }

        private static string DescriptorProblem(JObject given, string name)
        {
            var nameProblem = NameProblemOf(name);
            if (nameProblem != null) return nameProblem;
            if (given["description"]?.Type != JTokenType.String) return "its descriptor has no \"description\" string";
            var input = given["inputSchema"];
            if (input != null && (!(input is JObject inputObject) || (string)inputObject["type"] != "object"))
            {
                return "its input must be an object's schema (JSON Schema with \"type\": \"object\"), as MCP requires";
            }
            var output = given["outputSchema"];
            if (output != null && (!(output is JObject outputObject) || (string)outputObject["type"] != "object"))
            {
                return "its outputSchema must be an object's schema (\"type\": \"object\"), as MCP requires";
            }
            var annotations = given["annotations"];
            if (annotations != null && !(annotations is JObject)) return "its \"annotations\" is not an object";
            if (annotations is JObject hints)
            {
                foreach (var hint in hints)
                {
                    if (hint.Key.EndsWith("Hint", System.StringComparison.Ordinal) && hint.Value.Type != JTokenType.Boolean) return "its annotation \"" + hint.Key + "\" is not a boolean";
                }
            }
            var execution = given["execution"];
            if (execution == null) return null;
            if (!(execution is JObject fields)) return "its \"execution\" is not an object";
            foreach (var key in new[] { "longRunning", "mainThread" })
            {
                if (fields[key] != null && fields[key].Type != JTokenType.Boolean) return "its execution." + key + " is not a boolean";
            }
            var deadline = fields["deadlineMs"];
            if (deadline != null && !(((deadline as JValue)?.Value is long ms) && ms > 0)) return "its execution.deadlineMs is not a positive integer";
            var duplicates = fields["duplicates"];
            if (duplicates != null && (duplicates.Type != JTokenType.String || !IsDuplicatePolicy((string)duplicates))) return DuplicatesProblem(duplicates.ToString());
            return null;
        }
    }
}
