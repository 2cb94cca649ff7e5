/** Incident 1 and the keepalive promise at the durations of the real incident (npm run test:slow). */
import { afterEach, describe, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { closeProxies, incidentOne, progressKeepsClientAlive } from '../regressions/scenarios.js';

afterEach(async () => {
  await closeMcpSessions();
  await closeProxies();
  await cleanupProcesses();
});

describe('real durations', () => {
  it('incident 1: a 35 s build under a 30 s frame I/O timeout, re-sent every 10 s, link dropped once, runs once', async () => {
    await incidentOne(createWorkspace(), { buildMs: 35_000, frameTimeoutMs: 30_000, resendEveryMs: 10_000, dropAtMs: 15_000, heartbeatMs: 5_000 });
  }, 120_000);

  it('progress keeps an SDK client with a 5 s timeout and resetTimeoutOnProgress alive through a 30 s build', async () => {
    await progressKeepsClientAlive(createWorkspace(), { buildMs: 30_000, requestTimeoutMs: 5_000 });
  }, 120_000);
});
