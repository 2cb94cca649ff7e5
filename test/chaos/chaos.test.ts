import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { runChaos } from './chaos-scenario.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('chaos', () => {
  it('keeps every operation at most once through reloads, crashes, killed fronts and cancellations', async () => {
    const seed = Number(process.env.CHAOS_SEED ?? Math.floor(Math.random() * 2 ** 31));
    console.info(`chaos seed ${seed} (rerun with CHAOS_SEED=${seed})`);
    const { operations, events } = await runChaos(createWorkspace(), { seed, agents: 4, operationsPerAgent: 25, chaosEveryMs: [400, 1_200], thinkMs: [100, 500] });
    const tally: Record<string, number> = {};
    for (const op of operations) tally[op.outcome ?? 'none'] = (tally[op.outcome ?? 'none'] ?? 0) + 1;
    console.info(`chaos seed ${seed}: ${operations.length} operations, events [${events.join(', ')}], outcomes ${JSON.stringify(tally)}`);
    expect(events.length).toBeGreaterThan(3);
  }, 120_000);
});
