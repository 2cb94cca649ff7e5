using System.Collections.Generic;
using System.IO;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tools;
using Tether.Unity.Tests.Support;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Tools
{
    /// <summary>
    /// The Unity package offers the sandbox editor's tools under the same names, with the same
    /// argument schemas, output schemas, titles, annotations and execution hints
    /// (fixtures/sandbox-tools.json is what the sandbox declares: scripts/dump-sandbox-tools.mjs
    /// writes it and test/sandbox/tool-snapshot.test.ts checks it), so an agent that learned one
    /// editor drives the other.
    ///
    /// Normalized before comparing, because zod and the C# generator legitimately spell the same
    /// schema differently: the order of keys in every object (JSON objects are unordered; zod
    /// writes "description" where .describe() was called, the C# generator first), and, in output
    /// schemas only, the bounds zod puts on every integer (±(2^53-1), what a JavaScript number
    /// holds exactly; a C# int is narrower). Nothing else:
    /// types, bounds, enums, defaults, required lists and additionalProperties must be equal.
    /// Descriptions of the tools themselves may differ where the sandbox's would be untrue of
    /// Unity; those are listed in <see cref="UnityDescriptions"/>.
    /// </summary>
    [TestFixture]
    public class SandboxParityTests
    {
        /// <summary>Tools whose description says what Unity does where it differs from the sandbox.</summary>
        private static readonly Dictionary<string, string> UnityDescriptions = new Dictionary<string, string>
        {
            // The project's tools are [TetherTool] methods in any Editor assembly, not Assets/Editor/Tools.
            ["compile_scripts"] = "Compiles the project scripts (including the project's [TetherTool] methods).",
            // Unity renders through a camera, not a top-down map.
            ["screenshot"] = "Renders the scene view (the main camera when no Scene view is open)",
        };

        private static JObject Sandbox(string name) =>
            (JObject)JObject.Parse(File.ReadAllText(RepoPaths.Fixture("sandbox-tools.json")))["tools"].Single(t => (string)t["name"] == name);

        private static List<RegisteredTool> UnityTools() => ToolFactory.FromAssembly(typeof(SceneReadTools).Assembly).ToList();

        private static IEnumerable<string> SandboxNames() =>
            JObject.Parse(File.ReadAllText(RepoPaths.Fixture("sandbox-tools.json")))["tools"].Select(t => (string)t["name"]);

        [Test]
        public void TheUnityAssemblyDeclaresExactlyTheSandboxsTools()
        {
            Assert.That(UnityTools().Select(t => t.Name).OrderBy(n => n), Is.EqualTo(SandboxNames().OrderBy(n => n)));
        }

        [TestCaseSource(nameof(SandboxNames))]
        public void SameSchemaTitleAnnotationsAndExecution(string name)
        {
            var sandbox = Sandbox(name);
            var unity = UnityTools().Single(t => t.Name == name).Descriptor;
            AssertSame(unity["inputSchema"], sandbox["inputSchema"], name + " inputSchema");
            AssertSame(WithoutSafeIntegerBounds(unity["outputSchema"]), WithoutSafeIntegerBounds(sandbox["outputSchema"]), name + " outputSchema");
            AssertSame(unity["annotations"], sandbox["annotations"], name + " annotations");
            AssertSame(unity["execution"], sandbox["execution"], name + " execution");
            Assert.That((string)unity["title"], Is.EqualTo((string)sandbox["title"]), name + " title");
            if (UnityDescriptions.TryGetValue(name, out var unityText))
            {
                Assert.That((string)unity["description"], Does.Contain(unityText), name + " description");
            }
            else
            {
                Assert.That((string)unity["description"], Is.EqualTo((string)sandbox["description"]), name + " description");
            }
        }

        private static void AssertSame(JToken actual, JToken expected, string what)
        {
            var a = Normalize(actual);
            var e = Normalize(expected);
            Assert.That(JToken.DeepEquals(a, e), Is.True, what + " differs.\nUnity:   " + a.ToString(Newtonsoft.Json.Formatting.None) + "\nSandbox: " + e.ToString(Newtonsoft.Json.Formatting.None));
        }

        private const long MaxSafeInteger = 9007199254740991;

        /// <summary>An output schema without zod's ±(2^53-1) on integers.</summary>
        private static JToken WithoutSafeIntegerBounds(JToken schema)
        {
            if (schema == null) return null;
            var copy = schema.DeepClone();
            var nodes = copy is JContainer container ? container.DescendantsAndSelf() : new[] { copy };
            foreach (var node in nodes.OfType<JObject>().ToList())
            {
                if (!(node["type"] is JValue type) || (string)type != "integer") continue;
                if (node["minimum"] is JValue min && min.Type == JTokenType.Integer && (long)min == -MaxSafeInteger) node.Remove("minimum");
                if (node["maximum"] is JValue max && max.Type == JTokenType.Integer && (long)max == MaxSafeInteger) node.Remove("maximum");
            }
            return copy;
        }

        /// <summary>The same JSON with every object's keys in ordinal order.</summary>
        private static JToken Normalize(JToken token)
        {
            switch (token)
            {
                case JObject obj:
                    var sorted = new JObject();
                    foreach (var property in obj.Properties().OrderBy(p => p.Name, System.StringComparer.Ordinal)) sorted[property.Name] = Normalize(property.Value);
                    return sorted;
                case JArray array:
                    return new JArray(array.Select(Normalize));
                default:
                    return token?.DeepClone() ?? JValue.CreateNull();
            }
        }
    }
}
