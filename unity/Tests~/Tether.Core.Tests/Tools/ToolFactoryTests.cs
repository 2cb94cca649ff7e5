// Argument classes are filled in by Newtonsoft.Json, never by this code.
#pragma warning disable CS0649

using System;
using System.Collections.Generic;
using System.Linq;
using System.Reflection;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Core.Tests.Calls.Support;

namespace Tether.Core.Tests.Tools
{
    /// <summary>Tools as a project writes them: the sandbox's build_player and get_hierarchy, and the other shapes a method may take.</summary>
    internal static class FactoryTestTools
    {
        public static SandboxArguments.BuildPlayer LastBuild;

        /// <summary>A small declared output, for the output checks.</summary>
        public sealed class BuildResult
        {
            public string Status;
            public string OutputPath;
        }

        [TetherTool("build_player", Title = "Build player",
            Description = "Builds a player for a target platform. Blocks the editor main thread for the whole build (minutes on real projects) and is NOT idempotent: every run produces a new build. An identical call made while one is queued or running shares that build instead of starting another.",
            ReadOnly = false, Destructive = false, Idempotent = false, LongRunning = true, DeadlineMs = 3600000, Duplicates = "attach", Output = typeof(SandboxArguments.BuildPlayerResult))]
        public static object BuildPlayer(SandboxArguments.BuildPlayer args, IToolContext context)
        {
            LastBuild = args;
            context.Progress(1, 2, "building");
            var target = args.Target.ToString();
            return new SandboxArguments.BuildPlayerResult
            {
                Status = "succeeded", Result = "Succeeded", Target = target, OutputPath = "Builds/" + target, Location = "Builds/" + target + "/Player",
                Scenes = new List<string>(), Options = new List<string>(), StartedAt = "2026-01-01T00:00:00Z", FinishedAt = "2026-01-01T00:00:01Z", DurationMs = 1000,
            };
        }

        [TetherTool("get_hierarchy", Title = "Get scene hierarchy",
            Description = "Returns the GameObject tree of the open scene: names, paths, active flags, component types, and which GameObjects are part of a prefab instance.",
            ReadOnly = true, Idempotent = true)]
        private static async Task<string> GetHierarchy(SandboxArguments.GetHierarchy args)
        {
            await Task.Yield();
            return "depth " + (args.Depth?.ToString() ?? "all") + " under " + (args.Root ?? "/");
        }

        [TetherTool("context_only", Description = "Takes only the context.", MainThread = false)]
        public static string ContextOnly(IToolContext context) => context.CallId;

        [TetherTool("nothing", Description = "Takes nothing and returns nothing.")]
        public static void Nothing() { }

        [TetherTool("plain_task", Description = "Returns a Task.")]
        public static Task PlainTask() => Task.Delay(1);

        [TetherTool("throws", Description = "Always fails.")]
        public static string Fails() => throw new InvalidOperationException("the build machine is on fire");

        [TetherTool("throws_later", Description = "Fails after an await.")]
        public static async Task<string> FailsLater()
        {
            await Task.Yield();
            throw new TetherException(ErrorCodes.PathOutsideProject, "outside", new JObject { ["path"] = "/etc" });
        }

        [TetherTool("raw", Description = "Takes any object.")]
        public static JObject Raw(JObject args) => new JObject { ["echo"] = args };

        public sealed class Small
        {
            public int Count;
        }

        [TetherTool("small", Description = "Takes an int.")]
        public static int TakesSmall(Small args) => args.Count;

        [TetherTool("checked_output", Description = "Declares its output.", Output = typeof(BuildResult))]
        public static object CheckedOutput(Small args) => args.Count == 0 ? (object)new BuildResult { Status = "ok" } : new { status = 5 };
    }

