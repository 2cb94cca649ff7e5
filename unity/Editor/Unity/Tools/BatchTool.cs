using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Tools;
using Tether.Unity.Batch;

namespace Tether.Unity.Tools
{
    public sealed class BatchStepArgs
    {
        [ToolArg("The name of one of the editor's tools, e.g. \"create_gameobject\".", Required = true, MinLength = 1)]
        public string Tool;

        [ToolArg("Its arguments, exactly as that tool takes them (default: none).")]
        public Dictionary<string, JToken> Arguments;
    }

    public sealed class BatchArgs
    {
        [ToolArg("The calls to make, in order: each a tool and its arguments.", Required = true, MinLength = 1, MaxLength = BatchRules.MaxSteps)]
        public List<BatchStepArgs> Steps;

        [ToolArg("The undo step's name, as Edit > Undo shows it (default: \"Batch: \" and the tools it ran).", MinLength = 1, MaxLength = 200)]
        public string Name;
    }

    public sealed class BatchStepResult
    {
        [ToolArg("The step's place in steps, from 0.")]
        public int Index;

        [ToolArg(Required = true)]
        public string Tool;

        [ToolArg("What the step returned: its structured result, or {\"text\": …} when it answered in text.", Required = true)]
        public JToken Result;
    }

    public sealed class BatchResult
    {
        [ToolArg("Each step's result, in order.", Required = true)]
        public List<BatchStepResult> Steps;

        [ToolArg("The name of the undo step the batch made: one undo takes back all its edits.", Required = true)]
        public string UndoGroup;
    }

    /// <summary>
    /// batch (the sandbox's src/sandbox/tools/batch-tool.ts): several of the editor's own tools
    /// in one call, checked first (BatchPlan), then run in order on the main thread as one Undo
    /// group and reverted whole when a step fails (BatchRunner on UnityBatchUndo).
    /// </summary>
    public static class BatchTool
    {
        /// <summary>The editor's own tools (this assembly's), built once per domain: a batch never runs a project's tool.</summary>
        private static readonly Lazy<IReadOnlyDictionary<string, RegisteredTool>> BuiltIn = new Lazy<IReadOnlyDictionary<string, RegisteredTool>>(
            () => ToolFactory.FromAssembly(typeof(BatchTool).Assembly).ToDictionary(tool => tool.Name, StringComparer.Ordinal));

        [TetherTool("batch", Title = "Batch",
            Description = "Runs several of the editor's tools in one call, in order on the main thread, as one undo step: one undo takes back every edit it made. "
                + "Every step's tool and arguments are checked before the first runs. A step that fails stops the batch and its earlier steps are rolled back (their undo group is reverted), "
                + "so a failed batch changes nothing; the error names the step (steps[i], its tool, its error code and message) and gives what the steps before it returned. "
                + BatchRules.Text,
            ReadOnly = false, Destructive = true, Idempotent = false, Output = typeof(BatchResult))]
        public static object Batch(BatchArgs args, IToolContext context)
        {
            var inputs = args.Steps.Select(step => new BatchStepInput(step.Tool, ToObject(step.Arguments))).ToList();
            var planned = BatchPlan.Check(inputs, BuiltIn.Value);
            var undoName = args.Name ?? BatchRunner.DefaultUndoName(planned.Select(step => step.Tool.Name));
            return BatchRunner.Run(planned, undoName, new UnityBatchUndo(), context);
        }

        private static JObject ToObject(Dictionary<string, JToken> arguments)
        {
            var result = new JObject();
            if (arguments != null) foreach (var pair in arguments) result[pair.Key] = pair.Value?.DeepClone() ?? JValue.CreateNull();
            return result;
        }
    }
}
