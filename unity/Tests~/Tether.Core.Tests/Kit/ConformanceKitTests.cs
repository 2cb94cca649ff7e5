using System;
using System.Diagnostics;
using System.IO;
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
    public class ConformanceKitTests
    {
        private sealed class Editor : IConformanceEditor
        {
            public string ProjectPath { get; set; }
            public int Reloads;
            public void RequestReload() => Reloads++;
        }

        private string _project;
        private Editor _editor;

        [SetUp]
        public void MakeProject()
        {
            _project = Path.Combine(Path.GetTempPath(), "tether-kit-" + Guid.NewGuid().ToString("N"));
            Directory.CreateDirectory(_project);
            _editor = new Editor { ProjectPath = _project };
        }

        [TearDown]
        public void RemoveProject()
        {
            if (Directory.Exists(_project)) Directory.Delete(_project, true);
        }

        private RegisteredTool Kit(string name) => ConformanceKit.Tools(_editor).Single(t => t.Name == name);

        private static async Task<JObject> Call(RegisteredTool tool, JObject arguments, IToolContext context = null) =>
            tool.ToResult(await tool.Invoke(tool.Validate(arguments), context ?? new FakeToolContext()));

        [Test]
        public void TheKitIsDeclaredExactlyAsTheSandboxDeclaresIt()
        {
            var expected = (JArray)Fixtures.Read("sandbox-kit-and-catalog.json")["tools"];
            JsonAssert.AreEqual(expected, new JArray(ConformanceKit.Tools(_editor).Select(t => t.Descriptor)));
            Assert.That(ConformanceKit.Tools(_editor).Select(t => t.DuplicatePolicy), Is.EqualTo(new[] { "allow", "allow", "allow", "allow", "allow", "attach", "reject" }));
            Assert.That(ConformanceKit.Tools(_editor).Where(t => !t.MainThread).Select(t => t.Name), Is.EqualTo(new[] { "tether_conformance_wait" }));
        }

        [Test]
        public async Task CountersPersistOnDiskAcrossReloads()
        {
            var first = await Call(Kit("tether_conformance_count"), JObject.Parse("{\"key\":\"a\"}"));
            JsonAssert.AreEqual(JObject.Parse("{\"key\":\"a\",\"count\":1}"), first["structuredContent"]);
            await Call(Kit("tether_conformance_count"), JObject.Parse("{\"key\":\"a\"}"));
            await Call(Kit("tether_conformance_count"), JObject.Parse("{\"key\":\"b\"}"));
            // A fresh kit, as after a domain reload, reads what the last one wrote.
            var read = await Call(ConformanceKit.Tools(_editor).Single(t => t.Name == "tether_conformance_read"), JObject.Parse("{\"key\":\"a\"}"));
            JsonAssert.AreEqual(JObject.Parse("{\"key\":\"a\",\"count\":2}"), read["structuredContent"]);
            JsonAssert.AreEqual(JObject.Parse("{\"key\":\"never\",\"count\":0}"), (await Call(Kit("tether_conformance_read"), JObject.Parse("{\"key\":\"never\"}")))["structuredContent"]);
            var file = Path.Combine(_project, "Library", "Tether", "conformance-counters.json");
            JsonAssert.AreEqual(JObject.Parse("{\"a\":2,\"b\":1}"), JObject.Parse(File.ReadAllText(file)));
            Assert.That(Directory.GetFiles(Path.GetDirectoryName(file)), Is.EqualTo(new[] { file }), "no temporary file is left behind");
        }

        [Test]
        public async Task ADamagedCounterFileCountsAsNone()
        {
            var folder = Path.Combine(_project, "Library", "Tether");
            Directory.CreateDirectory(folder);
            File.WriteAllText(Path.Combine(folder, "conformance-counters.json"), "{ half");
            var result = await Call(Kit("tether_conformance_count"), JObject.Parse("{\"key\":\"a\"}"));
            Assert.That((long)result["structuredContent"]["count"], Is.EqualTo(1));
        }

        [Test]
        public void AnEmptyKeyIsRefused()
        {
            var error = TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Kit("tether_conformance_count").Validate(JObject.Parse("{\"key\":\"\"}")));
            Assert.That((string)error.Data["field"], Is.EqualTo("key"));
            TetherAssert.Throws(ErrorCodes.InvalidArguments, () => Kit("tether_conformance_block").Validate(JObject.Parse("{\"ms\":600001}")));
        }

        [Test]
        public async Task BlockBlocksTheCallingThreadForItsTime()
        {
            var clock = Stopwatch.StartNew();
            var result = await Call(Kit("tether_conformance_block"), JObject.Parse("{\"ms\":120}"));
            Assert.That(clock.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(120));
            Assert.That((long)result["structuredContent"]["blockedMs"], Is.GreaterThanOrEqualTo(120));
        }

        [Test]
        public void BlockStopsEarlyWhenCancelled()
        {
            var context = new FakeToolContext();
            context.CancelAfter(50);
            var clock = Stopwatch.StartNew();
            var error = TetherAssert.ThrowsAsync(ErrorCodes.Cancelled, () => Kit("tether_conformance_block").Invoke(JObject.Parse("{\"ms\":600000}"), context));
            Assert.That(clock.ElapsedMilliseconds, Is.LessThan(5000));
            Assert.That((bool)error.Data["started"], Is.True);
            Assert.That(error.Message, Does.StartWith("Blocking call cancelled after "));
        }

        [Test]
        public async Task BlockToldToIgnoreItsCancellationBlocksItsWholeTime()
        {
            var context = new FakeToolContext();
            context.CancelAfter(20);
            var clock = Stopwatch.StartNew();
            var result = await Call(Kit("tether_conformance_block"), JObject.Parse("{\"ms\":300,\"ignoreCancel\":true}"), context);
            Assert.That(clock.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(300));
            Assert.That((long)result["structuredContent"]["blockedMs"], Is.GreaterThanOrEqualTo(300));
        }

        [Test]
        public async Task WaitWaitsItsTime()
        {
            var clock = Stopwatch.StartNew();
            var result = await Call(Kit("tether_conformance_wait"), JObject.Parse("{\"ms\":120}"));
            Assert.That(clock.ElapsedMilliseconds, Is.GreaterThanOrEqualTo(120));
            Assert.That((long)result["structuredContent"]["waitedMs"], Is.GreaterThanOrEqualTo(120));
        }

        [TestCase("tether_conformance_attach")]
        [TestCase("tether_conformance_reject")]
        public async Task TheSharedToolsCountThenBlock(string tool)
        {
            var first = await Call(Kit(tool), JObject.Parse("{\"key\":\"s\",\"ms\":50}"));
            Assert.That((long)first["structuredContent"]["count"], Is.EqualTo(1));
            Assert.That((long)first["structuredContent"]["blockedMs"], Is.GreaterThanOrEqualTo(50));
            var context = new FakeToolContext();
            context.CancelAfter(50);
            TetherAssert.ThrowsAsync(ErrorCodes.Cancelled, () => Kit(tool).Invoke(JObject.Parse("{\"key\":\"s\",\"ms\":600000}"), context));
            // The cancelled run counted too: one count per execution, whatever its end.
            JsonAssert.AreEqual(JObject.Parse("{\"key\":\"s\",\"count\":2}"), (await Call(Kit("tether_conformance_read"), JObject.Parse("{\"key\":\"s\"}")))["structuredContent"]);
        }

        [Test]
        public async Task ReloadAnswersThenAsksTheEditorToReload()
        {
            var result = await Call(Kit("tether_conformance_reload"), new JObject());
            JsonAssert.AreEqual(JObject.Parse("{\"reloading\":true}"), result["structuredContent"]);
            Assert.That(_editor.Reloads, Is.EqualTo(1));
        }
    }
}
