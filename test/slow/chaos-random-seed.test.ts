/**
 * The chaos test with a new seed each run and twice the operations (npm run test:slow): each
 * run explores another schedule. The seed is printed first; a failure says how to replay it.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { CHAOS_RUN, chaosSeed, runChaos, summary } from '../chaos/chaos-scenario.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('chaos with a random seed', () => {
  it('keeps every operation at most once through reloads, crashes, killed fronts and cancellations', async () => {
    const seed = chaosSeed(Math.floor(Math.random() * 2 ** 31));
    const run = await runChaos(createWorkspace(), { seed, ...CHAOS_RUN, operationsPerAgent: CHAOS_RUN.operationsPerAgent * 2 });
    console.info(summary(seed, run));
    expect(run.events.length).toBeGreaterThan(3);
  }, 300_000);
});
