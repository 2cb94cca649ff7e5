using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Batch
{
    /// <summary>A step as the batch's arguments give it: a tool's name and its arguments.</summary>
    internal sealed class BatchStepInput
    {
        public BatchStepInput(string tool, JObject arguments)
        {
            Tool = tool ?? "";
            Arguments = arguments ?? new JObject();
        }

        public string Tool { get; }

        public JObject Arguments { get; }
    }

    /// <summary>A step ready to run: its place, its tool, and its validated arguments (defaults filled in).</summary>
    internal sealed class PlannedStep
    {
        public PlannedStep(int index, RegisteredTool tool, JObject arguments)
        {
            Index = index;
            Tool = tool;
            Arguments = arguments;
        }

        public int Index { get; }

        public RegisteredTool Tool { get; }

        public JObject Arguments { get; }
    }

    /// <summary>
    /// A batch's steps checked before the first runs, all or nothing (the sandbox's
    /// src/sandbox/tools/batch-plan.ts): each names one of the editor's tools (or fails with the
    /// closest names), one BatchRules accepts, with arguments its input schema accepts, checked
    /// as a call of that tool alone would be. The first problem fails the whole batch with
    /// INVALID_ARGUMENTS naming the step's field, and nothing has run.
    /// </summary>
    internal static class BatchPlan
    {
        public static List<PlannedStep> Check(IReadOnlyList<BatchStepInput> steps, IReadOnlyDictionary<string, RegisteredTool> tools)
        {
            var planned = new List<PlannedStep>();
            for (var index = 0; index < steps.Count; index++)
            {
                var step = steps[index];
                if (!tools.TryGetValue(step.Tool, out var tool))
                {
                    var suggestions = ToolSuggestions.Closest(step.Tool, tools.Keys);
                    var hint = suggestions.Count > 0 ? "did you mean " + string.Join(", ", suggestions.Select(s => "\"" + s + "\"")) + "?" : "tools/list shows them";
                    throw StepProblem(index, "tool", "names no tool of this editor: \"" + Text.Clipped(step.Tool) + "\" (" + hint + ")", new JObject { ["suggestions"] = new JArray(suggestions) });
                }
                var refusal = BatchRules.RefusalOf(tool.Name, tool.ReadOnly, tool.LongRunning);
                if (refusal != null) throw StepProblem(index, "tool", "is " + tool.Name + ", which a batch does not run: " + refusal, new JObject { ["step"] = tool.Name });
                var arguments = Checked(index, tool, step.Arguments);
                var argumentRefusal = BatchRules.RefusalOfArguments(tool.Name, arguments);
                if (argumentRefusal != null) throw StepProblem(index, "arguments", "makes " + tool.Name + " a step a batch cannot roll back: " + argumentRefusal, new JObject { ["step"] = tool.Name });
                planned.Add(new PlannedStep(index, tool, arguments));
            }
            return planned;
        }

        /// <summary>INVALID_ARGUMENTS about one step's field: nothing ran, and the message says which step to fix.</summary>
        public static TetherException StepProblem(int index, string field, string problem, JObject more = null)
        {
            var path = "steps." + index + "." + field;
            var data = new JObject { ["tool"] = "batch", ["field"] = path, ["problem"] = problem, ["index"] = index };
            if (more != null) foreach (var pair in more) data[pair.Key] = pair.Value;
            return new TetherException(
                ErrorCodes.InvalidArguments,
                "Invalid arguments for tool \"batch\": \"" + path + "\" " + problem + ". No step ran: fix steps[" + index + "] and send the batch again.",
                data);
        }

        /// <summary>The step's arguments as the tool takes them, or INVALID_ARGUMENTS naming the field inside the step.</summary>
        private static JObject Checked(int index, RegisteredTool tool, JObject given)
        {
            try
            {
                return tool.Validate((JObject)given.DeepClone());
            }
            catch (TetherException failure) when (failure.Code == ErrorCodes.InvalidArguments)
            {
                var inner = (string)failure.Data["field"];
                var field = string.IsNullOrEmpty(inner) ? "arguments" : "arguments." + inner;
                var problem = (string)failure.Data["problem"] ?? failure.Message;
                var more = new JObject { ["step"] = tool.Name };
                if (failure.Data["suggestions"] != null) more["suggestions"] = failure.Data["suggestions"];
                throw StepProblem(index, field, "(for " + tool.Name + ") " + problem, more);
            }
        }
    }
}
