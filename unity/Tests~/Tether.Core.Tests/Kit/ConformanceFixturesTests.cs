using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Kit;
using Tether.Core.Protocol;
using Tether.Core.Tests.Tools;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Kit
{
    [TestFixture]
    public class ConformanceFixturesTests
    {
        /// <summary>What the sandbox advertises with --conformance-fixtures (tools, resources, templates, prompts).</summary>
        private static JObject Sandbox => Fixtures.Read("sandbox-conformance-fixtures.json");

        private static RegisteredTool Fixture(string name) => ConformanceFixtures.Tools().Single(t => t.Name == name);

        private static async Task<JObject> Call(string name, JObject arguments = null, FakeToolContext context = null)
        {
            var tool = Fixture(name);
            return tool.ToResult(await tool.Invoke(tool.Validate(arguments ?? new JObject()), context ?? new FakeToolContext()));
        }

        private static string Text(JObject result, int index = 0) => (string)result["content"][index]["text"];

        [Test]
        public void TheToolsAreDeclaredExactlyAsTheSandboxDeclaresThem()
        {
            JsonAssert.AreEqual(Sandbox["tools"], new JArray(ConformanceFixtures.Tools().Select(t => t.Descriptor)));
        }

        [Test]
        public void TheCatalogIsTheSandboxs()
        {
            var catalog = new Catalog();
            ConformanceFixtures.AddTo(catalog);
            JsonAssert.AreEqual(Sandbox["resources"], catalog.ListResources());
            JsonAssert.AreEqual(Sandbox["resourceTemplates"], catalog.ListTemplates());
            JsonAssert.AreEqual(Sandbox["prompts"], catalog.ListPrompts());
        }

        [Test]
        public async Task ContentFixturesReturnTheirContent()
        {
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"This is a simple text response for testing.\"}]}"), await Call("test_simple_text"));
            JsonAssert.AreEqual(new JObject { ["content"] = new JArray(ToolContent.Image(ConformanceFixtures.TestPngBase64, "image/png")) }, await Call("test_image_content"));
            JsonAssert.AreEqual(new JObject { ["content"] = new JArray(ToolContent.Audio(ConformanceFixtures.TestWavBase64, "audio/wav")) }, await Call("test_audio_content"));
            JsonAssert.AreEqual(
                JObject.Parse("{\"content\":[{\"type\":\"resource\",\"resource\":{\"uri\":\"test://embedded-resource\",\"mimeType\":\"text/plain\",\"text\":\"This is an embedded resource content.\"}}]}"),
                await Call("test_embedded_resource"));
            var mixed = await Call("test_multiple_content_types");
            Assert.That(((JArray)mixed["content"]).Select(c => (string)c["type"]), Is.EqualTo(new[] { "text", "image", "resource" }));
            Assert.That((string)mixed["content"][2]["resource"]["text"], Is.EqualTo("{\"test\":\"data\",\"value\":123}"));
        }

        [Test]
        public async Task LoggingAndProgressGoThroughTheContext()
        {
            var context = new FakeToolContext();
            Assert.That(Text(await Call("test_tool_with_logging", null, context)), Is.EqualTo("Tool with logging executed successfully"));
            Assert.That(context.Logs.Select(l => l.Level + ":" + (string)l.Data), Is.EqualTo(new[] { "info:Tool execution started", "info:Tool processing data", "info:Tool execution completed" }));
            Assert.That(Text(await Call("test_tool_with_progress", null, context)), Is.EqualTo("Tool with progress executed successfully"));
            Assert.That(context.ProgressReports.Select(p => p.Progress + "/" + p.Total + " " + p.Message),
                Is.EqualTo(new[] { "0/100 Completed step 0 of 100", "50/100 Completed step 50 of 100", "100/100 Completed step 100 of 100" }));
        }

        [Test]
        public void TheErrorFixtureFails()
        {
            var error = Assert.ThrowsAsync<Exception>(() => Fixture("test_error_handling").Invoke(new JObject(), new FakeToolContext()));
            Assert.That(error.Message, Is.EqualTo("This tool intentionally returns an error for testing"));
        }

        [Test]
        public async Task SamplingAsksTheClientsModel()
        {
            var context = new FakeToolContext();
            Assert.That(Text(await Call("test_sampling", JObject.Parse("{\"prompt\":\"Capital of France?\"}"), context)), Is.EqualTo("LLM response: Paris"));
            JsonAssert.AreEqual(
                JObject.Parse("{\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"Capital of France?\"}}],\"maxTokens\":100}"),
                context.Samplings.Single());
            context.SampleAnswer = JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\"},{\"type\":\"text\",\"text\":\"b\"}]}");
            Assert.That(Text(await Call("test_sampling", JObject.Parse("{\"prompt\":\"x\"}"), context)), Is.EqualTo("LLM response: a\nb"));
            context.SampleAnswer = new JObject();
            Assert.That(Text(await Call("test_sampling", JObject.Parse("{\"prompt\":\"x\"}"), context)), Is.EqualTo("LLM response: (no text in the response)"));
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Fixture("test_sampling").Validate(new JObject()));
        }

        [Test]
        public async Task ElicitationAsksTheUser()
        {
            var context = new FakeToolContext();
            Assert.That(Text(await Call("test_elicitation", JObject.Parse("{\"message\":\"Who are you?\"}"), context)),
                Is.EqualTo("User response: action=accept, content={\"username\":\"ada\",\"email\":\"ada@example.com\"}"));
            Assert.That(context.Elicitations.Single().Message, Is.EqualTo("Who are you?"));
            Assert.That(context.Elicitations.Single().Schema["required"].ToObject<string[]>(), Is.EqualTo(new[] { "username", "email" }));
            context.ElicitAnswer = JObject.Parse("{\"action\":\"decline\"}");
            Assert.That(Text(await Call("test_elicitation_sep1034_defaults", null, context)), Is.EqualTo("Elicitation completed: action=decline, content={}"));
            Assert.That((string)context.Elicitations[1].Schema["properties"]["name"]["default"], Is.EqualTo("John Doe"));
            Assert.That(Text(await Call("test_elicitation_sep1330_enums", null, context)), Is.EqualTo("Elicitation completed: action=decline, content={}"));
            Assert.That(((JObject)context.Elicitations[2].Schema["properties"]).Properties().Select(p => p.Name),
                Is.EqualTo(new[] { "untitledSingle", "titledSingle", "legacyEnum", "untitledMulti", "titledMulti" }));
        }

        [Test]
        public async Task TheJsonSchema202012ToolValidatesThroughItsReferences()
        {
            var result = await Call("json_schema_2020_12_tool", JObject.Parse("{\"name\":\"Ada\",\"address\":{\"street\":\"1 Main\",\"city\":\"London\"}}"));
            Assert.That(Text(result), Is.EqualTo("JSON Schema 2020-12 tool called with: {\"name\":\"Ada\",\"address\":{\"street\":\"1 Main\",\"city\":\"London\"}}"));
            var error = TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Fixture("json_schema_2020_12_tool").Validate(JObject.Parse("{\"address\":{\"city\":1}}")));
            Assert.That((string)error.Data["field"], Is.EqualTo("address.city"));
        }

        [Test]
        public async Task ReconnectionAnswersAfterAWhile()
        {
            Assert.That(Text(await Call("test_reconnection")), Does.StartWith("Reconnection test completed successfully."));
        }

        [Test]
        public async Task UpdatingTheWatchedResourceChangesItAndTellsSubscribers()
        {
            var catalog = new Catalog();
            ConformanceFixtures.AddTo(catalog);
            var updated = new List<string>();
            catalog.ResourceUpdated += updated.Add;
            var result = await Call("test_update_watched_resource");
            var version = (int)result["structuredContent"]["version"];
            Assert.That((string)result["structuredContent"]["uri"], Is.EqualTo(ConformanceFixtures.WatchedUri));
            Assert.That(updated, Is.EqualTo(new[] { ConformanceFixtures.WatchedUri }));
            var contents = await catalog.Read(ConformanceFixtures.WatchedUri);
            Assert.That((string)contents[0]["text"], Is.EqualTo("Watched resource content, version " + version + "."));
            var next = await Call("test_update_watched_resource");
            Assert.That((int)next["structuredContent"]["version"], Is.EqualTo(version + 1));
        }

        [Test]
        public async Task ResourcesReadAsTheSandboxReadsThem()
        {
            var catalog = new Catalog();
            ConformanceFixtures.AddTo(catalog);
            JsonAssert.AreEqual(
                JArray.Parse("[{\"uri\":\"test://static-text\",\"mimeType\":\"text/plain\",\"text\":\"This is the content of the static text resource.\"}]"),
                await catalog.Read("test://static-text"));
            JsonAssert.AreEqual(
                new JArray(new JObject { ["uri"] = "test://static-binary", ["mimeType"] = "image/png", ["blob"] = ConformanceFixtures.TestPngBase64 }),
                await catalog.Read("test://static-binary"));
            JsonAssert.AreEqual(
                JArray.Parse("[{\"uri\":\"test://template/42/data\",\"mimeType\":\"application/json\",\"text\":\"{\\\"id\\\":\\\"42\\\",\\\"templateTest\\\":true,\\\"data\\\":\\\"Data for ID: 42\\\"}\"}]"),
                await catalog.Read("test://template/42/data"));
            TetherAssert.ThrowsAsync(ErrorCodes.NotFound, () => catalog.Read("test://nothing"));
        }

        [Test]
        public async Task PromptsAndCompletionsAreTheSandboxs()
        {
            var catalog = new Catalog();
            ConformanceFixtures.AddTo(catalog);
            var simple = await catalog.GetPrompt("test_simple_prompt", null);
            JsonAssert.AreEqual(JObject.Parse("{\"description\":\"A simple prompt\",\"messages\":[{\"role\":\"user\",\"content\":{\"type\":\"text\",\"text\":\"This is a simple prompt for testing.\"}}]}"), simple);
            var withArguments = await catalog.GetPrompt("test_prompt_with_arguments", JObject.Parse("{\"arg1\":\"a\",\"arg2\":\"b\"}"));
            Assert.That((string)withArguments["messages"][0]["content"]["text"], Is.EqualTo("Prompt with arguments: arg1='a', arg2='b'"));
            TetherAssert.ThrowsAsync(ErrorCodes.InvalidParams, () => catalog.GetPrompt("test_prompt_with_arguments", JObject.Parse("{\"arg1\":\"a\"}")));
            var embedded = await catalog.GetPrompt("test_prompt_with_embedded_resource", JObject.Parse("{\"resourceUri\":\"test://static-text\"}"));
            Assert.That((string)embedded["messages"][0]["content"]["resource"]["uri"], Is.EqualTo("test://static-text"));
            Assert.That((string)embedded["messages"][1]["content"]["text"], Is.EqualTo("Please process the embedded resource above."));
            var image = await catalog.GetPrompt("test_prompt_with_image", null);
            Assert.That((string)image["messages"][0]["content"]["type"], Is.EqualTo("image"));

            async Task<string[]> Complete(JObject reference, string argument, string value) =>
                (await catalog.Complete(new JObject { ["ref"] = reference, ["argument"] = new JObject { ["name"] = argument, ["value"] = value } }))["completion"]["values"].ToObject<string[]>();
            var prompt = new JObject { ["type"] = "ref/prompt", ["name"] = "test_prompt_with_arguments" };
            Assert.That(await Complete(prompt, "arg1", "PA"), Is.EqualTo(new[] { "paris", "park", "party" }));
            Assert.That(await Complete(prompt, "resourceUri", ""), Is.Empty, "not an argument of this prompt");
            Assert.That(await Complete(new JObject { ["type"] = "ref/resource", ["uri"] = ConformanceFixtures.DataTemplate }, "id", "4"), Is.EqualTo(new[] { "42" }));
        }
    }
}
