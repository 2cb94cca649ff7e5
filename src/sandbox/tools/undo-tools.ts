/**
 * undo and redo: the editor's undo history (Edit > Undo, Edit > Redo), where each tool call
 * that edited is one step (src/sandbox/undo.ts). Unity's API performs a step without saying
 * what it undid, so `names` is optional: the sandbox gives it, Unity cannot.
 */
import { z } from 'zod';
import { defineTool } from './tool.js';

const steps = z.number().int().min(1).max(100).default(1).describe('How many steps (each one tool call that edited, or one editor action).');

function output(action: 'undo' | 'redo') {
  const verb = `${action}ne`;
  return z.object({
    performed: z
      .number()
      .int()
      .describe(`How many steps were ${verb}. The sandbox stops when its history runs out; Unity performs each step asked for (one with nothing left to ${action} does nothing).`),
    names: z.array(z.string()).optional().describe(`The steps ${verb}, in the order performed, when the editor can tell (Unity's API does not say).`),
  });
}

export const undoTools = [
  defineTool({
    name: 'undo',
    title: 'Undo',
    description: 'Undoes the last edits, as Edit > Undo: one step per tool call that edited. With nothing to undo, it does nothing.',
    input: z.object({ steps }),
    output: output('undo'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ steps: count }, { undo }) => {
      const names = undo.undo(count);
      return { performed: names.length, names };
    },
  }),

  defineTool({
    name: 'redo',
    title: 'Redo',
    description: 'Redoes what undo undid, as Edit > Redo. A new edit after an undo clears what could be redone.',
    input: z.object({ steps }),
    output: output('redo'),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ steps: count }, { undo }) => {
      const names = undo.redo(count);
      return { performed: names.length, names };
    },
  }),
];
