using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;

namespace Tether.Core.Kit
{
    /// <summary>
    /// The tools the official MCP conformance suite (@modelcontextprotocol/conformance,
    /// `server` scenarios) calls (port of src/sandbox/tools/conformance-fixtures.ts). They run
    /// on the main thread like every other editor tool, so each scenario goes through the whole
    /// of Tether. A host exposes them only when asked to (the sandbox: --conformance-fixtures).
    /// </summary>
    public static partial class ConformanceFixtures
    {
        public sealed class SamplingArguments
        {
            [ToolArg("The prompt to send to the LLM", Required = true)]
            public string Prompt;
        }

        public sealed class ElicitationArguments
        {
            [ToolArg("The message to show the user", Required = true)]
            public string Message;
        }

        public static IReadOnlyList<RegisteredTool> Tools()
        {
            return new[]
            {
                Pure("test_simple_text", "Conformance fixture: returns one text block.",
                    () => ToolResult.Text("This is a simple text response for testing.")),
                Pure("test_image_content", "Conformance fixture: returns an image (a 1x1 red PNG).",
                    () => new ToolResult().Add(ToolContent.Image(TestPngBase64, "image/png"))),
                Pure("test_audio_content", "Conformance fixture: returns audio (a one-sample WAV).",
                    () => new ToolResult().Add(ToolContent.Audio(TestWavBase64, "audio/wav"))),
                Pure("test_embedded_resource", "Conformance fixture: returns an embedded text resource.",
                    () => new ToolResult().Add(ToolContent.Resource("test://embedded-resource", "text/plain", "This is an embedded resource content."))),
                Pure("test_multiple_content_types", "Conformance fixture: returns text, an image and an embedded resource.",
                    () => new ToolResult()
                        .Add(ToolContent.Text("Multiple content types test:"))
                        .Add(ToolContent.Image(TestPngBase64, "image/png"))
                        .Add(ToolContent.Resource("test://mixed-content-resource", "application/json", ToolJson.Compact(new JObject { ["test"] = "data", ["value"] = 123 })))),
                ToolFactory.CreateAsync<NoArguments>(Definition("test_tool_with_logging", "Conformance fixture: sends three info log messages, 50 ms apart.", readOnly: true, idempotent: true),
                    async (args, context) =>
                    {
                        context.Log("info", "Tool execution started");
                        await Task.Delay(50);
                        context.Log("info", "Tool processing data");
                        await Task.Delay(50);
                        context.Log("info", "Tool execution completed");
                        return ToolResult.Text("Tool with logging executed successfully");
                    }),
                ToolFactory.CreateAsync<NoArguments>(Definition("test_tool_with_progress", "Conformance fixture: reports progress 0, 50 and 100 of 100, 50 ms apart.", readOnly: true, idempotent: true),
                    async (args, context) =>
                    {
                        foreach (var progress in new[] { 0, 50, 100 })
                        {
                            if (progress > 0) await Task.Delay(50);
                            context.Progress(progress, 100, "Completed step " + progress + " of 100");
                        }
                        return ToolResult.Text("Tool with progress executed successfully");
                    }),
                Pure("test_error_handling", "Conformance fixture: always fails.",
                    () => throw new Exception("This tool intentionally returns an error for testing")),
                ToolFactory.CreateAsync<SamplingArguments>(
                    Definition("test_sampling", "Conformance fixture: asks the client for an LLM completion of `prompt` (sampling/createMessage).", readOnly: true, idempotent: false),
                    async (args, context) =>
                    {
                        var request = new JObject
                        {
                            ["messages"] = new JArray(new JObject { ["role"] = "user", ["content"] = ToolContent.Text(args.Prompt) }),
                            ["maxTokens"] = 100,
                        };
                        var result = await context.Sample(request);
                        return ToolResult.Text("LLM response: " + SampledText(result));
                    }),
                ToolFactory.CreateAsync<ElicitationArguments>(
                    Definition("test_elicitation", "Conformance fixture: asks the user for a username and an email (elicitation/create).", readOnly: true, idempotent: false),
                    async (args, context) =>
                    {
                        var result = await context.Elicit(args.Message, UserSchema());
                        return ToolResult.Text("User response: " + Elicited(result));
                    }),
                ToolFactory.CreateAsync<NoArguments>(
                    Definition("test_elicitation_sep1034_defaults", "Conformance fixture: asks the user with a form whose fields have default values (SEP-1034).", readOnly: true, idempotent: false),
                    async (args, context) =>
                    {
                        var result = await context.Elicit("Please review and update the form fields with defaults", ConformanceFixtureSchemas.Defaults());
                        return ToolResult.Text("Elicitation completed: " + Elicited(result));
                    }),
                ToolFactory.CreateAsync<NoArguments>(
                    Definition("test_elicitation_sep1330_enums", "Conformance fixture: asks the user with the five enum field forms of SEP-1330.", readOnly: true, idempotent: false),
                    async (args, context) =>
                    {
                        var result = await context.Elicit("Please select options from the enum fields", ConformanceFixtureSchemas.Enums());
                        return ToolResult.Text("Elicitation completed: " + Elicited(result));
                    }),
                ToolFactory.FromDescriptor(
                    new JObject
                    {
                        ["name"] = "json_schema_2020_12_tool",
                        ["description"] = "Conformance fixture: a tool whose input schema uses JSON Schema 2020-12 keywords ($schema, $defs, $ref).",
                        ["inputSchema"] = ConformanceFixtureSchemas.JsonSchema202012(),
                        ["annotations"] = new JObject { ["readOnlyHint"] = true, ["idempotentHint"] = true },
                    },
                    (args, context) => Task.FromResult<object>(ToolResult.Text("JSON Schema 2020-12 tool called with: " + ToolJson.Compact(args)))),
                ToolFactory.CreateAsync<NoArguments>(
                    Definition("test_reconnection",
                        "Conformance fixture (SEP-1699): answers after 100 ms. The reference server closes the SSE stream mid-call; an editor cannot reach the HTTP stream, so the answer comes on the stream the call was made on.",
                        readOnly: true, idempotent: true),
                    async (args, context) =>
                    {
                        await Task.Delay(100);
                        return ToolResult.Text("Reconnection test completed successfully. If you received this, the client properly reconnected after stream closure.");
                    }),
                ToolFactory.Create<NoArguments>(
                    new TetherToolAttribute("test_update_watched_resource")
                    {
                        Description = "Conformance fixture: changes " + WatchedUri + " and notifies its subscribers (notifications/resources/updated).",
                        ReadOnly = false,
                        Idempotent = false,
                        Duplicates = "allow",
                    },
                    (args, context) => new JObject { ["uri"] = WatchedUri, ["version"] = UpdateWatched() }),
            };
        }

