using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    [TestFixture]
    public class ArgumentValidatorTests
    {
        private static ArgumentValidator Sandbox(string tool) =>
            new ArgumentValidator(tool, (JObject)Fixtures.Tool(Fixtures.Read("sandbox-tools.json"), tool)["inputSchema"]);

        private static TetherException Invalid(ArgumentValidator validator, string arguments) => Invalid(validator, JObject.Parse(arguments));

        private static TetherException Invalid(ArgumentValidator validator, JObject arguments) =>
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => validator.Validate(arguments));

        private static void AssertData(TetherException error, string tool, string field)
        {
            Assert.That((string)error.Data["tool"], Is.EqualTo(tool));
            Assert.That((string)error.Data["field"], Is.EqualTo(field));
            Assert.That(error.Data["problem"]?.Type, Is.EqualTo(JTokenType.String));
            Assert.That(error.Message, Does.StartWith("Invalid arguments for tool \"" + tool + "\": "));
            Assert.That(error.Message, Does.EndWith("Fix the field and call again; tools/list has the input schema."));
        }

        [Test]
        public void ValidArgumentsComeBackAsACopyWithDefaultsFilledIn()
        {
            var given = JObject.Parse("{\"name\":\"Crate\",\"position\":[1,2,3]}");
            var validated = Sandbox("create_gameobject").Validate(given);
            JsonAssert.AreEqual(JObject.Parse("{\"name\":\"Crate\",\"position\":[1,2,3],\"components\":[]}"), validated);
            Assert.That(given.ContainsKey("components"), Is.False, "the caller's object is left as it was");
            JsonAssert.AreEqual(JObject.Parse("{\"development\":false,\"allowOutsideProject\":false}"), Sandbox("build_player").Validate(null));
        }

        [Test]
        public void AnUnknownArgumentIsRefusedWithTheClosestNames()
        {
            var error = Invalid(Sandbox("build_player"), "{\"taget\":\"Android\"}");
            AssertData(error, "build_player", "taget");
            Assert.That((string)error.Data["problem"], Is.EqualTo("is not an argument of this tool (did you mean \"target\"?)"));
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "target" }));
        }

        [Test]
        public void AnUnknownArgumentFarFromAnyNameListsTheArguments()
        {
            var error = Invalid(Sandbox("screenshot"), "{\"zzzzzzzz\":1}");
            Assert.That((string)error.Data["problem"], Is.EqualTo("is not an argument of this tool (the arguments here are \"width\", \"height\", \"view\", \"camera\")"));
            error = Invalid(Sandbox("clear_console"), "{\"all\":true}");
            Assert.That((string)error.Data["problem"], Is.EqualTo("is not an argument of this tool (none are taken here)"));
        }

        [Test]
        public void AMisspelledRequiredArgumentIsReportedAsUnknownRatherThanMissing()
        {
            var error = Invalid(Sandbox("delete_gameobject"), "{\"pth\":\"/Player\"}");
            AssertData(error, "delete_gameobject", "pth");
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "path" }));
        }

        [Test]
        public void AMissingRequiredArgumentNamesIt()
        {
            var error = Invalid(Sandbox("execute_menu_item"), "{}");
            AssertData(error, "execute_menu_item", "menuPath");
            Assert.That((string)error.Data["problem"], Is.EqualTo("is required but missing"));
            Assert.That(error.Message, Does.Contain("\"menuPath\" is required but missing"));
        }

        [Test]
        public void AWrongTypeSaysWhichTypeIsExpected()
        {
            var error = Invalid(Sandbox("get_hierarchy"), "{\"depth\":\"deep\"}");
            AssertData(error, "get_hierarchy", "depth");
            Assert.That((string)error.Data["problem"], Is.EqualTo("must be integer"));
            Assert.That(Invalid(Sandbox("get_hierarchy"), "{\"depth\":2.5}").Data["problem"].ToString(), Is.EqualTo("must be integer"));
            Assert.That(Sandbox("get_hierarchy").Validate(JObject.Parse("{\"depth\":2.0}"))["depth"].ToObject<double>(), Is.EqualTo(2.0), "2.0 is an integer in JSON");
        }

        [Test]
        public void BoundsLengthsPatternsAndItemCountsAreChecked()
        {
            Assert.That((string)Invalid(Sandbox("get_hierarchy"), "{\"depth\":0}").Data["problem"], Is.EqualTo("must be >= 1"));
            Assert.That((string)Invalid(Sandbox("get_hierarchy"), "{\"depth\":65}").Data["problem"], Is.EqualTo("must be <= 64"));
            Assert.That((string)Invalid(Sandbox("create_gameobject"), "{\"name\":\"\"}").Data["problem"], Is.EqualTo("must NOT have fewer than 1 characters"));
            Assert.That((string)Invalid(Sandbox("create_gameobject"), "{\"name\":\"" + new string('x', 201) + "\"}").Data["problem"], Is.EqualTo("must NOT have more than 200 characters"));
            Assert.That((string)Invalid(Sandbox("create_gameobject"), "{\"name\":\"a/b\"}").Data["problem"], Is.EqualTo("must match pattern \"^[^/]*$\""));
            var items = Invalid(Sandbox("create_gameobject"), "{\"name\":\"a\",\"position\":[1,2]}");
            AssertData(items, "create_gameobject", "position");
            Assert.That((string)items.Data["problem"], Is.EqualTo("must NOT have fewer than 3 items"));
        }

        [Test]
        public void ArrayItemsAreCheckedWithTheirIndexInTheField()
        {
            var error = Invalid(Sandbox("create_gameobject"), "{\"name\":\"a\",\"position\":[1,\"two\",3]}");
            AssertData(error, "create_gameobject", "position.1");
            Assert.That((string)error.Data["problem"], Is.EqualTo("must be number"));
        }

        [Test]
        public void AnEnumValueOutsideTheListSuggestsTheClosest()
        {
            var error = Invalid(Sandbox("build_player"), "{\"target\":\"andriod\"}");
            AssertData(error, "build_player", "target");
            Assert.That((string)error.Data["problem"], Does.StartWith("must be one of \"StandaloneLinux64\", \"StandaloneWindows64\""));
            Assert.That((string)error.Data["problem"], Does.EndWith("(did you mean \"Android\"?)"));
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "Android" }));
            var nested = Invalid(Sandbox("read_console"), "{\"types\":[\"log\",\"eror\"]}");
            AssertData(nested, "read_console", "types.1");
        }

        private const string Nested = @"{
            ""type"": ""object"",
            ""properties"": {
                ""options"": {
                    ""type"": ""object"",
                    ""properties"": { ""target"": { ""type"": ""string"" }, ""retries"": { ""type"": ""integer"", ""default"": 3 } },
                    ""required"": [""target""],
                    ""additionalProperties"": false
                },
                ""mode"": { ""anyOf"": [ { ""const"": ""fast"" }, { ""const"": ""slow"" } ] },
                ""level"": { ""oneOf"": [ { ""type"": ""integer"", ""minimum"": 1 }, { ""type"": ""string"", ""enum"": [""max""] } ] },
                ""tag"": { ""type"": [""string"", ""null""] },
                ""ratio"": { ""type"": ""number"", ""exclusiveMinimum"": 0, ""exclusiveMaximum"": 1 }
            },
            ""additionalProperties"": false
        }";

        [Test]
        public void NestedFieldsAreDottedAndNestedDefaultsFilledIn()
        {
            var validator = new ArgumentValidator("deploy", JObject.Parse(Nested));
            var error = Invalid(validator, "{\"options\":{}}");
            AssertData(error, "deploy", "options.target");
            error = Invalid(validator, "{\"options\":{\"target\":\"x\",\"retires\":1}}");
            AssertData(error, "deploy", "options.retires");
            Assert.That(error.Data["suggestions"].ToObject<string[]>(), Is.EqualTo(new[] { "retries" }));
            JsonAssert.AreEqual(JObject.Parse("{\"options\":{\"target\":\"x\",\"retries\":3}}"), validator.Validate(JObject.Parse("{\"options\":{\"target\":\"x\"}}")));
        }

        [Test]
        public void ConstantsAlternativesNullAndExclusiveBounds()
        {
            var validator = new ArgumentValidator("deploy", JObject.Parse(Nested));
            Assert.That(validator.Validate(JObject.Parse("{\"mode\":\"fast\",\"level\":\"max\",\"tag\":null,\"ratio\":0.5}")), Is.Not.Null);
            var mode = Invalid(validator, "{\"mode\":\"fsat\"}");
            Assert.That((string)mode.Data["problem"], Is.EqualTo("must be one of \"fast\", \"slow\" (did you mean \"fast\"?)"));
            Assert.That((string)Invalid(validator, "{\"level\":0}").Data["problem"], Is.EqualTo("must match exactly one schema in oneOf"));
            Assert.That((string)Invalid(validator, "{\"tag\":1}").Data["problem"], Is.EqualTo("must be string,null"));
            Assert.That((string)Invalid(validator, "{\"ratio\":1}").Data["problem"], Is.EqualTo("must be < 1"));
            Assert.That((string)Invalid(validator, "{\"ratio\":0}").Data["problem"], Is.EqualTo("must be > 0"));
        }

        [Test]
        public void LocalReferencesAreFollowed()
        {
            var schema = (JObject)Fixtures.Read("sandbox-conformance-fixtures.json")["tools"][12]["inputSchema"];
            Assert.That((string)schema["$schema"], Does.Contain("2020-12"));
            var validator = new ArgumentValidator("json_schema_2020_12_tool", schema);
            Assert.That(validator.Validate(JObject.Parse("{\"name\":\"a\",\"address\":{\"street\":\"Main\",\"city\":\"X\"}}")), Is.Not.Null);
            var error = Invalid(validator, "{\"address\":{\"city\":5}}");
            AssertData(error, "json_schema_2020_12_tool", "address.city");
        }

        [Test]
        public void ARecursiveSchemaIsCheckedToABoundedDepth()
        {
            var schema = JObject.Parse("{\"type\":\"object\",\"properties\":{\"next\":{\"$ref\":\"#\"}}}");
            var validator = new ArgumentValidator("deep", schema);
            var shallow = new JObject();
            var cursor = shallow;
            for (var i = 0; i < 10; i++) cursor = (JObject)(cursor["next"] = new JObject());
            Assert.That(validator.Validate(shallow), Is.Not.Null);
            var deep = new JObject();
            cursor = deep;
            for (var i = 0; i < 500; i++) cursor = (JObject)(cursor["next"] = new JObject());
            var error = Invalid(validator, deep);
            Assert.That((string)error.Data["problem"], Does.Contain("nested too deeply"));
            var loop = new ArgumentValidator("loop", JObject.Parse("{\"$ref\":\"#\"}"));
            Assert.That((string)Invalid(loop, "{}").Data["problem"], Does.Contain("nested too deeply"));
        }

        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"text\"}}}", "unknown type")]
        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"string\",\"pattern\":\"([\"}}}", "pattern")]
        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"#/$defs/missing\"}}}", "does not resolve")]
        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":{\"$ref\":\"https://example.com/schema\"}}}", "does not resolve")]
        [TestCase("{\"type\":\"object\",\"required\":\"a\"}", "required")]
        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":{\"minLength\":-1}}}", "minLength")]
        [TestCase("{\"type\":\"object\",\"properties\":{\"a\":5}}", "not a schema")]
        public void AnUnusableSchemaIsTheToolsMistake(string schema, string reason)
        {
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => new ArgumentValidator("broken", JObject.Parse(schema)));
            Assert.That(error.Message, Does.StartWith("Tool \"broken\" has an invalid input schema: "));
            Assert.That((string)error.Data["reason"], Does.Contain(reason));
            Assert.That((string)error.Data["tool"], Is.EqualTo("broken"));
        }

        [Test]
        public void ALongStringIsCountedInCharactersNotUtf16Units()
        {
            var validator = new ArgumentValidator("emoji", JObject.Parse("{\"type\":\"object\",\"properties\":{\"s\":{\"type\":\"string\",\"maxLength\":2}}}"));
            Assert.That(validator.Validate(new JObject { ["s"] = "😀😀" }), Is.Not.Null);
            Assert.That((string)Invalid(validator, new JObject { ["s"] = "😀😀😀" }).Data["problem"], Is.EqualTo("must NOT have more than 2 characters"));
        }
    }
}