    /// <summary>Declarations a tool author can get wrong (scanned only by the refusal tests).</summary>
    internal static class BadTools
    {
        [TetherTool("bad name!", Description = "x")] public static void BadName() { }
        [TetherTool("scene.load", Description = "x")] public static void DottedName() { }
        [TetherTool("a_name_of_sixty_five_characters_is_one_more_than_claude_desktop_t", Description = "x")] public static void LongName() { }
        [TetherTool("tether_status", Description = "x")] public static void ReservedName() { }
        [TetherTool("Tether_Build", Description = "x")] public static void ReservedNameOtherCase() { }
        [TetherTool("no_description")] public static void NoDescription() { }
        [TetherTool("bad_duplicates", Description = "x", Duplicates = "share")] public static void BadDuplicates() { }
        [TetherTool("negative_deadline", Description = "x", DeadlineMs = -1)] public static void NegativeDeadline() { }
        [TetherTool("two_args", Description = "x")] public static void TwoArgs(FactoryTestTools.Small a, FactoryTestTools.Small b) { }
        [TetherTool("context_first", Description = "x")] public static void ContextFirst(IToolContext c, FactoryTestTools.Small a) { }
        [TetherTool("by_ref", Description = "x")] public static void ByRef(ref FactoryTestTools.Small a) { }
        [TetherTool("value_task", Description = "x")] public static ValueTask<int> ReturnsValueTask() => new ValueTask<int>(1);
        [TetherTool("string_args", Description = "x")] public static void StringArgs(string text) { }
        [TetherTool("generic", Description = "x")] public static void Generic<T>() { }
        [TetherTool("enumerator", Description = "x")] public static System.Collections.IEnumerator Coroutine() { yield break; }
    }

    internal sealed class InstanceTools
    {
        [TetherTool("instance", Description = "x")] public void Instance() { }
    }

    internal static class DuplicateNames
    {
        [TetherTool("same", Description = "first")] public static void First() { }
        [TetherTool("same", Description = "second")] public static void Second() { }
    }

    [TestFixture]
    public class ToolFactoryTests
    {
        private static RegisteredTool Tool(string method) =>
            ToolFactory.FromMethod(typeof(FactoryTestTools).GetMethod(method, BindingFlags.Public | BindingFlags.NonPublic | BindingFlags.Static));

        private static async Task<JObject> Call(RegisteredTool tool, JObject arguments, IToolContext context = null)
        {
            var validated = tool.Validate(arguments);
            return tool.ToResult(await tool.Invoke(validated, context ?? new FakeToolContext()));
        }

        [TestCase("BuildPlayer", "build_player")]
        [TestCase("GetHierarchy", "get_hierarchy")]
        public void AMethodToolHasTheSandboxsDescriptor(string method, string name)
        {
            var expected = Fixtures.Tool(Fixtures.Read("sandbox-tools.json"), name);
            JsonAssert.AreEqual(expected, Tool(method).Descriptor, name);
        }

        [Test]
        public void RegisteredToolReadsItsPolicyFromTheDescriptor()
        {
            var build = Tool("BuildPlayer");
            Assert.That(build.DuplicatePolicy, Is.EqualTo("attach"));
            Assert.That(build.DeadlineMs, Is.EqualTo(3600000));
            Assert.That(build.LongRunning, Is.True);
            var hierarchy = Tool("GetHierarchy");
            Assert.That(hierarchy.ReadOnly, Is.True);
            Assert.That(hierarchy.DuplicatePolicy, Is.EqualTo("allow"));
            Assert.That(Tool("ContextOnly").MainThread, Is.False);
        }

        // protocol.md §8.10: an agent making identical short calls at once (two undos) means each;
        // only a long-running tool with side effects is shared when it does not say.
        [TestCase(false, false, false, null, "allow")]
        [TestCase(true, false, false, null, "attach")]
        [TestCase(true, true, false, null, "allow")]
        [TestCase(true, false, true, null, "allow")]
        [TestCase(false, false, false, "attach", "attach")]
        [TestCase(true, false, false, "reject", "reject")]
        public void TheDefaultDuplicatePolicySharesOnlyLongRunningToolsWithSideEffects(bool longRunning, bool readOnly, bool idempotent, string declared, string expected)
        {
            var execution = new JObject { ["longRunning"] = longRunning };
            if (declared != null) execution["duplicates"] = declared;
            var tool = TestTools.Make("t", (args, ctx) => Task.FromResult<object>("done"), new JObject { ["readOnlyHint"] = readOnly, ["idempotentHint"] = idempotent }, execution);
            Assert.That(tool.DuplicatePolicy, Is.EqualTo(expected));
        }