        /// <summary>Fixtures change nothing in the editor: any number of them may run, and re-run, safely.</summary>
        private static RegisteredTool Pure(string name, string description, Func<object> run) =>
            ToolFactory.Create<NoArguments>(Definition(name, description, readOnly: true, idempotent: true), (args, context) => run());

        private static TetherToolAttribute Definition(string name, string description, bool readOnly, bool idempotent) =>
            new TetherToolAttribute(name) { Description = description, ReadOnly = readOnly, Idempotent = idempotent };

        private static JObject UserSchema() => new JObject
        {
            ["type"] = "object",
            ["properties"] = new JObject
            {
                ["username"] = new JObject { ["type"] = "string", ["description"] = "User's response" },
                ["email"] = new JObject { ["type"] = "string", ["description"] = "User's email address" },
            },
            ["required"] = new JArray("username", "email"),
        };

        /// <summary>action=…, content=… (the content as compact JSON, {} when there is none).</summary>
        private static string Elicited(JObject result)
        {
            var action = result?["action"];
            var shown = action == null ? "undefined" : action.Type == JTokenType.String ? (string)action : ToolJson.Compact(action);
            var content = result?["content"];
            return "action=" + shown + ", content=" + ToolJson.Compact(content == null || content.Type == JTokenType.Null ? new JObject() : content);
        }

        /// <summary>The text of a sampling/createMessage result (content is one block, or an array of blocks).</summary>
        private static string SampledText(JToken result)
        {
            var content = (result as JObject)?["content"];
            var blocks = content is JArray array ? array.ToList() : new List<JToken> { content };
            var texts = blocks.OfType<JObject>().Where(b => (string)b["type"] == "text" && b["text"]?.Type == JTokenType.String).Select(b => (string)b["text"]).ToList();
            var joined = string.Join("\n", texts);
            return joined.Length > 0 ? joined : "(no text in the response)";
        }
    }
}
