using System;
using System.Collections.Generic;
using System.Linq;
using System.Threading.Tasks;
using Newtonsoft.Json.Linq;
using NUnit.Framework;
using Tether.Core.Protocol;
using Tether.Core.Tools;
using Tether.Unity.Batch;
using Tether.Unity.Tests.Support;

namespace Tether.Unity.Tests.Batch
{
    /// <summary>
    /// The bookkeeping of a batch's one Undo group: collapsed when every step succeeds,
    /// reverted down to the batch's group when one fails or the call is cancelled, and the
    /// result or error saying which step did what.
    /// </summary>
    [TestFixture]
    public class BatchRunnerTests
    {
        private sealed class RecordingUndo : IBatchUndo
        {
            public List<string> Calls { get; } = new List<string>();

            public bool RevertFails { get; set; }

            public int Open(string name)
            {
                Calls.Add("open " + name);
                return 7;
            }

            public void Collapse(int group, string name) => Calls.Add("collapse " + group + " " + name);

            public void Revert(int group)
            {
                Calls.Add("revert " + group);
                if (RevertFails) throw new InvalidOperationException("the undo stack was cleared");
            }
        }

        private static RegisteredTool Tool(string name, Func<JObject, object> run) =>
            ToolFactory.Create<JObject>(new TetherToolAttribute(name) { Description = "A test tool." }, (args, context) => run(args));

        private static List<PlannedStep> Steps(params RegisteredTool[] tools) =>
            tools.Select((tool, index) => new PlannedStep(index, tool, new JObject())).ToList();

        private static readonly RegisteredTool Create = Tool("create_gameobject", _ => new JObject { ["created"] = "/Enemy" });
        private static readonly RegisteredTool Text = Tool("read_console", _ => "no entries");
        private static readonly RegisteredTool Missing = Tool("add_component", _ => throw new TetherException(ErrorCodes.NotFound, "No GameObject at \"/Nobody\".", new JObject { ["path"] = "/Nobody" }));

        [Test]
        public void StepsThatSucceedAreOneCollapsedGroupWithEachResult()
        {
            var undo = new RecordingUndo();
            var context = new FakeToolContext();
            var result = BatchRunner.Run(Steps(Create, Text), "Batch: create_gameobject, read_console", undo, context);
            Assert.That(undo.Calls, Is.EqualTo(new[] { "open Batch: create_gameobject, read_console", "collapse 7 Batch: create_gameobject, read_console" }));
            Assert.That(JToken.DeepEquals(result, JObject.Parse(@"{
                ""steps"": [
                    { ""index"": 0, ""tool"": ""create_gameobject"", ""result"": { ""created"": ""/Enemy"" } },
                    { ""index"": 1, ""tool"": ""read_console"", ""result"": { ""text"": ""no entries"" } }
                ],
                ""undoGroup"": ""Batch: create_gameobject, read_console""
            }")), Is.True, result.ToString());
            Assert.That(context.ProgressMessages, Is.EqualTo(new[] { "steps[0]: create_gameobject", "steps[1]: read_console" }));
        }

        [Test]
        public void AFailingStepRevertsTheGroupAndNamesTheStepWithItsOwnCode()
        {
            var undo = new RecordingUndo();
            var ran = new List<string>();
            var after = Tool("delete_gameobject", _ => { ran.Add("after"); return new JObject(); });
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(Create, Missing, after), "B", undo, new FakeToolContext()));
            Assert.That(undo.Calls, Is.EqualTo(new[] { "open B", "revert 7" }));
            Assert.That(ran, Is.Empty, "the steps after the failure do not run");
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That(error.Message, Does.StartWith("steps[1] (add_component) failed: No GameObject at \"/Nobody\"."));
            Assert.That(error.Message, Does.Contain("the edits of the 1 step before it were rolled back"));
            Assert.That((bool)error.Data["rolledBack"], Is.True);
            Assert.That(error.Data.ContainsKey("rollbackError"), Is.False, "only when the rollback failed");
            Assert.That(JToken.DeepEquals(error.Data["failedStep"], JObject.Parse(@"{ ""index"": 1, ""tool"": ""add_component"", ""code"": ""NOT_FOUND"", ""message"": ""No GameObject at \""/Nobody\""."", ""data"": { ""path"": ""/Nobody"" } }")), Is.True, error.Data.ToString());
            Assert.That(JToken.DeepEquals(error.Data["completed"], JArray.Parse(@"[{ ""index"": 0, ""tool"": ""create_gameobject"", ""result"": { ""created"": ""/Enemy"" } }]")), Is.True);
        }

        [Test]
        public void AFirstStepThatFailsSaysTheBatchChangedNothing()
        {
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(Missing), "B", new RecordingUndo(), new FakeToolContext()));
            Assert.That(error.Message, Does.Contain("It was the first step: the batch changed nothing."));
            Assert.That(error.Data["completed"], Is.EqualTo(new JArray()));
        }

