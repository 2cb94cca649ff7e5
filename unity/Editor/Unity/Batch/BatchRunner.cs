using System;
using System.Collections.Generic;
using System.Linq;
using Newtonsoft.Json.Linq;
using Tether.Core.Calls;
using Tether.Core.Protocol;
using Tether.Core.Tools;

namespace Tether.Unity.Batch
{
    /// <summary>The Undo calls a batch makes (UnityBatchUndo in the editor; a recording fake in tests).</summary>
    internal interface IBatchUndo
    {
        /// <summary>Starts the batch's group, named <paramref name="name"/>; returns its index.</summary>
        int Open(string name);

        /// <summary>Makes every change since <paramref name="group"/> one undo step named <paramref name="name"/>.</summary>
        void Collapse(int group, string name);

        /// <summary>Reverts every change since <paramref name="group"/>, leaving nothing to redo.</summary>
        void Revert(int group);
    }

    /// <summary>
    /// Runs a checked batch (BatchPlan) in order, at once, on the calling (main) thread, as one
    /// Undo group: each step's tool makes its own group as usual, and at the end every group
    /// since the batch's is collapsed into one. A step that fails (throws, answers isError, or
    /// does not finish at once) stops the batch: every group since the batch's is reverted,
    /// and the error, with the step's own code, names the step and gives what the steps before
    /// it returned. A cancellation between steps is reverted the same way. A revert that fails
    /// is said apart from the step's error (rolledBack: false, rollbackError), never instead of it.
    /// </summary>
    internal static class BatchRunner
    {
        public static JObject Run(IReadOnlyList<PlannedStep> steps, string undoName, IBatchUndo undo, IToolContext context)
        {
            var group = undo.Open(undoName);
            var completed = new JArray();
            foreach (var step in steps)
            {
                if (context.Cancellation.IsCancellationRequested)
                {
                    var reason = context.CancellationReason ?? new TetherException(ErrorCodes.Cancelled, "The call was cancelled.", new JObject { ["started"] = true });
                    TryRevert(undo, group, out var revertProblem);
                    var data = (JObject)reason.Data.DeepClone();
                    data["completed"] = completed;
                    AddRollback(data, revertProblem);
                    throw new TetherException(reason.Code, "The batch was cancelled before steps[" + step.Index + "] (" + step.Tool.Name + "). " + RolledBackText(completed.Count, revertProblem), data);
                }
                context.Progress(step.Index, steps.Count, "steps[" + step.Index + "]: " + step.Tool.Name);
                JToken result;
                try
                {
                    result = RunStep(step, context);
                }
                catch (Exception error)
                {
                    var failure = CallErrors.ToolFailure(step.Tool.Name, error);
                    TryRevert(undo, group, out var revertProblem);
                    throw StepFailed(step, failure, completed, revertProblem);
                }
                completed.Add(new JObject { ["index"] = step.Index, ["tool"] = step.Tool.Name, ["result"] = result });
            }
            undo.Collapse(group, undoName);
            return new JObject { ["steps"] = completed, ["undoGroup"] = undoName };
        }

        /// <summary>The undo step's name when the caller gives none: the tools it ran, as Edit > Undo will show it.</summary>
        public static string DefaultUndoName(IEnumerable<string> tools)
        {
            var distinct = tools.Distinct().ToList();
            return "Batch: " + string.Join(", ", distinct.Take(3)) + (distinct.Count > 3 ? ", …" : "");
        }

        /// <summary>What a failed step's error says of the steps before it.</summary>
        public static string RolledBackText(int completed, string revertProblem = null)
        {
            if (revertProblem != null)
            {
                return "Rolling back the batch failed too (" + revertProblem + "): the edits of the steps before it may remain. Check the scene; undo may take them back. data.completed has what they returned.";
            }
            if (completed == 0) return "It was the first step: the batch changed nothing.";
            return "The batch stopped there, and the edits of the " + completed + " step" + (completed == 1 ? "" : "s")
                + " before it were rolled back (their undo group reverted): the batch changed nothing. data.completed has what they returned.";
        }

        /// <summary>Runs one step's tool at once; its result as the batch reports it (structured, or its text).</summary>
        private static JToken RunStep(PlannedStep step, IToolContext context)
        {
            var name = step.Tool.Name;
            var task = step.Tool.Invoke(step.Arguments, context);
            if (!task.IsCompleted)
            {
                // BatchRules admit no tool that waits; should one, its work goes on outside the Undo group.
                task.ContinueWith(t => t.Exception, System.Threading.Tasks.TaskContinuationOptions.OnlyOnFaulted);
                throw new TetherException(ErrorCodes.ToolFailed, "Tool \"" + name + "\" did not finish at once, and a batch cannot wait inside its Undo group. Call it on its own.", new JObject { ["tool"] = name });
            }
            if (task.IsFaulted) throw task.Exception.InnerException ?? task.Exception;
            if (task.IsCanceled) throw new TetherException(ErrorCodes.Cancelled, "Tool \"" + name + "\" was cancelled.", new JObject { ["started"] = true });
            var result = step.Tool.ToResult(task.Result);
            var text = string.Join("\n", ((result["content"] as JArray) ?? new JArray()).OfType<JObject>().Where(c => (string)c["type"] == "text").Select(c => (string)c["text"]));
            if ((bool?)result["isError"] == true) throw new TetherException(ErrorCodes.ToolFailed, "Tool \"" + name + "\" failed: " + text, new JObject { ["tool"] = name });
            return result["structuredContent"] ?? new JObject { ["text"] = text };
        }

        /// <summary>Reverts the batch's group; <paramref name="problem"/> says why it could not (null when it did).</summary>
        private static void TryRevert(IBatchUndo undo, int group, out string problem)
        {
            try
            {
                undo.Revert(group);
                problem = null;
            }
            catch (Exception error)
            {
                problem = error.Message;
            }
        }

        /// <summary>Whether the rollback happened, and why not when it did not (apart from why the batch stopped).</summary>
        private static void AddRollback(JObject data, string revertProblem)
        {
            data["rolledBack"] = revertProblem == null;
            if (revertProblem != null) data["rollbackError"] = revertProblem;
        }

        /// <summary>The batch's error for a step that failed: the step's own code, which step it was, and what ran before it.</summary>
        private static TetherException StepFailed(PlannedStep step, TetherException failure, JArray completed, string revertProblem)
        {
            var name = step.Tool.Name;
            var data = new JObject
            {
                ["tool"] = "batch",
                ["failedStep"] = new JObject { ["index"] = step.Index, ["tool"] = name, ["code"] = failure.Code, ["message"] = failure.Message, ["data"] = failure.Data },
                ["completed"] = completed,
            };
            AddRollback(data, revertProblem);
            return new TetherException(failure.Code, "steps[" + step.Index + "] (" + name + ") failed: " + failure.Message + " " + RolledBackText(completed.Count, revertProblem), data);
        }
    }
}
