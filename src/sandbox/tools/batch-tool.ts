/**
 * batch: several of the editor's own tools in one call, run in order on the main thread as
 * one undo group. Every step is checked before the first runs (batch-plan.ts); a step that
 * fails stops the batch, and the group is rolled back (the undo history restores what it
 * held before the batch, as Unity's Undo.RevertAllDownToGroup does), so a failed batch
 * leaves nothing half-made. The error names the step that failed and gives what the steps
 * before it returned; should the rollback itself fail, it says so apart (rolledBack: false,
 * rollbackError), never in place of the step's error, as the Unity package does. Only tools
 * whose every effect the undo group takes back may be steps (batch-rules.ts): that is what
 * makes the rollback true.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { toToolResult, type ToolReturn } from '../../host/tools.js';
import { RollbackFailed } from '../undo.js';
import { planBatch, type PlannedStep } from './batch-plan.js';
import { BATCH_RULES_TEXT, MAX_BATCH_STEPS } from './batch-rules.js';
import { defineTool, type MainThreadContext, type SandboxTool } from './tool.js';

const step = z.strictObject({
  tool: z.string().min(1).describe('The name of one of the editor\'s tools, e.g. "create_gameobject".'),
  arguments: z
    .record(z.string(), z.unknown())
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

/**
 * What a failed step's error says of the steps before it: rolled back, or, when the rollback
 * itself failed (`rollbackProblem`), that their edits may remain (the Unity package says the same).
 */
function rolledBackText(completed: number, rollbackProblem?: string): string {
  if (rollbackProblem !== undefined) {
    return `Rolling back the batch failed too (${rollbackProblem}): the edits of the steps before it may remain. Check the scene; undo may take them back. data.completed has what they returned.`;
  }
  if (completed === 0) return 'It was the first step: the batch changed nothing.';
  return `The batch stopped there, and the edits of the ${completed} step${completed === 1 ? '' : 's'} before it were rolled back (their undo group reverted): the batch changed nothing. data.completed has what they returned.`;
}

/** What the batch's error says of its rollback: whether it happened, and why not when it did not. */
function rollbackData(rollbackProblem: string | undefined): Record<string, unknown> {
  return rollbackProblem === undefined ? { rolledBack: true } : { rolledBack: false, rollbackError: rollbackProblem };
}

/**
 * Why the batch stopped, thrown inside its undo group. The batch's error is made outside the
 * group, once the rollback is done and how it went is known.
 */
class BatchStopped extends Error {
  constructor(readonly errorFor: (rollbackProblem: string | undefined) => TetherError) {
    super('The batch stopped.');
  }
}

/** The batch's error for a step that failed: the step's own code, which step it was, and what ran before it. */
function stepFailed(step: PlannedStep, failure: TetherError, completed: StepResult[]): BatchStopped {
  const name = step.tool.name;
  return new BatchStopped(
    (rollbackProblem) =>
      new TetherError(failure.code, `steps[${step.index}] (${name}) failed: ${failure.message} ${rolledBackText(completed.length, rollbackProblem)}`, {
        tool: 'batch',
        failedStep: { index: step.index, tool: name, code: failure.code, message: failure.message, data: failure.data },
        completed,
        ...rollbackData(rollbackProblem),
      }),
  );
}

function cancelledBefore(step: PlannedStep, completed: StepResult[]): BatchStopped {
  return new BatchStopped(
    (rollbackProblem) =>
      new TetherError('CANCELLED', `The batch was cancelled before steps[${step.index}] (${step.tool.name}). ${rolledBackText(completed.length, rollbackProblem)}`, {
        started: true,
        completed,
        ...rollbackData(rollbackProblem),
      }),
  );
}

/** Runs one step at once; its result as the batch reports it, or throws why the batch stops there. */
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
      try {
        // A throw inside the group restores what the history held before it (undo.ts): the rollback.
        context.undo.group(undoGroup, () => {
          for (const next of planned) {
            if (context.cancelled()) throw cancelledBefore(next, completed);
            context.progress({ progress: next.index, total: planned.length, message: `steps[${next.index}]: ${next.tool.name}` });
            completed.push({ index: next.index, tool: next.tool.name, result: runStep(next, context, completed) });
          }
        });
      } catch (error) {
        // The rollback failing too is said apart from why the batch stopped, never instead of it.
        const stopped = error instanceof RollbackFailed ? error.original : error;
        if (stopped instanceof BatchStopped) throw stopped.errorFor(error instanceof RollbackFailed ? error.rollbackProblem : undefined);
        throw error;
      }
      return { steps: completed, undoGroup };
    },
  });
}
