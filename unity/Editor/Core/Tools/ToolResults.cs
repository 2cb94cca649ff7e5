using System;
using System.Collections.Generic;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;

namespace Tether.Core.Tools
{
    /// <summary>
    /// Whatever a tool returned, as a ToolResult JObject (port of toToolResult in
    /// src/host/tools.ts): a string is text, null is no content, a ToolResult (a JObject with a
    /// "content" array, or the ToolResult class) is itself once checked, any other object is
    /// structuredContent plus its pretty JSON as text, and arrays, numbers and booleans are
    /// their JSON as text. A malformed result, or a successful one whose structuredContent
    /// does not match the tool's output schema, fails TOOL_FAILED: said here, in the editor's
    /// terms, rather than as a client's schema error about a result it cannot read.
    /// </summary>
    public static class ToolResults
    {
        /// <summary>Fields each MCP content type must have, as strings (other types pass: a newer MCP may have them).</summary>
        private static readonly Dictionary<string, string[]> RequiredStrings = new Dictionary<string, string[]>
        {
            ["text"] = new[] { "text" },
            ["image"] = new[] { "data", "mimeType" },
            ["audio"] = new[] { "data", "mimeType" },
            ["resource_link"] = new[] { "uri", "name" },
        };

        public static JObject From(object returned, string tool, JObject outputSchema = null) => Converter(tool, outputSchema)(returned);

        /// <summary>
        /// A converter for one tool, its output schema checked once (INTERNAL_ERROR when it
        /// cannot be used): what RegisteredTool.ToResult calls.
        /// </summary>
        public static Func<object, JObject> Converter(string tool, JObject outputSchema)
        {
            var name = tool ?? "the tool";
            JsonSchemaValidator output = null;
            if (outputSchema != null)
            {
                try
                {
                    output = new JsonSchemaValidator(outputSchema);
                }
                catch (ToolDefinitionException problem)
                {
                    throw ArgumentValidator.InvalidSchema(name, "output", problem.Message);
                }
            }
            return returned => Convert(returned, name, output);
        }

        private static JObject Convert(object returned, string tool, JsonSchemaValidator output)
        {
            JObject result;
            string problem;
            try
            {
                result = AsToolResult(returned, out problem);
            }
            catch (Exception error) when (!(error is TetherException))
            {
                throw Unreadable(tool, "it could not be written as JSON (" + error.Message + ")");
            }
            var failed = result["isError"]?.Type == JTokenType.Boolean && (bool)result["isError"];
            if (problem == null && output != null && !failed)
            {
                problem = OutputProblem(output, result["structuredContent"]);
            }
            if (problem != null) throw Unreadable(tool, problem);
            return result;
        }

        /// <summary>TOOL_FAILED for a result MCP clients cannot read (data: tool, problem).</summary>
        public static TetherException Unreadable(string tool, string problem) =>
            new TetherException(
                ErrorCodes.ToolFailed,
                "Tool \"" + tool + "\" ran, but returned a result MCP clients cannot read: " + problem + ". Its effects have happened: fix the tool's result rather than calling it again.",
                new JObject { ["tool"] = tool, ["problem"] = problem });

        /// <summary>
        /// What a method tool returned, read as JSON where it ran (the main thread: its getters
        /// may touch Unity objects), for From to convert later on any thread. Strings, JSON and
        /// ToolResults are kept as they are.
        /// </summary>
        internal static object Prepare(object returned, string tool)
        {
            if (returned == null || returned is string || returned is JToken || returned is ToolResult || returned is Serialized) return returned;
            try
            {
                return new Serialized(ToolJson.FromObject(returned));
            }
            catch (Exception error) when (!(error is TetherException))
            {
                throw Unreadable(tool, "it could not be written as JSON (" + error.Message + ")");
            }
        }

        /// <summary>An object a tool returned, already written as JSON (never a ToolResult, whatever its members).</summary>
        internal sealed class Serialized
        {
            public Serialized(JToken json)
            {
                Json = json;
            }

            public JToken Json { get; }
        }

        private static JObject AsToolResult(object returned, out string problem)
        {
            problem = null;
            switch (returned)
            {
                case null:
                    return new JObject { ["content"] = new JArray() };
                case string text:
                    return Text(text);
                case ToolResult whole:
                    return Whole(FromClass(whole), out problem);
                case JObject json when json["content"] is JArray:
                    return Whole((JObject)json.DeepClone(), out problem);
            }
            // Copies: the result is journaled and sent later, and must not change if the tool changes its own JSON meanwhile.
            var value = returned is Serialized serialized ? serialized.Json.DeepClone() : returned is JToken token ? token.DeepClone() : ToolJson.FromObject(returned);
            switch (value.Type)
            {
                case JTokenType.Null:
                case JTokenType.Undefined:
                    return new JObject { ["content"] = new JArray() };
                case JTokenType.String:
                    return Text((string)value);
                case JTokenType.Object:
                    return new JObject { ["content"] = new JArray(ToolContent.Text(ToolJson.Pretty(value))), ["structuredContent"] = value };
                default:
                    return Text(ToolJson.Pretty(value));
            }
        }

        private static JObject Text(string text) => new JObject { ["content"] = new JArray(ToolContent.Text(text)) };

        private static JObject FromClass(ToolResult whole)
        {
            var content = new JArray();
            foreach (var item in whole.Content ?? new List<JObject>()) content.Add(item != null ? item.DeepClone() : JValue.CreateNull());
            var result = new JObject { ["content"] = content };
            if (whole.StructuredContent != null) result["structuredContent"] = ToolJson.FromObject(whole.StructuredContent);
            if (whole.IsError) result["isError"] = true;
            return result;
        }

        /// <summary>A result given whole, with what is wrong with it (null when nothing).</summary>
        private static JObject Whole(JObject result, out string problem)
        {
            problem = MalformedContent((JArray)result["content"]);
            if (problem == null && result.TryGetValue("structuredContent", out var structured) && structured.Type != JTokenType.Object)
            {
                problem = "structuredContent must be an object";
            }
            if (problem == null && result.TryGetValue("isError", out var isError) && isError.Type != JTokenType.Boolean)
            {
                problem = "isError must be a boolean";
            }
            return result;
        }

        /// <summary>What is wrong with a result's content, if anything.</summary>
        private static string MalformedContent(JArray content)
        {
            for (var index = 0; index < content.Count; index++)
            {
                if (!(content[index] is JObject item) || item["type"]?.Type != JTokenType.String) return "content[" + index + "] is not an object with a \"type\"";
                var type = (string)item["type"];
                if (RequiredStrings.TryGetValue(type, out var fields))
                {
                    foreach (var field in fields)
                    {
                        if (item[field]?.Type != JTokenType.String) return "content[" + index + "] (" + type + ") needs \"" + field + "\" as a string";
                    }
                }
                if (type == "resource" && item["resource"]?.Type != JTokenType.Object) return "content[" + index + "] (resource) needs \"resource\" as an object";
            }
            return null;
        }

        /// <summary>What is wrong with a successful result's structuredContent, against the tool's output schema.</summary>
        private static string OutputProblem(JsonSchemaValidator output, JToken structured)
        {
            if (structured == null) return "it declares an output schema but returned no structuredContent";
            var issue = output.Validate(structured, applyDefaults: false);
            if (issue == null) return null;
            var where = issue.Path.Count == 0 ? "structuredContent" : "structuredContent." + issue.DottedPath;
            return "its structuredContent does not match its output schema: " + where + " " + issue.Message;
        }
    }
}
