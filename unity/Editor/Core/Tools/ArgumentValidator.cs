using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// A tool's arguments held to its input schema before a call is queued (port of
    /// argumentValidator in src/schema/tool-arguments.ts): the validated arguments with their
    /// defaults, or INVALID_ARGUMENTS naming the field, the problem and, for a misspelled
    /// name or value, the closest ones the schema takes. Immutable; safe from any thread.
    /// </summary>
    public sealed class ArgumentValidator
    {
        private readonly string _tool;
        private readonly JsonSchemaValidator _schema;

        /// <summary>Throws INTERNAL_ERROR (data: tool, reason) when the schema cannot be used.</summary>
        public ArgumentValidator(string tool, JObject inputSchema)
        {
            _tool = tool ?? "";
            try
            {
                _schema = new JsonSchemaValidator(inputSchema ?? new JObject { ["type"] = "object", ["properties"] = new JObject() });
            }
            catch (ToolDefinitionException problem)
            {
                throw InvalidSchema(_tool, "input", problem.Message);
            }
        }

        /// <summary>A copy of the arguments ({} for null) with defaults filled in, or throws INVALID_ARGUMENTS.</summary>
        public JObject Validate(JObject arguments)
        {
            var validated = arguments != null ? (JObject)arguments.DeepClone() : new JObject();
            var issue = _schema.Validate(validated, applyDefaults: true);
            if (issue == null) return validated;
            throw Explain(issue);
        }

        private TetherException Explain(SchemaIssue issue)
        {
            switch (issue.Keyword)
            {
                case "additionalProperties":
                    return UnknownArgument(_tool, issue.Path.Concat(new[] { issue.Property }).ToList(), issue.Known);
                case "required":
                    return InvalidArguments(_tool, Dotted(issue.Path.Concat(new[] { issue.Property })), "is required but missing");
                case "enum":
                    return NotAllowed(issue);
                default:
                    return InvalidArguments(_tool, issue.DottedPath, issue.Message);
            }
        }

        /// <summary>"must be one of …", with the allowed values closest to a mistyped string.</summary>
        private TetherException NotAllowed(SchemaIssue issue)
        {
            var allowed = string.Join(", ", issue.Allowed.Select(value => value.ToString(Formatting.None)));
            var strings = issue.Allowed.Where(JsonSchemaKeywords.IsString).Select(JsonSchemaKeywords.StringOf).ToList();
            var suggestions = issue.Value != null && JsonSchemaKeywords.IsString(issue.Value)
                ? ToolSuggestions.Closest(JsonSchemaKeywords.StringOf(issue.Value), strings)
                : new List<string>();
            var hint = suggestions.Count > 0 ? " (did you mean " + Listed(suggestions) + "?)" : "";
            return InvalidArguments(_tool, issue.DottedPath, "must be one of " + allowed + hint, new JObject { ["suggestions"] = new JArray(suggestions) });
        }

        /// <summary>An argument the schema does not name, with the names it does that come closest.</summary>
        private static TetherException UnknownArgument(string tool, IReadOnlyList<string> path, IReadOnlyList<string> known)
        {
            var name = path.Count > 0 ? path[path.Count - 1] : "";
            var suggestions = ToolSuggestions.Closest(name, known ?? new List<string>());
            var hint = known == null ? ""
                : suggestions.Count > 0 ? " (did you mean " + Listed(suggestions) + "?)"
                : known.Count > 0 ? " (the arguments here are " + Listed(known) + ")"
                : " (none are taken here)";
            return InvalidArguments(tool, Dotted(path), "is not an argument of this tool" + hint, new JObject { ["suggestions"] = new JArray(suggestions) });
        }

        /// <summary>INVALID_ARGUMENTS for one field (data: tool, field, problem, and <paramref name="more"/>), worded as every tool's argument errors are.</summary>
        public static TetherException InvalidArguments(string tool, string field, string problem, JObject more = null)
        {
            var where = string.IsNullOrEmpty(field) ? "the arguments" : "\"" + field + "\"";
            var data = new JObject { ["tool"] = tool, ["field"] = field ?? "", ["problem"] = problem };
            if (more != null) foreach (var pair in more) data[pair.Key] = pair.Value;
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for tool \"" + tool + "\": " + where + " " + problem + ". Fix the field and call again; tools/list has the input schema.",
                data);
        }

        /// <summary>INTERNAL_ERROR: a tool's schema that cannot be used, said as the tool's mistake (data: tool, reason).</summary>
        internal static TetherException InvalidSchema(string tool, string which, string reason) =>
            new TetherException(ErrorCodes.InternalError, "Tool \"" + tool + "\" has an invalid " + which + " schema: " + reason + ".", new JObject { ["tool"] = tool, ["reason"] = reason });

        private static string Dotted(IEnumerable<string> path) => string.Join(".", path);

        private static string Listed(IEnumerable<string> names) => string.Join(", ", names.Select(n => "\"" + n + "\""));
    }
}
