/**
 * The host conformance kit (docs/protocol.md, "Optional conformance kit"): tools the
 * conformance suite drives to test any host. Exposed only with --conformance-kit.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { defineTool, type MainThreadContext } from './tool.js';

function counters(context: MainThreadContext): Record<string, number> {
  return context.project.readJson<Record<string, number>>(context.project.conformancePath, {});
}

export const conformanceKit = [
  defineTool({
    name: 'tether_conformance_block',
    description: 'Conformance kit: blocks the main thread synchronously for `ms` milliseconds, waking early when cancelled.',
    input: z.object({ ms: z.number().int().min(0).max(600_000) }),
    annotations: { readOnlyHint: false, idempotentHint: false },
    execution: { longRunning: true, duplicates: 'allow' },
    run: ({ ms }, context) => {
      const started = Date.now();
      if (!context.block(ms)) throw new TetherError('CANCELLED', `Blocking call cancelled after ${Date.now() - started} ms.`, { started: true });
      return { blockedMs: Date.now() - started };
    },
  }),
  defineTool({
    name: 'tether_conformance_count',
    description: 'Conformance kit: increments the counter `key` and returns it. Not idempotent.',
    input: z.object({ key: z.string().min(1) }),
    annotations: { readOnlyHint: false, idempotentHint: false },
    // No duplicate policy: the default (allow, for a short tool) is what the kit checks.
    run: ({ key }, context) => {
      const all = counters(context);
      all[key] = (all[key] ?? 0) + 1;
      context.project.writeJson(context.project.conformancePath, all);
      return { key, count: all[key] };
    },
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
];
