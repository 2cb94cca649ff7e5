using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Batch;
using Tether.Unity.Tools;

namespace Tether.Unity.Tests.Batch
{
    /// <summary>A batch's steps are checked, all of them, before the first runs (against the editor's real tools).</summary>
    [TestFixture]
    public class BatchPlanTests
    {
        private static readonly IReadOnlyDictionary<string, RegisteredTool> Tools =
            ToolFactory.FromAssembly(typeof(BatchTool).Assembly).ToDictionary(tool => tool.Name);

        private static BatchStepInput Step(string tool, string arguments = "{}") => new BatchStepInput(tool, JObject.Parse(arguments));

        private static TetherException Refusal(params BatchStepInput[] steps)
        {
            var error = Assert.Throws<TetherException>(() => BatchPlan.Check(steps, Tools));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.InvalidArguments));
            Assert.That((string)error.Data["tool"], Is.EqualTo("batch"));
            Assert.That(error.Message, Does.Contain("No step ran"));
            return error;
        }

        [Test]
        public void ValidStepsComeOutInOrderWithTheirDefaults()
        {
            var planned = BatchPlan.Check(new[] { Step("create_gameobject", "{\"name\":\"Enemy\"}"), Step("get_hierarchy"), Step("add_component", "{\"path\":\"/Enemy\",\"type\":\"Rigidbody\"}") }, Tools);
            Assert.That(planned.Select(step => step.Tool.Name), Is.EqualTo(new[] { "create_gameobject", "get_hierarchy", "add_component" }));
            Assert.That(planned.Select(step => step.Index), Is.EqualTo(new[] { 0, 1, 2 }));
            Assert.That(planned[0].Arguments["components"], Is.EqualTo(new JArray()), "defaults filled in, as for a call of the tool alone");
        }

        [Test]
        public void AnUnknownToolFailsWithTheClosestNames()
        {
            var error = Refusal(Step("get_hierarchy"), Step("creat_gameobject", "{\"name\":\"A\"}"));
            Assert.That((string)error.Data["field"], Is.EqualTo("steps.1.tool"));
            Assert.That(error.Data["suggestions"].Values<string>(), Does.Contain("create_gameobject"));
            Assert.That(error.Message, Does.Contain("did you mean \"create_gameobject\""));
        }

        [TestCase("batch", "inside a batch")]
        [TestCase("build_player", "waits for the editor")]
        [TestCase("compile_scripts", "compiles")]
        [TestCase("delete_asset", "files")]
        [TestCase("undo", "undo history")]
        public void ARefusedToolFailsTheBatchBeforeAnythingRuns(string tool, string because)
        {
            var error = Refusal(Step("create_gameobject", "{\"name\":\"A\"}"), Step(tool));
            Assert.That((string)error.Data["field"], Is.EqualTo("steps.1.tool"));
            Assert.That((string)error.Data["step"], Is.EqualTo(tool));
            Assert.That(error.Message, Does.Contain(because));
        }

        [Test]
        public void InvalidArgumentsOfALaterStepNameTheFieldInsideThatStep()
        {
            var error = Refusal(Step("create_gameobject", "{\"name\":\"A\"}"), Step("get_hierarchy"), Step("create_gameobject", "{\"name\":\"a/b\"}"));
            Assert.That((string)error.Data["field"], Is.EqualTo("steps.2.arguments.name"));
            Assert.That((int)error.Data["index"], Is.EqualTo(2));
            Assert.That(error.Message, Does.Contain("(for create_gameobject)"));

            var missing = Refusal(Step("add_component", "{\"path\":\"/Player\"}"));
            Assert.That((string)missing.Data["field"], Is.EqualTo("steps.0.arguments.type"));

            var misspelled = Refusal(Step("add_component", "{\"path\":\"/Player\",\"typ\":\"Rigidbody\"}"));
            Assert.That(misspelled.Data["suggestions"].Values<string>(), Does.Contain("type"));
        }

        [Test]
        public void ASerializedWriteToAnAssetIsRefusedAndOneToAComponentIsNot()
        {
            var write = "{\"target\":{%TARGET%},\"properties\":[{\"path\":\"hp\",\"value\":3}]}";
            var error = Refusal(Step("set_serialized_properties", write.Replace("%TARGET%", "\"asset\":\"Assets/Data/Goblin.asset\"")));
            Assert.That((string)error.Data["field"], Is.EqualTo("steps.0.arguments"));
            Assert.That(error.Message, Does.Contain("asset's file"));
            Assert.That(BatchPlan.Check(new[] { Step("set_serialized_properties", write.Replace("%TARGET%", "\"gameObject\":\"/Player\",\"component\":\"Rigidbody\"")) }, Tools), Has.Count.EqualTo(1));
        }
    }
}