        [Test]
        public void AnUntypedExceptionOrAnErrorResultIsToolFailed()
        {
            var throws = Tool("modify_gameobject", _ => throw new InvalidOperationException("boom"));
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(throws), "B", new RecordingUndo(), new FakeToolContext()));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.StartWith("steps[0] (modify_gameobject) failed: Tool \"modify_gameobject\" failed: boom"));

            var isError = Tool("remove_component", _ => ToolResult.Error("the component is required by another"));
            var undo = new RecordingUndo();
            error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(Create, isError), "B", undo, new FakeToolContext()));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.Contain("the component is required by another"));
            Assert.That(undo.Calls.Last(), Is.EqualTo("revert 7"));
        }

        [Test]
        public void AStepThatDoesNotFinishAtOnceFailsTheBatch()
        {
            var never = new TaskCompletionSource<object>();
            var waits = ToolFactory.FromDescriptor(JObject.Parse(@"{ ""name"": ""get_terrain"", ""description"": ""Waits."", ""inputSchema"": { ""type"": ""object"" } }"), (args, context) => never.Task);
            var undo = new RecordingUndo();
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(Create, waits), "B", undo, new FakeToolContext()));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.ToolFailed));
            Assert.That(error.Message, Does.Contain("did not finish at once"));
            Assert.That(undo.Calls.Last(), Is.EqualTo("revert 7"));
        }

        [Test]
        public void ACancellationBetweenStepsRevertsWhatRan()
        {
            var context = new FakeToolContext();
            var cancels = Tool("duplicate_gameobject", _ => { context.Cancel(); return new JObject { ["copy"] = "/Crate (1)" }; });
            var undo = new RecordingUndo();
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(cancels, Create), "B", undo, context));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That(error.Message, Does.StartWith("The batch was cancelled before steps[1] (create_gameobject)."));
            Assert.That((bool)error.Data["started"], Is.True);
            Assert.That(((JArray)error.Data["completed"]).Count, Is.EqualTo(1));
            Assert.That(undo.Calls, Is.EqualTo(new[] { "open B", "revert 7" }));
        }

        [Test]
        public void ARevertThatFailsIsSaidAndNotClaimed()
        {
            var undo = new RecordingUndo { RevertFails = true };
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(Create, Missing), "B", undo, new FakeToolContext()));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.NotFound));
            Assert.That((bool)error.Data["rolledBack"], Is.False);
            Assert.That((string)error.Data["rollbackError"], Is.EqualTo("the undo stack was cleared"), "said apart from the step's error");
            Assert.That((string)error.Data["failedStep"]["code"], Is.EqualTo(ErrorCodes.NotFound), "the step's own error is kept");
            Assert.That(error.Message, Does.Contain("Rolling back the batch failed too (the undo stack was cleared)"));
        }

        [Test]
        public void ARevertThatFailsAfterACancellationIsSaidToo()
        {
            var context = new FakeToolContext();
            var cancels = Tool("duplicate_gameobject", _ => { context.Cancel(); return new JObject { ["copy"] = "/Crate (1)" }; });
            var undo = new RecordingUndo { RevertFails = true };
            var error = Assert.Throws<TetherException>(() => BatchRunner.Run(Steps(cancels, Create), "B", undo, context));
            Assert.That(error.Code, Is.EqualTo(ErrorCodes.Cancelled));
            Assert.That((bool)error.Data["rolledBack"], Is.False);
            Assert.That((string)error.Data["rollbackError"], Is.EqualTo("the undo stack was cleared"));
        }

        [Test]
        public void TheDefaultUndoNameListsTheFirstThreeToolsOnce()
        {
            Assert.That(BatchRunner.DefaultUndoName(new[] { "create_gameobject", "add_component", "create_gameobject" }), Is.EqualTo("Batch: create_gameobject, add_component"));
            Assert.That(BatchRunner.DefaultUndoName(new[] { "a", "b", "c", "d" }), Is.EqualTo("Batch: a, b, c, …"));
        }
    }
}