        [Test]
        public async Task ArgumentsAreValidatedThenReadIntoTheClass()
        {
            var context = new FakeToolContext();
            var result = await Call(Tool("BuildPlayer"), JObject.Parse("{\"target\":\"Android\"}"), context);
            Assert.That(FactoryTestTools.LastBuild.Target, Is.EqualTo(SandboxArguments.BuildTarget.Android));
            Assert.That(FactoryTestTools.LastBuild.Development, Is.False);
            Assert.That((string)result["structuredContent"]["status"], Is.EqualTo("succeeded"));
            Assert.That((string)result["structuredContent"]["outputPath"], Is.EqualTo("Builds/Android"));
            Assert.That(context.ProgressReports.Single().Message, Is.EqualTo("building"));
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Tool("BuildPlayer").Validate(JObject.Parse("{\"target\":\"Switch\"}")));
        }

        [Test]
        public async Task EveryMethodShapeRuns()
        {
            Assert.That((string)(await Call(Tool("GetHierarchy"), JObject.Parse("{\"depth\":2}")))["content"][0]["text"], Is.EqualTo("depth 2 under /"));
            Assert.That((string)(await Call(Tool("ContextOnly"), null, new FakeToolContext { CallId = "c-9" }))["content"][0]["text"], Is.EqualTo("c-9"));
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[]}"), await Call(Tool("Nothing"), new JObject()));
            JsonAssert.AreEqual(JObject.Parse("{\"content\":[]}"), await Call(Tool("PlainTask"), new JObject()));
            var raw = await Call(Tool("Raw"), JObject.Parse("{\"any\":[1]}"));
            JsonAssert.AreEqual(JObject.Parse("{\"echo\":{\"any\":[1]}}"), raw["structuredContent"]);
            Assert.That((string)(await Call(Tool("TakesSmall"), JObject.Parse("{\"count\":7}")))["content"][0]["text"], Is.EqualTo("7"));
        }

        [Test]
        public void AToolsOwnExceptionComesThroughUnwrapped()
        {
            var error = Assert.ThrowsAsync<InvalidOperationException>(() => Tool("Fails").Invoke(new JObject(), new FakeToolContext()));
            Assert.That(error.Message, Is.EqualTo("the build machine is on fire"));
            var typed = TetherAssert.ThrowsAsync(ErrorCodes.PathOutsideProject, () => Tool("FailsLater").Invoke(new JObject(), new FakeToolContext()));
            Assert.That((string)typed.Data["path"], Is.EqualTo("/etc"));
        }

        [Test]
        public void AValueTheSchemaAllowsButTheClassCannotHoldIsRefusedAtValidation()
        {
            var error = TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Tool("TakesSmall").Validate(JObject.Parse("{\"count\":3000000000}")));
            Assert.That((string)error.Data["field"], Is.EqualTo("count"));
            Assert.That((string)error.Data["problem"], Does.StartWith("cannot be read by the tool"));
        }

        [Test]
        public async Task ADeclaredOutputIsAdvertisedAndHeldToResults()
        {
            var tool = Tool("CheckedOutput");
            JsonAssert.AreEqual(SchemaGenerator.OutputSchema(typeof(FactoryTestTools.BuildResult)), tool.Descriptor["outputSchema"]);
            Assert.That((string)(await Call(tool, JObject.Parse("{\"count\":0}")))["structuredContent"]["status"], Is.EqualTo("ok"));
            var returned = await tool.Invoke(tool.Validate(JObject.Parse("{\"count\":1}")), new FakeToolContext());
            var error = TetherAssert.Throws(ErrorCodes.ToolFailed, () => tool.ToResult(returned));
            Assert.That((string)error.Data["problem"], Does.Contain("structuredContent.status must be string"));
        }

        [TestCase("BadName", "a tool name is 1 to 64")]
        [TestCase("DottedName", "a tool name is 1 to 64 letters, digits, \"_\" or \"-\": Claude Desktop takes no other")]
        [TestCase("LongName", "a tool name is 1 to 64")]
        [TestCase("ReservedName", "names starting with \"tether_\" are Tether's own")]
        [TestCase("ReservedNameOtherCase", "names starting with \"tether_\" are Tether's own")]
        [TestCase("NoDescription", "no Description")]
        [TestCase("BadDuplicates", "not one of \"attach\", \"reject\" or \"allow\"")]
        [TestCase("NegativeDeadline", "DeadlineMs is negative")]
        [TestCase("TwoArgs", "a tool method takes")]
        [TestCase("ContextFirst", "a tool method takes")]
        [TestCase("ByRef", "ref or out")]
        [TestCase("ReturnsValueTask", "ValueTask")]
        [TestCase("StringArgs", "must be an object")]
        [TestCase("Generic", "generic")]
        [TestCase("Coroutine", "IEnumerator")]
        public void BadDeclarationsAreRefusedAsTheToolIsMade(string method, string reason)
        {
            var info = typeof(BadTools).GetMethod(method, BindingFlags.Public | BindingFlags.Static);
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => ToolFactory.FromMethod(info));
            Assert.That(error.Message, Does.Contain("cannot be added: "));
            Assert.That(error.Message, Does.Contain(reason));
            Assert.That((string)error.Data["method"], Does.EndWith("BadTools." + method));
        }

        [Test]
        public void AnInstanceMethodIsRefused()
        {
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => ToolFactory.FromMethod(typeof(InstanceTools).GetMethod("Instance")));
            Assert.That(error.Message, Does.Contain("not static"));
        }

        [Test]
        public void FromTypeTakesEveryMarkedMethodInDeclarationOrder()
        {
            var names = ToolFactory.FromType(typeof(FactoryTestTools)).Select(t => t.Name).ToList();
            Assert.That(names, Is.EqualTo(new[] { "build_player", "get_hierarchy", "context_only", "nothing", "plain_task", "throws", "throws_later", "raw", "small", "checked_output" }));
            TetherAssert.Throws(ErrorCodes.InternalError, () => ToolFactory.FromType(typeof(BadTools)));
        }

        [Test]
        public void FromAssemblyReportsRefusalsAndKeepsTheRest()
        {
            var refused = new List<TetherException>();
            var tools = ToolFactory.FromAssembly(typeof(ToolFactoryTests).Assembly, refused.Add).Select(t => t.Name).ToList();
            Assert.That(tools, Does.Contain("build_player").And.Contain("same"));
            Assert.That(tools.Count(n => n == "same"), Is.EqualTo(1), "a second tool of a name is refused");
            Assert.That(refused.Select(e => (string)e.Data["tool"]), Does.Contain("bad name!").And.Contain("instance").And.Contain("same"));
            Assert.That(ToolFactory.FromAssembly(typeof(object).Assembly), Is.Empty, "an assembly that does not reference Tether holds no tools");
        }

        [Test]
        public void FromAssembliesRefusesANameTakenInAnotherAssembly()
        {
            var refused = new List<TetherException>();
            var assembly = typeof(ToolFactoryTests).Assembly;
            var tools = ToolFactory.FromAssemblies(new[] { assembly, assembly }, refused.Add);
            Assert.That(tools.Select(t => t.Name).Distinct().Count(), Is.EqualTo(tools.Count));
        }

        [Test]
        public async Task FromDescriptorCompletesTheDescriptorAndValidatesWithItsSchema()
        {
            var descriptor = JObject.Parse("{\"name\":\"remote\",\"description\":\"Runs elsewhere.\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"n\":{\"type\":\"integer\",\"default\":1}},\"additionalProperties\":false}}");
            JObject received = null;
            var tool = ToolFactory.FromDescriptor(descriptor, (args, context) =>
            {
                received = args;
                return Task.FromResult<object>("done");
            });
            JsonAssert.AreEqual(JObject.Parse("{\"longRunning\":false,\"mainThread\":true}"), tool.Descriptor["execution"]);
            JsonAssert.AreEqual(new JObject(), tool.Descriptor["annotations"]);
            Assert.That(descriptor["execution"], Is.Null, "the caller's descriptor is left as it was");
            Assert.That((string)(await Call(tool, new JObject()))["content"][0]["text"], Is.EqualTo("done"));
            Assert.That((int)received["n"], Is.EqualTo(1));
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => tool.Validate(JObject.Parse("{\"m\":1}")));
        }

        [TestCase("{\"name\":\"x y\",\"description\":\"d\"}", "a tool name is 1 to 64")]
        [TestCase("{\"name\":\"scene.load\",\"description\":\"d\"}", "a tool name is 1 to 64")]
        [TestCase("{\"name\":\"tether_use_host\",\"description\":\"d\"}", "names starting with \"tether_\" are Tether's own")]
        [TestCase("{\"name\":\"TETHER_CONFORMANCE_COUNT\",\"description\":\"d\"}", "names starting with \"tether_\" are Tether's own")]
        [TestCase("{\"name\":\"x\"}", "no \"description\"")]
        [TestCase("{\"name\":\"x\",\"description\":\"d\",\"inputSchema\":{\"type\":\"string\"}}", "object's schema")]
        [TestCase("{\"name\":\"x\",\"description\":\"d\",\"inputSchema\":{\"type\":\"object\",\"properties\":{\"a\":{\"type\":\"strang\"}}}}", "invalid input schema")]
        [TestCase("{\"name\":\"x\",\"description\":\"d\",\"execution\":{\"duplicates\":\"twice\"}}", "Duplicates")]
        [TestCase("{\"name\":\"x\",\"description\":\"d\",\"execution\":{\"deadlineMs\":0}}", "deadlineMs")]
        [TestCase("{\"name\":\"x\",\"description\":\"d\",\"annotations\":{\"readOnlyHint\":\"yes\"}}", "readOnlyHint")]
        public void FromDescriptorRefusesBadDescriptors(string descriptor, string reason)
        {
            var error = TetherAssert.Throws(ErrorCodes.InternalError, () => ToolFactory.FromDescriptor(JObject.Parse(descriptor), (a, c) => Task.FromResult<object>(null)));
            Assert.That(error.Message, Does.Contain(reason));
        }

        [Test]
        public void TakesNamesEveryMcpClientTakesAndTheConformanceKitsOwn()
        {
            // 64 characters, the longest Claude Desktop takes; the kit's names are Tether's, which a host exposes when asked (protocol.md §15).
            foreach (var name in new[] { new string('x', 64), "Scene-Load_2", "tether_conformance_count", "tether_conformance_wait" })
            {
                var descriptor = new JObject { ["name"] = name, ["description"] = "d" };
                Assert.That(ToolFactory.FromDescriptor(descriptor, (a, c) => Task.FromResult<object>(null)).Name, Is.EqualTo(name));
            }
            var tooLong = TetherAssert.Throws(ErrorCodes.InternalError, () => ToolFactory.FromDescriptor(new JObject { ["name"] = new string('x', 65), ["description"] = "d" }, (a, c) => Task.FromResult<object>(null)));
            Assert.That((string)tooLong.Data["tool"], Is.EqualTo(new string('x', 65)));
        }

        [Test]
        public async Task CreateMakesAToolFromAFunction()
        {
            var count = 0;
            var tool = ToolFactory.Create<FactoryTestTools.Small>(
                new TetherToolAttribute("adder") { Description = "Adds.", Idempotent = true },
                (args, context) => count += args.Count);
            JsonAssert.AreEqual(JObject.Parse("{\"idempotentHint\":true}"), tool.Descriptor["annotations"]);
            await Call(tool, JObject.Parse("{\"count\":2}"));
            await Call(tool, JObject.Parse("{\"count\":3}"));
            Assert.That(count, Is.EqualTo(5));
            var asynchronous = ToolFactory.CreateAsync<NoArguments>(new TetherToolAttribute("later") { Description = "Later." }, async (args, context) =>
            {
                await Task.Yield();
                return "later";
            });
            Assert.That((string)(await Call(asynchronous, null))["content"][0]["text"], Is.EqualTo("later"));
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => asynchronous.Validate(JObject.Parse("{\"x\":1}")));
        }
    }
}
