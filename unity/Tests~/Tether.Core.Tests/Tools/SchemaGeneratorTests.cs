// Argument classes are filled in by Newtonsoft.Json, never by this code.
#pragma warning disable CS0649

using System;
using System.Collections.Generic;
using System.Runtime.Serialization;
using Newtonsoft.Json;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Core.Tests.Tools
{
    /// <summary>Argument classes that re-create the sandbox editor's tools (fixtures/sandbox-tools.json).</summary>
    internal static class SandboxArguments
    {
        public sealed class GetHierarchy
        {
            [ToolArg("Path of the subtree to return, e.g. \"/Environment\". Default: the whole scene.")]
            public string Root;

            [ToolArg("How many levels to return.", Minimum = 1, Maximum = 64)]
            public int? Depth;
        }

        public sealed class FindGameObjects
        {
            public string Name;

            [ToolArg("A component type, e.g. \"Light\".")]
            public string Component;

            public string Tag;

            [ToolArg("A path, or a glob of paths: \"*\" and \"?\" within a name, \"**\" across names, e.g. \"/Environment/*\".")]
            public string Path;

            [ToolArg(LayerDescription)]
            public string Layer;

            [ToolArg(Minimum = 1, Maximum = 1000)]
            public int Limit = 100;
        }

        internal const string LayerDescription = "A layer's name, e.g. \"Water\", or its index from 0 to 31, e.g. \"4\".";

        public enum Primitive { Cube, Sphere, Capsule, Cylinder, Plane, Quad }

        public sealed class CreateGameObject
        {
            [ToolArg("A name without \"/\" (paths are names joined by \"/\").", Required = true, MinLength = 1, MaxLength = 200, Pattern = "^[^/]*$")]
            public string Name;

            [ToolArg("Path of the parent, e.g. \"/Environment\".")]
            public string Parent;

            public Primitive? Primitive;

            [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
            public float[] Position;

            [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
            public float[] Rotation;

            [ToolArg("[x, y, z]", MinLength = 3, MaxLength = 3)]
            public float[] Scale;

            [ToolArg("Component types to add, e.g. [\"Rigidbody\"].")]
            public List<string> Components = new List<string>();

            public string Tag;

            [ToolArg(LayerDescription)]
            public string Layer;
        }

        public enum EntryType
        {
            [EnumMember(Value = "log")] Log,
            [EnumMember(Value = "warning")] Warning,
            [EnumMember(Value = "error")] Error,
        }

        public sealed class ReadConsole
        {
            [ToolArg("Only these entry types.")]
            public List<EntryType> Types;

            [ToolArg("At most this many (the newest).", Minimum = 1, Maximum = 10000)]
            public int Count = 100;

            [ToolArg("Only entries whose message contains this text.")]
            public string Filter;
        }

        public enum BuildTarget { StandaloneLinux64, StandaloneWindows64, StandaloneOSX, Android, iOS, WebGL }

        public sealed class BuildPlayer
        {
            [ToolArg("Default: the active build target (get_editor_state's buildTarget).")]
            public BuildTarget? Target;

            public bool Development;

            [ToolArg("The scenes to build, in order, e.g. [\"Assets/Scenes/Main.unity\"]. Default: the enabled scenes of the Build Settings.")]
            public List<string> Scenes;

            [ToolArg("The folder to write the player to, inside the project (default \"Builds/<target>\"); not Assets/, Library/ or another folder the editor owns.")]
            public string OutputPath;

            [ToolArg("Allow an outputPath outside the project (an absolute path you were given): the build replaces what is there.")]
            public bool AllowOutsideProject = false;

            [ToolArg("More BuildOptions, by name.", Enum = new[] { "AllowDebugging", "ConnectWithProfiler", "StrictMode", "CleanBuildCache", "DetailedBuildReport", "CompressWithLz4", "CompressWithLz4HC" })]
            public List<string> Options;
        }

        /// <summary>build_player's result (a copy of the Unity package's BuildPlayerResult: Core cannot reference it).</summary>
        public sealed class BuildPlayerResult
        {
            [ToolArg("\"succeeded\".", Required = true)]
            public string Status;

            [ToolArg("The build report's result: \"Succeeded\".", Required = true)]
            public string Result;

            [ToolArg(Enum = new[] { "StandaloneLinux64", "StandaloneWindows64", "StandaloneOSX", "Android", "iOS", "WebGL" }, Required = true)]
            public string Target;

            public bool Development;

            [ToolArg("The folder of the player: project-relative, or absolute when outside the project.", Required = true)]
            public string OutputPath;

            [ToolArg("What the build wrote there: the executable, package or folder.", Required = true)]
            public string Location;

            [ToolArg("The scenes built, in order.", Required = true)]
            public List<string> Scenes;

            [ToolArg(Required = true)]
            public List<string> Options;

            [ToolArg(Required = true)]
            public string StartedAt;

            [ToolArg(Required = true)]
            public string FinishedAt;

            // zod's int() bounds every integer to the safe range; the copy declares them so the descriptors compare whole.
            [ToolArg(Minimum = -9007199254740991, Maximum = 9007199254740991)]
            public long DurationMs;

            [ToolArg("Bytes of the build output.", Minimum = -9007199254740991, Maximum = 9007199254740991)]
            public long TotalSize;

            [ToolArg(Minimum = -9007199254740991, Maximum = 9007199254740991)]
            public int TotalErrors;

            [ToolArg(Minimum = -9007199254740991, Maximum = 9007199254740991)]
            public int TotalWarnings;
        }

        public sealed class Screenshot
        {
            [ToolArg(Minimum = 16, Maximum = 4096)]
            public int Width = 320;

            [ToolArg(Minimum = 16, Maximum = 4096)]
            public int Height = 240;

            [ToolArg("\"scene\": the Scene view; \"game\": the Game view; \"camera\": the camera named by camera.", Enum = new[] { "scene", "game", "camera" })]
            public string View = "scene";

            [ToolArg("With view \"camera\": the path of a GameObject with a Camera, e.g. \"/Main Camera\".")]
            public string Camera;
        }

        public enum PlayAction
        {
            [EnumMember(Value = "enter")] Enter,
            [EnumMember(Value = "exit")] Exit,
            [EnumMember(Value = "pause")] Pause,
            [EnumMember(Value = "resume")] Resume,
            [EnumMember(Value = "step")] Step,
        }

        public sealed class PlayMode
        {
            [ToolArg(Required = true)]
            public PlayAction Action;
        }
    }

    [TestFixture]
    public class SchemaGeneratorTests
    {
        [TestCase(typeof(SandboxArguments.GetHierarchy), "get_hierarchy")]
        [TestCase(typeof(SandboxArguments.FindGameObjects), "find_gameobjects")]
        [TestCase(typeof(SandboxArguments.CreateGameObject), "create_gameobject")]
        [TestCase(typeof(SandboxArguments.ReadConsole), "read_console")]
        [TestCase(typeof(SandboxArguments.BuildPlayer), "build_player")]
        [TestCase(typeof(SandboxArguments.Screenshot), "screenshot")]
        [TestCase(typeof(SandboxArguments.PlayMode), "play_mode")]
        [TestCase(typeof(NoArguments), "clear_console")]
        public void ArgumentClassesMakeTheSandboxsInputSchemas(Type arguments, string tool)
        {
            var expected = Fixtures.Tool(Fixtures.Read("sandbox-tools.json"), tool)["inputSchema"];
            JsonAssert.AreEqual(expected, SchemaGenerator.InputSchema(arguments), tool);
        }

        private sealed class Block
        {
            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;

            [ToolArg("Keep blocking for all of `ms` when cancelled or past the deadline, as a tool that ignores its signal.")]
            public bool? IgnoreCancel;
        }

        private sealed class Wait
        {
            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;
        }

        private sealed class Shared
        {
            [ToolArg(Required = true, MinLength = 1)]
            public string Key;

            [ToolArg(Required = true, Minimum = 0, Maximum = 600000)]
            public int Ms;
        }

        private sealed class Key
        {
            [ToolArg(Required = true, MinLength = 1)]
            public string Value;
        }

        [Test]
        public void KitArgumentClassesMakeTheSandboxsKitSchemas()
        {
            var kit = Fixtures.Read("sandbox-kit-and-catalog.json");
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_block")["inputSchema"], SchemaGenerator.InputSchema(typeof(Block)));
            var keySchema = SchemaGenerator.InputSchema(typeof(Key));
            keySchema["properties"] = new JObject { ["key"] = keySchema["properties"]["value"] };
            keySchema["required"] = new JArray("key");
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_count")["inputSchema"], keySchema);
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_reload")["inputSchema"], SchemaGenerator.InputSchema(typeof(NoArguments)));
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_wait")["inputSchema"], SchemaGenerator.InputSchema(typeof(Wait)));
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_attach")["inputSchema"], SchemaGenerator.InputSchema(typeof(Shared)));
            JsonAssert.AreEqual(Fixtures.Tool(kit, "tether_conformance_reject")["inputSchema"], SchemaGenerator.InputSchema(typeof(Shared)));
        }

        private class Base
        {
            public string First;
        }

        private sealed class Derived : Base
        {
            public string Zeta;
            public string Alpha;
            public string Middle { get; set; }
        }

        [Test]
        public void MembersComeInDeclarationOrderBaseClassFirst()
        {
            var properties = (JObject)SchemaGenerator.InputSchema(typeof(Derived))["properties"];
            Assert.That(string.Join(",", Names(properties)), Is.EqualTo("first,zeta,alpha,middle"));
        }

        private sealed class Named
        {
            [JsonProperty("the_name")] public string Renamed;
            [JsonIgnore] public string Hidden;
            public string ReadOnlyProperty => "x";
            public static string StaticIgnored = "s";
        }

        [Test]
        public void JsonPropertyNamesWinAndIgnoredOrUnsettableMembersAreLeftOut()
        {
            var schema = SchemaGenerator.InputSchema(typeof(Named));
            Assert.That(string.Join(",", Names((JObject)schema["properties"])), Is.EqualTo("the_name"));
            // An output schema describes what is written: the getter-only property is there.
            var output = SchemaGenerator.OutputSchema(typeof(Named));
            Assert.That(string.Join(",", Names((JObject)output["properties"])), Is.EqualTo("the_name,readOnlyProperty"));
        }

        private sealed class Inner
        {
            [ToolArg(Required = true)] public string Target;
            public int Retries = 2;
        }

        private sealed class Kinds
        {
            public Inner Options;
            public Dictionary<string, int> Weights;
            public JObject Extra;
            public JToken Anything;
            public long Big;
            public double Ratio;
            public Guid Id;
            public List<Inner> Many;
            public decimal? Money;
        }

        [Test]
        public void NestedClassesDictionariesJsonAndNumbersAreDescribed()
        {
            var properties = (JObject)SchemaGenerator.InputSchema(typeof(Kinds))["properties"];
            var inner = new JObject
            {
                ["type"] = "object",
                ["properties"] = new JObject { ["target"] = new JObject { ["type"] = "string" }, ["retries"] = new JObject { ["default"] = 2, ["type"] = "integer" } },
                ["required"] = new JArray("target"),
                ["additionalProperties"] = false,
            };
            JsonAssert.AreEqual(inner, properties["options"]);
            JsonAssert.AreEqual(JObject.Parse("{\"type\":\"object\",\"propertyNames\":{\"type\":\"string\"},\"additionalProperties\":{\"type\":\"integer\"}}"), properties["weights"], "as zod writes a record");
            JsonAssert.AreEqual(JObject.Parse("{\"type\":\"object\"}"), properties["extra"]);
            JsonAssert.AreEqual(new JObject(), properties["anything"]);
            JsonAssert.AreEqual(JObject.Parse("{\"default\":0,\"type\":\"integer\"}"), properties["big"]);
            JsonAssert.AreEqual(JObject.Parse("{\"default\":0.0,\"type\":\"number\"}"), properties["ratio"]);
            Assert.That((string)properties["id"]["format"], Is.EqualTo("uuid"));
            JsonAssert.AreEqual(new JObject { ["type"] = "array", ["items"] = inner }, properties["many"]);
            JsonAssert.AreEqual(JObject.Parse("{\"type\":\"number\"}"), properties["money"], "a Nullable<T> is an optional T without a default");
        }

        private sealed class Result
        {
            [ToolArg("What happened")] public string Status;
            public int Count;
            public bool? Maybe;
            [ToolArg(Required = true)] public string Path;
        }

        [Test]
        public void OutputSchemasRequireValueTypesAndMarkedMembersAndAllowOtherKeys()
        {
            var expected = JObject.Parse(@"{
                ""type"": ""object"",
                ""properties"": {
                    ""status"": { ""description"": ""What happened"", ""type"": ""string"" },
                    ""count"": { ""type"": ""integer"" },
                    ""maybe"": { ""type"": ""boolean"" },
                    ""path"": { ""type"": ""string"" }
                },
                ""required"": [""count"", ""path""]
            }");
            JsonAssert.AreEqual(expected, SchemaGenerator.OutputSchema(typeof(Result)));
        }

        private sealed class Loop
        {
            public Loop Next;
        }

        private sealed class BadBounds
        {
            [ToolArg(Minimum = 1)] public string Text;
        }

        private sealed class BadPattern
        {
            [ToolArg(Pattern = "([a-z")] public string Text;
        }

        private sealed class NoDefaultConstructor
        {
            public NoDefaultConstructor(int value) { Value = value; }
            public int Value;
        }

        private sealed class Unsupported
        {
            public Action Callback;
        }

        [Flags] private enum Options { None = 0, A = 1, B = 2 }

        private sealed class FlagsMember
        {
            public Options Options;
        }

        [TestCase(typeof(Loop), "contains itself")]
        [TestCase(typeof(BadBounds), "Minimum and Maximum")]
        [TestCase(typeof(BadPattern), "not a valid regular expression")]
        [TestCase(typeof(NoDefaultConstructor), "constructor without parameters")]
        [TestCase(typeof(Unsupported), "cannot describe as JSON Schema")]
        [TestCase(typeof(FlagsMember), "[Flags] enum")]
        [TestCase(typeof(string), "must be an object")]
        [TestCase(typeof(List<int>), "must be an object")]
        public void TypesThatCannotBeDescribedAreRefusedWithAReason(Type type, string reason)
        {
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => SchemaGenerator.InputSchema(type));
            Assert.That(error.Message, Does.Contain(reason));
        }

        [Test]
        public void SchemasAreTheSameOnEveryCall()
        {
            Assert.That(SchemaGenerator.InputSchema(typeof(SandboxArguments.CreateGameObject)).ToString(),
                Is.EqualTo(SchemaGenerator.InputSchema(typeof(SandboxArguments.CreateGameObject)).ToString()));
        }

        private static IEnumerable<string> Names(JObject properties)
        {
            foreach (var property in properties.Properties()) yield return property.Name;
        }
    }
}
