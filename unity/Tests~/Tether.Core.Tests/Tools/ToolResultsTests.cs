using System.Collections.Generic;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    [TestFixture]
    public class ToolResultsTests
    {
        private sealed class Report
        {
            public string Status = "succeeded";
            public string OutputPath = "Builds/Android";
            public string Missing = null;
            [JsonProperty("exact_name")] public int Exact = 1;
        }

        private static readonly JObject ReportSchema = JObject.Parse(@"{
            ""type"": ""object"",
            ""properties"": { ""status"": { ""type"": ""string"", ""enum"": [""succeeded"", ""failed""] }, ""outputPath"": { ""type"": ""string"" } },
            ""required"": [""status""]
        }");

        [Test]
        public void AStringIsTextAndNullIsNoContent()
        {
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"hello\"}]}"), ToolResults.From("hello", "t", null));
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[]}"), ToolResults.From(null, "t", null));
        }

        [Test]
        public void AnObjectIsStructuredContentWithItsPrettyJsonAsText()
        {
            var result = ToolResults.From(new Report(), "build_player", ReportSchema);
            var structured = JObject.Parse("{\"status\":\"succeeded\",\"outputPath\":\"Builds/Android\",\"exact_name\":1}");
            JsonAssert.AreEqual(structured, result["structuredContent"]);
            Assert.That((string)result["content"][0]["text"], Is.EqualTo("{\n  \"status\": \"succeeded\",\n  \"outputPath\": \"Builds/Android\",\n  \"exact_name\": 1\n}"));
            Assert.That(result.ContainsKey("isError"), Is.False);
        }

        [Test]
        public void ArraysNumbersAndBooleansAreTextOnly()
        {
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"[\\n  1,\\n  2\\n]\"}]}"), ToolResults.From(new List<int> { 1, 2 }, "t", null));
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"42\"}]}"), ToolResults.From(42, "t", null));
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"true\"}]}"), ToolResults.From(true, "t", null));
        }

        [Test]
        public void AToolResultIsTakenWhole()
        {
            var json = JObject.Parse("{\"content\":[{\"type\":\"image\",\"data\":\"AAAA\",\"mimeType\":\"image/png\",\"extra\":1}],\"isError\":true}");
            JsonAssert.AreEqual(json, ToolResults.From(json, "t", ReportSchema), "an error result is not held to the output schema");
            var typed = ToolResults.From(new ToolResult { IsError = false, StructuredContent = new { status = "failed" } }.Add(ToolContent.Text("it failed")), "t", ReportSchema);
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"it failed\"}],\"structuredContent\":{\"status\":\"failed\"}}"), typed);
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[{\"type\":\"text\",\"text\":\"no\"}],\"isError\":true}"), ToolResults.From(ToolResult.Error("no"), "t", null));
        }

        [Test]
        public void AnObjectWithAContentMemberIsStillStructuredContent()
        {
            var result = ToolResults.From(new { content = new[] { "a", "b" } }, "t", null);
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[\"a\",\"b\"]}"), result["structuredContent"]);
        }

        [TestCase("{\"content\":[\"text\"]}", "content[0] is not an object with a \"type\"")]
        [TestCase("{\"content\":[{\"type\":\"text\"}]}", "content[0] (text) needs \"text\" as a string")]
        [TestCase("{\"content\":[{\"type\":\"text\",\"text\":\"a\"},{\"type\":\"image\",\"data\":\"AA\"}]}", "content[1] (image) needs \"mimeType\" as a string")]
        [TestCase("{\"content\":[{\"type\":\"resource\"}]}", "content[0] (resource) needs \"resource\" as an object")]
        [TestCase("{\"content\":[{\"type\":\"resource_link\",\"uri\":\"x\"}]}", "content[0] (resource_link) needs \"name\" as a string")]
        [TestCase("{\"content\":[],\"structuredContent\":[1]}", "structuredContent must be an object")]
        public void AMalformedToolResultFailsNamingTheProblem(string result, string problem)
        {
            var error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => ToolResults.From(JObject.Parse(result), "broken", null));
            Assert.That((string)error.Data["problem"], Is.EqualTo(problem));
            Assert.That((string)error.Data["tool"], Is.EqualTo("broken"));
            Assert.That(error.Message, Does.StartWith("Tool \"broken\" ran, but returned a result MCP clients cannot read: " + problem));
        }

        [Test]
        public void UnknownContentTypesPass()
        {
            Assert.That(ToolResults.From(JObject.Parse("{\"content\":[{\"type\":\"hologram\"}]}"), "t", null), Is.Not.Null);
        }

        [Test]
        public void ASuccessfulResultMustMatchTheOutputSchema()
        {
            var error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => ToolResults.From(new { status = "maybe" }, "build_player", ReportSchema));
            Assert.That((string)error.Data["problem"], Is.EqualTo("its structuredContent does not match its output schema: structuredContent.status must be equal to one of the allowed values"));
            error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => ToolResults.From(new { outputPath = "x" }, "build_player", ReportSchema));
            Assert.That((string)error.Data["problem"], Is.EqualTo("its structuredContent does not match its output schema: structuredContent must have required property 'status'"));
            error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => ToolResults.From("just text", "build_player", ReportSchema));
            Assert.That((string)error.Data["problem"], Is.EqualTo("it declares an output schema but returned no structuredContent"));
        }

        [Test]
        public void AnUnusableOutputSchemaIsRefusedWhenTheConverterIsMade()
        {
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => ToolResults.Converter("t", JObject.Parse("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"str\"}}}")));
            Assert.That(error.Message, Does.Contain("invalid output schema"));
        }

        private sealed class SelfReferencing
        {
            public SelfReferencing Self;
        }

        [Test]
        public void AnObjectThatCannotBeWrittenAsJsonFailsTheCallNotTheHost()
        {
            var loop = new SelfReferencing();
            loop.Self = loop;
            var error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => ToolResults.From(loop, "t", null));
            Assert.That((string)error.Data["problem"], Does.StartWith("it could not be written as JSON"));
        }
    }
}
