/**
 * The host conformance kit (docs/protocol.md, "Optional conformance kit"): tools the
 * conformance suite drives to test any host. Exposed only with --conformance-kit.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { defineTool, type MainThreadContext } from './tool.js';

const blockMs = z.number().int().min(0).max(600_000);

function counters(context: MainThreadContext): Record<string, number> {
  return context.project.readJson<Record<string, number>>(context.project.conformancePath, {});
}

function increment(context: MainThreadContext, key: string): number {
  const all = counters(context);
  all[key] = (all[key] ?? 0) + 1;
  context.project.writeJson(context.project.conformancePath, all);
  return all[key];
}

/** Blocks the main thread for `ms`, waking early when cancelled (CANCELLED), or, told to ignore its cancellation, for all of `ms`. */
function block(ms: number, context: MainThreadContext, ignoreCancel = false): { blockedMs: number } {
  const started = Date.now();
  if (ignoreCancel) {
    // Asleep on memory nobody signals: a tool deaf to its cancellation, as the host must expect one (protocol.md §8.6).
    Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
  } else if (!context.block(ms)) {
    throw new TetherError('CANCELLED', `Blocking call cancelled after ${Date.now() - started} ms.`, { started: true });
  }
  return { blockedMs: Date.now() - started };
}

/** Counts `key`, then blocks as tether_conformance_block does: one count per execution, however many requesters share it. */
function countThenBlock(context: MainThreadContext, key: string, ms: number): { key: string; count: number; blockedMs: number } {
  const count = increment(context, key);
  return { key, count, ...block(ms, context) };
}

const sharedInput = z.object({ key: z.string().min(1), ms: blockMs });

export const conformanceKit = [
  defineTool({
    name: 'tether_conformance_block',
    description: 'Conformance kit: blocks the main thread synchronously for `ms` milliseconds, waking early when cancelled.',
    input: z.object({
      ms: blockMs,
      ignoreCancel: z.boolean().optional().describe('Keep blocking for all of `ms` when cancelled or past the deadline, as a tool that ignores its signal.'),
    }),
    annotations: { readOnlyHint: false, idempotentHint: false },
    execution: { longRunning: true, duplicates: 'allow' },
    run: ({ ms, ignoreCancel }, context) => block(ms, context, ignoreCancel),
  }),
  defineTool({
    name: 'tether_conformance_count',
    description: 'Conformance kit: increments the counter `key` and returns it. Not idempotent.',
    input: z.object({ key: z.string().min(1) }),
    annotations: { readOnlyHint: false, idempotentHint: false },
    // No duplicate policy: the default (allow, for a short tool) is what the kit checks.
    run: ({ key }, context) => ({ key, count: increment(context, key) }),
  }),
  defineTool({
    name: 'tether_conformance_read',
    description: 'Conformance kit: returns the counter `key`.',
    input: z.object({ key: z.string().min(1) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ key }, context) => ({ key, count: counters(context)[key] ?? 0 }),
  }),
  defineTool({
    name: 'tether_conformance_reload',
    description: 'Conformance kit: journals its result, then reloads the code domain.',
    input: z.object({}),
    annotations: { readOnlyHint: false, idempotentHint: true },
    run: (_args, context) => {
      context.requestReload('compile');
      return { reloading: true };
    },
  }),
  defineTool({
    name: 'tether_conformance_wait',
    description: 'Conformance kit: waits `ms` milliseconds without holding the main thread (mainThread: false).',
    input: z.object({ ms: blockMs }),
    annotations: { readOnlyHint: false, idempotentHint: false },
    execution: { longRunning: true, mainThread: false, duplicates: 'allow' },
    // Deaf to cancellation: the main thread's one cancellation flag belongs to the call that
    // holds it, and this one runs beside it. It holds nothing, so it may run its course.
    run: async ({ ms }) => {
      const started = Date.now();
      await new Promise((resolve) => setTimeout(resolve, ms));
      return { waitedMs: Date.now() - started };
    },
  }),
  defineTool({
    name: 'tether_conformance_attach',
    description: 'Conformance kit: increments the counter `key`, then blocks the main thread for `ms` milliseconds (waking early when cancelled). An identical call in flight attaches to it.',
    input: sharedInput,
    annotations: { readOnlyHint: false, idempotentHint: false },
    execution: { longRunning: true, duplicates: 'attach' },
    run: ({ key, ms }, context) => countThenBlock(context, key, ms),
  }),
  defineTool({
    name: 'tether_conformance_reject',
    description: 'Conformance kit: increments the counter `key`, then blocks the main thread for `ms` milliseconds (waking early when cancelled). An identical call in flight is refused.',
    input: sharedInput,
    annotations: { readOnlyHint: false, idempotentHint: false },
    execution: { longRunning: true, duplicates: 'reject' },
    run: ({ key, ms }, context) => countThenBlock(context, key, ms),
  }),
];
