import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { CHAOS_RUN, chaosSeed, runChaos, summary } from './chaos-scenario.js';

/** Fixed, so a run that fails here fails with the same schedule again; the slow suite draws a new seed each time. */
const FIXED_SEED = 20_260_426;

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('chaos', () => {
  it('keeps every operation at most once through reloads, crashes, killed fronts and cancellations', async () => {
    const seed = chaosSeed(FIXED_SEED);
    const run = await runChaos(createWorkspace(), { seed, ...CHAOS_RUN });
    console.info(summary(seed, run));
    expect(run.events.length).toBeGreaterThan(3);
  }, 120_000);
});
