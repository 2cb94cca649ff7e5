/**
 * batch: several of the editor's own tools in one call, run in order on the main thread as
 * one undo group. Every step is checked before the first runs (batch-plan.ts); a step that
 * fails stops the batch, and the group is rolled back (the undo history restores what it
 * held before the batch, as Unity's Undo.RevertAllDownToGroup does), so a failed batch
 * leaves nothing half-made. The error names the step that failed and gives what the steps
 * before it returned. Only tools whose every effect the undo group takes back may be steps
 * (batch-rules.ts): that is what makes the rollback true.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { toToolResult, type ToolReturn } from '../../host/tools.js';
import { planBatch, type PlannedStep } from './batch-plan.js';
import { BATCH_RULES_TEXT, MAX_BATCH_STEPS } from './batch-rules.js';
import { defineTool, type MainThreadContext, type SandboxTool } from './tool.js';

const step = z.strictObject({
  tool: z.string().min(1).describe('The name of one of the editor\'s tools, e.g. "create_gameobject".'),
  arguments: z
    .record(z.string(), z.unknown())
    // As the Unity package's Dictionary<string, JToken> declares it (see material-tools.ts).
    .meta({ propertyNames: undefined })
    .optional()
    .describe('Its arguments, exactly as that tool takes them (default: none).'),
});

const stepResult = z.object({
  index: z.number().int().describe('The step\'s place in steps, from 0.'),
  tool: z.string(),
  result: z.unknown().describe('What the step returned: its structured result, or {"text": …} when it answered in text.'),
});

type StepResult = z.infer<typeof stepResult>;

/** The undo step's name when the caller gives none: the tools it ran, as Edit > Undo will show it. */
function defaultUndoName(tools: readonly string[]): string {
  const distinct = [...new Set(tools)];
  return `Batch: ${distinct.slice(0, 3).join(', ')}${distinct.length > 3 ? ', …' : ''}`;
}

/** What a failed step's error says of the steps before it, which the rollback took back. */
function rolledBackText(completed: number): string {
  if (completed === 0) return 'It was the first step: the batch changed nothing.';
  return `The batch stopped there, and the edits of the ${completed} step${completed === 1 ? '' : 's'} before it were rolled back (their undo group reverted): the batch changed nothing. data.completed has what they returned.`;
}

/** The batch's error for a step that failed: the step's own code, which step it was, and what ran before it. */
function stepFailed(step: PlannedStep, failure: TetherError, completed: StepResult[]): TetherError {
  const name = step.tool.name;
  return new TetherError(failure.code, `steps[${step.index}] (${name}) failed: ${failure.message} ${rolledBackText(completed.length)}`, {
    tool: 'batch',
    failedStep: { index: step.index, tool: name, code: failure.code, message: failure.message, data: failure.data },
    completed,
    rolledBack: true,
  });
}

/** Runs one step at once; its result as the batch reports it, or throws the batch's error for it. */
function runStep(step: PlannedStep, context: MainThreadContext, completed: StepResult[]): unknown {
  const name = step.tool.name;
  let value: ToolReturn | Promise<ToolReturn>;
  try {
    value = step.tool.run(step.args, context);
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    throw stepFailed(step, error instanceof TetherError ? error : new TetherError('TOOL_FAILED', `Tool "${name}" failed: ${message}`, { tool: name }), completed);
  }
  if (value instanceof Promise) {
    // The rules admit no tool that waits; should one, its work goes on outside the undo group.
    value.catch(() => undefined);
    throw stepFailed(step, new TetherError('TOOL_FAILED', `Tool "${name}" did not finish at once, and a batch cannot wait inside its undo group. Call it on its own.`, { tool: name }), completed);
  }
  const result = toToolResult(value, name);
  const text = result.content.flatMap((c) => (c.type === 'text' ? [c.text] : [])).join('\n');
  if (result.isError) throw stepFailed(step, new TetherError('TOOL_FAILED', `Tool "${name}" failed: ${text}`, { tool: name }), completed);
  return result.structuredContent ?? { text };
}

/** The batch tool over `tools()`: the editor's own tools, read when a batch runs (the list includes this tool). */
export function batchTool(tools: () => readonly SandboxTool[]): SandboxTool {
  return defineTool({
    name: 'batch',
    title: 'Batch',
    description:
      'Runs several of the editor\'s tools in one call, in order on the main thread, as one undo step: one undo takes back every edit it made. ' +
      'Every step\'s tool and arguments are checked before the first runs. A step that fails stops the batch and its earlier steps are rolled back (their undo group is reverted), ' +
      'so a failed batch changes nothing; the error names the step (steps[i], its tool, its error code and message) and gives what the steps before it returned. ' +
      BATCH_RULES_TEXT,
    input: z.object({
      steps: z.array(step).min(1).max(MAX_BATCH_STEPS).describe('The calls to make, in order: each a tool and its arguments.'),
      name: z.string().min(1).max(200).optional().describe('The undo step\'s name, as Edit > Undo shows it (default: "Batch: " and the tools it ran).'),
    }),
    output: z.object({
      steps: z.array(stepResult).describe('Each step\'s result, in order.'),
      undoGroup: z.string().describe('The name of the undo step the batch made: one undo takes back all its edits.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ steps, name }, context) => {
      const planned = planBatch(steps, tools());
      const undoGroup = name ?? defaultUndoName(planned.map((s) => s.tool.name));
      const completed: StepResult[] = [];
      // A throw inside the group restores what the history held before it (undo.ts): the rollback.
      context.undo.group(undoGroup, () => {
        for (const next of planned) {
          if (context.cancelled()) {
            throw new TetherError('CANCELLED', `The batch was cancelled before steps[${next.index}] (${next.tool.name}). ${rolledBackText(completed.length)}`, { started: true, completed, rolledBack: true });
          }
          context.progress({ progress: next.index, total: planned.length, message: `steps[${next.index}]: ${next.tool.name}` });
          completed.push({ index: next.index, tool: next.tool.name, result: runStep(next, context, completed) });
        }
      });
      return { steps: completed, undoGroup };
    },
  });
}
