/**
 * A batch's steps checked before the first runs, all or nothing: each names a tool of the
 * editor (or fails with the closest names), one the batch rules accept, with arguments its
 * input schema accepts, checked as a call of that tool alone would be (the JSON Schema the
 * host checks, then the tool's own parse, which fills in defaults). The first problem fails
 * the whole batch with INVALID_ARGUMENTS naming the step's field, and nothing has run.
 */
import { TetherError, clipped } from '../../protocol/index.js';
import { toInputSchema } from '../../host/tools.js';
import { closestNames } from '../../schema/suggest.js';
import { argumentValidator, type ArgumentValidator } from '../../schema/tool-arguments.js';
import { refusalOf, refusalOfArguments } from './batch-rules.js';
import type { SandboxTool } from './tool.js';

export interface BatchStepInput {
  tool: string;
  arguments?: Record<string, unknown> | undefined;
}

/** A step ready to run: its tool and its parsed arguments. */
export interface PlannedStep {
  index: number;
  tool: SandboxTool;
  args: Record<string, unknown>;
}

/** Compiled once per tool: JSON Schema compilation is the costly part of checking arguments. */
const validators = new WeakMap<SandboxTool, ArgumentValidator>();

function validatorOf(tool: SandboxTool): ArgumentValidator {
  let validate = validators.get(tool);
  if (!validate) validators.set(tool, (validate = argumentValidator(tool.name, tool.inputJsonSchema ?? toInputSchema(tool.input))));
  return validate;
}

/** INVALID_ARGUMENTS about one step's field: nothing ran, and the message says which step to fix. */
function stepProblem(index: number, field: string, problem: string, more: Record<string, unknown> = {}): TetherError {
  const path = `steps.${index}.${field}`;
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for tool "batch": "${path}" ${problem}. No step ran: fix steps[${index}] and send the batch again.`, {
    tool: 'batch',
    field: path,
    problem,
    index,
    ...more,
  });
}

/** Every step checked, in order; throws for the first that cannot run. */
export function planBatch(steps: readonly BatchStepInput[], tools: readonly SandboxTool[]): PlannedStep[] {
  const byName = new Map(tools.map((tool) => [tool.name, tool]));
  return steps.map((step, index) => {
    const tool = byName.get(step.tool);
    if (!tool) {
      const suggestions = closestNames(step.tool, byName.keys());
      const hint = suggestions.length > 0 ? `did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : 'tools/list shows them';
      throw stepProblem(index, 'tool', `names no tool of this editor: "${clipped(step.tool)}" (${hint})`, { suggestions });
    }
    const refusal = refusalOf({ name: tool.name, readOnly: tool.annotations.readOnlyHint === true, longRunning: tool.execution?.longRunning === true });
    if (refusal) throw stepProblem(index, 'tool', `is ${tool.name}, which a batch does not run: ${refusal}`, { step: tool.name });
    const args = checkedArguments(index, tool, step.arguments ?? {});
    const argumentRefusal = refusalOfArguments(tool.name, args);
    if (argumentRefusal) throw stepProblem(index, 'arguments', `makes ${tool.name} a step a batch cannot roll back: ${argumentRefusal}`, { step: tool.name });
    return { index, tool, args };
  });
}

/** The step's arguments as the tool takes them, or INVALID_ARGUMENTS naming the field inside the step. */
function checkedArguments(index: number, tool: SandboxTool, given: Record<string, unknown>): Record<string, unknown> {
  try {
    validatorOf(tool)(given);
    return tool.input.parse(given) as Record<string, unknown>;
  } catch (error) {
    const failure = TetherError.from(error, 'INVALID_ARGUMENTS');
    const field = typeof failure.data.field === 'string' && failure.data.field !== '' ? `arguments.${failure.data.field}` : 'arguments';
    const problem = typeof failure.data.problem === 'string' ? failure.data.problem : failure.message;
    const suggestions = failure.data.suggestions === undefined ? {} : { suggestions: failure.data.suggestions };
    throw stepProblem(index, field, `(for ${tool.name}) ${problem}`, { step: tool.name, ...suggestions });
  }
}
