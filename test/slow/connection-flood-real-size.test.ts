/**
 * The connection flood of the review at its real size (npm run test:slow): 20,000 connections
 * that send nothing or half a request line, from two processes, against `tether serve` with
 * its default limits (5 s to bring a request with the token, 128 such connections at once) and
 * a descriptor limit below the flood, as at the reviewer's, where the server ran out at 21,000.
 * An agent calling on fresh connections the whole time is answered, and the server holds no
 * more than the cap and one turn's connections at any moment.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { openRawSession, startServe } from '../helpers/serve.js';
import { connectionFlood, descriptorLimit, descriptors, percentile, stopFloods } from '../http/connection-flood-scenario.js';

afterEach(async () => {
  await stopFloods();
  await cleanupProcesses();
});

const CONNECTIONS = 20_000;
const ATTACKERS = 2;
const DEFAULT_CAP = 128;
const DEFAULT_HEADER_TIMEOUT_MS = 5_000;
const WINDOW = 512;

describe.skipIf(process.platform !== 'linux')('a flood of 20,000 connections without the token', () => {
  it('is shed by a server with its default limits while an agent keeps getting answers', async () => {
    // Each attacker holds up to half the flood (the server's limit is what must not run out).
    expect(descriptorLimit('self'), 'the attackers need a descriptor limit above 10,000').toBeGreaterThan(CONNECTIONS / ATTACKERS + 100);
    const served = await startServe(createWorkspace());
    const session = await openRawSession(served);
    const outcome = await connectionFlood(served, session, {
      connections: CONNECTIONS,
      attackers: ATTACKERS,
      holdMs: 120_000,
      window: WINDOW,
      serveDescriptorLimit: 16_384,
      settleWithinMs: DEFAULT_HEADER_TIMEOUT_MS + 5_000,
    });
    const p50 = percentile(outcome.latencies, 50);
    const p95 = percentile(outcome.latencies, 95);
    const p99 = percentile(outcome.latencies, 99);
    console.log(
      JSON.stringify({
        limited: outcome.limited,
        answered: outcome.latencies.length,
        p50,
        p95,
        p99,
        max: percentile(outcome.latencies, 100),
        failures: outcome.failures.length,
        peakFds: outcome.peakFds,
        baselineFds: outcome.baselineFds,
        settledMs: outcome.settledMs,
        attackers: outcome.attackers,
      }),
    );

    expect(outcome.attackers.reduce((sum, a) => sum + a.opened, 0)).toBe(CONNECTIONS);
    expect(outcome.settledMs).toBeDefined();
    expect(outcome.failures).toEqual([]);
    expect(p95).toBeLessThan(250);
    expect(p99).toBeLessThan(1_000);
    expect(outcome.peakFds - outcome.baselineFds).toBeLessThanOrEqual(DEFAULT_CAP + ATTACKERS * WINDOW + 16);
    await expect.poll(() => descriptors(served.server.pid), { timeout: 10_000 }).toBeLessThanOrEqual(outcome.baselineFds);
  });
});
