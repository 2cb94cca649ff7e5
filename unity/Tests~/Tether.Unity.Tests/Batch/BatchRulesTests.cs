using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Tools;
using Tether.Unity.Batch;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Batch
{
    /// <summary>Which tools a batch runs: read-only ones and the edits its Undo group takes back whole.</summary>
    [TestFixture]
    public class BatchRulesTests
    {
        private static readonly RegisteredTool[] EditorTools = ToolFactory.FromAssembly(typeof(BatchTool).Assembly).ToArray();

        [Test]
        public void TheDescriptionNamesEveryAcceptedEditAndTheStepLimit()
        {
            Assert.That(BatchRules.Text, Does.Contain("the edits undo takes back whole: " + string.Join(", ", BatchRules.Edits) + " ("));
            Assert.That(BatchRules.Text, Does.Contain("At most " + BatchRules.MaxSteps + " steps."));
            var batch = EditorTools.Single(tool => tool.Name == "batch");
            Assert.That((string)batch.Descriptor["description"], Does.EndWith(BatchRules.Text));
        }

        [Test]
        public void EveryAcceptedEditIsAnEditorToolAndNeitherReadOnlyNorLongRunning()
        {
            foreach (var name in BatchRules.Edits)
            {
                var tool = EditorTools.SingleOrDefault(t => t.Name == name);
                Assert.That(tool, Is.Not.Null, name + " is no tool of the editor");
                Assert.That(tool.ReadOnly || tool.LongRunning, Is.False, name);
                Assert.That(BatchRules.RefusalOf(tool.Name, tool.ReadOnly, tool.LongRunning), Is.Null, name);
            }
        }

        [Test]
        public void EveryEditorToolIsAcceptedOnlyWhenReadOnlyOrAListedEdit()
        {
            foreach (var tool in EditorTools)
            {
                var refusal = BatchRules.RefusalOf(tool.Name, tool.ReadOnly, tool.LongRunning);
                if (refusal == null) Assert.That(tool.ReadOnly || BatchRules.Edits.Contains(tool.Name), Is.True, tool.Name);
                if (tool.LongRunning) Assert.That(refusal, Is.Not.Null, tool.Name + " is long-running");
            }
        }

        [TestCase("batch", "inside a batch")]
        [TestCase("build_player", "compiles, reloads the domain, or waits")]
        [TestCase("compile_scripts", "compiles")]
        [TestCase("play_mode", "play mode")]
        [TestCase("delete_asset", "files")]
        [TestCase("set_material", "files")]
        [TestCase("save_scene", "files")]
        [TestCase("open_scene", "which scenes")]
        [TestCase("undo", "undo history")]
        [TestCase("set_selection", "undo does not record")]
        [TestCase("screenshot", "image")]
        [TestCase("list_packages", "Package Manager")]
        public void RefusesToolsARevertCannotTakeBack(string tool, string because)
        {
            Assert.That(BatchRules.RefusalOf(tool, readOnly: tool == "screenshot" || tool == "list_packages", longRunning: false), Does.Contain(because));
        }

        [Test]
        public void AToolItDoesNotKnowIsRefusedUnlessReadOnly()
        {
            Assert.That(BatchRules.RefusalOf("make_terrain", readOnly: false, longRunning: false), Does.Contain("not one of the edits"));
            Assert.That(BatchRules.RefusalOf("bake_lighting", readOnly: true, longRunning: true), Does.Contain("long-running"));
            Assert.That(BatchRules.RefusalOf("get_terrain", readOnly: true, longRunning: false), Is.Null);
        }

        [Test]
        public void SerializedWritesAreRefusedOnAnAssetOnly()
        {
            Assert.That(BatchRules.RefusalOfArguments("set_serialized_properties", JObject.Parse("{\"target\":{\"asset\":\"Assets/Data/Goblin.asset\"}}")), Does.Contain("asset's file"));
            Assert.That(BatchRules.RefusalOfArguments("set_serialized_properties", JObject.Parse("{\"target\":{\"gameObject\":\"/Player\",\"component\":\"Rigidbody\"}}")), Is.Null);
            Assert.That(BatchRules.RefusalOfArguments("create_gameobject", JObject.Parse("{\"target\":{\"asset\":\"x\"}}")), Is.Null);
        }
    }
}
