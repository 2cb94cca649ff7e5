using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    [TestFixture]
    public class CatalogTests
    {
        private static JObject Kit => Fixtures.Read("sandbox-kit-and-catalog.json");

        private static Task<JArray> Contents(string uri, string text) =>
            Task.FromResult(new JArray(new JObject { ["uri"] = uri, ["mimeType"] = "text/plain", ["text"] = text }));

        /// <summary>The sandbox's catalog (fixtures/sandbox-kit-and-catalog.json), with readers that echo what they were given.</summary>
        private static Catalog SandboxCatalog(List<IReadOnlyDictionary<string, string>> seen = null)
        {
            var catalog = new Catalog();
            foreach (var resource in Kit["resources"].OfType<JObject>()) catalog.AddResource(resource, uri => Contents(uri, "fixed " + uri));
            foreach (var template in Kit["resourceTemplates"].OfType<JObject>())
            {
                catalog.AddTemplate(template, (uri, variables) =>
                {
                    seen?.Add(variables);
                    return Contents(uri, "path=" + variables["path"]);
                }, (name, typed) => name == "path" ? new[] { "Player", "Player/Camera", "Platform", "Ground" }.Where(p => p.StartsWith(typed)) : null);
            }
            foreach (var prompt in Kit["prompts"].OfType<JObject>())
            {
                var name = (string)prompt["name"];
                catalog.AddPrompt(prompt, args => Task.FromResult(new JObject
                {
                    ["description"] = name,
                    ["messages"] = new JArray(new JObject { ["role"] = "user", ["content"] = ToolContent.Text(name + " " + args.ToString(Newtonsoft.Json.Formatting.None)) }),
                }), (argument, typed, context) => Enumerable.Range(0, 250).Select(i => argument + i).Where(v => v.StartsWith(typed)));
            }
            return catalog;
        }

        [Test]
        public void ListsAreTheDescriptorsAsAdded()
        {
            var catalog = SandboxCatalog();
            JsonAssert.AreEqual(Kit["resources"], catalog.ListResources());
            JsonAssert.AreEqual(Kit["resourceTemplates"], catalog.ListTemplates());
            JsonAssert.AreEqual(Kit["prompts"], catalog.ListPrompts());
            catalog.ListResources()[0]["name"] = "changed by a caller";
            Assert.That((string)catalog.ListResources()[0]["name"], Is.EqualTo("console-log"));
        }

        [Test]
        public async Task AFixedResourceIsReadByItsExactUri()
        {
            var contents = await SandboxCatalog().Read("unity://console/log");
            Assert.That((string)contents[0]["text"], Is.EqualTo("fixed unity://console/log"));
        }

        [Test]
        public async Task ATemplateVariableSpansSlashesAndIsPercentDecoded()
        {
            var seen = new List<IReadOnlyDictionary<string, string>>();
            var catalog = SandboxCatalog(seen);
            Assert.That((string)(await catalog.Read("unity://scene/objects/Player/Camera"))[0]["text"], Is.EqualTo("path=Player/Camera"));
            Assert.That((string)(await catalog.Read("unity://scene/objects/%2FEnvironment%2FGround"))[0]["text"], Is.EqualTo("path=/Environment/Ground"));
            Assert.That((string)(await catalog.Read("unity://scene/objects/caf%C3%A9%20bar"))[0]["text"], Is.EqualTo("path=café bar"));
            Assert.That(seen.Count, Is.EqualTo(3));
        }

        [TestCase("unity://scene/objects/")]
        [TestCase("unity://scene/objects/a?b")]
        [TestCase("unity://scene/objects/a#b")]
        [TestCase("unity://scene/objects/%E2%82")]
        [TestCase("unity://scene/objects/%ZZ")]
        [TestCase("unity://nothing")]
        public void AUriNothingMatchesIsNotFound(string uri)
        {
            var error = TetherAssert.ThrowsAsync(ErrorCodes.NotFound, () => SandboxCatalog().Read(uri));
            Assert.That((string)error.Data["uri"], Is.EqualTo(uri));
            Assert.That(error.Message, Does.Contain("resources/list and resources/templates/list show what exists"));
        }

        [Test]
        public void UriTemplatesMatchAsRfc6570LevelOne()
        {
            var template = new UriTemplate("test://template/{id}/data");
            Assert.That(template.Names, Is.EqualTo(new[] { "id" }));
            Assert.That(template.Match("test://template/42/data")["id"], Is.EqualTo("42"));
            Assert.That(template.Match("test://template/a/b/data")["id"], Is.EqualTo("a/b"));
            Assert.That(template.Match("test://template//data"), Is.Null);
            Assert.That(template.Match("test://template/42/datax"), Is.Null);
            Assert.That(new UriTemplate("a.b://{x}").Match("aXb://1"), Is.Null, "literal characters are literal");
            var two = new UriTemplate("db://{table}/{row}").Match("db://users/7");
            Assert.That(two["table"] + "|" + two["row"], Is.EqualTo("users|7"));
        }

        [Test]
        public async Task APromptGetsItsArgumentsAndRequiredOnesMustBeThere()
        {
            var catalog = SandboxCatalog();
            var result = await catalog.GetPrompt("build_and_verify", JObject.Parse("{\"target\":\"Android\"}"));
            Assert.That((string)result["messages"][0]["content"]["text"], Is.EqualTo("build_and_verify {\"target\":\"Android\"}"));
            Assert.That(await catalog.GetPrompt("fix_console_errors", null), Is.Not.Null, "an optional argument may be left out");
            var missing = TetherAssert.ThrowsAsync(ErrorCodes.InvalidParams, () => catalog.GetPrompt("build_and_verify", new JObject()));
            Assert.That((string)missing.Data["prompt"], Is.EqualTo("build_and_verify"));
            Assert.That((string)missing.Data["field"], Is.EqualTo("target"));
            var unknown = TetherAssert.ThrowsAsync(ErrorCodes.NotFound, () => catalog.GetPrompt("nope", null));
            Assert.That((string)unknown.Data["prompt"], Is.EqualTo("nope"));
        }

        private static JObject Completion(string refType, string key, string refValue, string name, string value) =>
            new JObject
            {
                ["ref"] = new JObject { ["type"] = refType, [key] = refValue },
                ["argument"] = new JObject { ["name"] = name, ["value"] = value },
            };

        [Test]
        public async Task CompletionIsBoundedToOneHundredValuesWithTheTotal()
        {
            var catalog = SandboxCatalog();
            var many = (JObject)(await catalog.Complete(Completion("ref/prompt", "name", "build_and_verify", "target", "")))["completion"];
            Assert.That(((JArray)many["values"]).Count, Is.EqualTo(100));
            Assert.That((int)many["total"], Is.EqualTo(250));
            Assert.That((bool)many["hasMore"], Is.True);
            var few = (JObject)(await catalog.Complete(Completion("ref/resource", "uri", "unity://scene/objects/{path}", "path", "Pla")))["completion"];
            JsonAssert.AreEqual(JObject.Parse("{\"values\":[\"Player\",\"Player/Camera\",\"Platform\"],\"total\":3,\"hasMore\":false}"), few);
            var none = (JObject)(await catalog.Complete(Completion("ref/resource", "uri", "unity://scene/objects/{path}", "other", "")))["completion"];
            JsonAssert.AreEqual(JObject.Parse("{\"values\":[],\"total\":0,\"hasMore\":false}"), none, "an argument without completions yields none");
        }

        [Test]
        public void CompletingSomethingUnknownIsNotFoundAndBadParamsAreInvalid()
        {
            var catalog = SandboxCatalog();
            var prompt = TetherAssert.ThrowsAsync(ErrorCodes.NotFound, () => catalog.Complete(Completion("ref/prompt", "name", "nope", "a", "")));
            Assert.That((string)prompt.Data["prompt"], Is.EqualTo("nope"));
            var template = TetherAssert.ThrowsAsync(ErrorCodes.NotFound, () => catalog.Complete(Completion("ref/resource", "uri", "unity://scene/objects/Player", "path", "")));
            Assert.That((string)template.Data["uri"], Is.EqualTo("unity://scene/objects/Player"), "ref/resource names the template, not a URI");
            var invalid = TetherAssert.ThrowsAsync(ErrorCodes.InvalidParams, () => catalog.Complete(Completion("ref/tool", "name", "x", "a", "")));
            Assert.That((string)invalid.Data["field"], Is.EqualTo("ref.type"));
            TetherAssert.ThrowsAsync(ErrorCodes.InvalidParams, () => catalog.Complete(new JObject { ["ref"] = new JObject { ["type"] = "ref/prompt", ["name"] = "x" } }));
        }

        [Test]
        public void ChangedSaysWhichListChangedAndOnlyWhenItDid()
        {
            var catalog = new Catalog();
            var changes = new List<string>();
            catalog.Changed += changes.Add;
            var resource = JObject.Parse("{\"uri\":\"a://b\",\"name\":\"b\"}");
            catalog.AddResource(resource, uri => Contents(uri, "1"));
            catalog.AddResource(resource, uri => Contents(uri, "2"));
            catalog.AddTemplate(JObject.Parse("{\"uriTemplate\":\"a://{x}\",\"name\":\"x\"}"), (uri, v) => Contents(uri, "t"));
            catalog.AddPrompt(JObject.Parse("{\"name\":\"p\"}"), args => Task.FromResult(new JObject()));
            catalog.RemovePrompt("p");
            catalog.RemovePrompt("p");
            catalog.RemoveTemplate("a://{x}");
            Assert.That(changes, Is.EqualTo(new[] { "resources", "resources", "prompts", "prompts", "resources" }));
        }

        [Test]
        public async Task AReplacedResourceReadsWithItsNewFunction()
        {
            var catalog = new Catalog();
            var resource = JObject.Parse("{\"uri\":\"a://b\",\"name\":\"b\"}");
            catalog.AddResource(resource, uri => Contents(uri, "old"));
            catalog.AddResource(resource, uri => Contents(uri, "new"));
            Assert.That((string)(await catalog.Read("a://b"))[0]["text"], Is.EqualTo("new"));
        }

        [Test]
        public void DescriptorsWithoutTheirKeysAreRefused()
        {
            var catalog = new Catalog();
            TetherAssert.Throws(ErrorCodes.InternalError, () => catalog.AddResource(JObject.Parse("{\"name\":\"b\"}"), uri => Contents(uri, "")));
            TetherAssert.Throws(ErrorCodes.InternalError, () => catalog.AddTemplate(JObject.Parse("{\"uriTemplate\":\"a://{x}\"}"), (uri, v) => Contents(uri, "")));
            TetherAssert.Throws(ErrorCodes.InternalError, () => catalog.AddPrompt(JObject.Parse("{\"name\":\"p\",\"arguments\":[{}]}"), a => Task.FromResult(new JObject())));
        }

        [Test]
        public void ResourceUpdatedTellsTheHost()
        {
            var catalog = new Catalog();
            var updated = new List<string>();
            catalog.ResourceUpdated += updated.Add;
            catalog.NotifyResourceUpdated("a://b");
            Assert.That(updated, Is.EqualTo(new[] { "a://b" }));
        }
    }
}
