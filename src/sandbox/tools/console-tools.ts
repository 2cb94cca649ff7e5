/** Console tools: read and clear the editor console. */
import { z } from 'zod';
import { defineTool } from './tool.js';

export const consoleTools = [
  defineTool({
    name: 'read_console',
    title: 'Read console',
    description: 'Returns editor console entries (logs, warnings, errors), newest last.',
    input: z.object({
      types: z.array(z.enum(['log', 'warning', 'error'])).optional().describe('Only these entry types.'),
      count: z.number().int().min(1).max(10_000).default(100).describe('At most this many (the newest).'),
      filter: z.string().optional().describe('Only entries whose message contains this text.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (args, { console }) => {
      const entries = console.read(args);
      return { count: entries.length, entries };
    },
  }),

  defineTool({
    name: 'clear_console',
    title: 'Clear console',
    description: 'Removes every entry from the editor console.',
    input: z.object({}),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: (_args, { console }) => ({ cleared: console.clear() }),
  }),
];
