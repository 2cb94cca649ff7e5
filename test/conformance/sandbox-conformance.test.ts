/**
 * The conformance suite against the sandbox editor, the reference host: in-process through
 * the src/conformance API (every check must pass), once through the real CLI, and against a
 * sandbox that serves one connection at a time (the checks that need more are skipped, none
 * fails, and the eviction check runs).
 */
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, KIT, formatResult, runConformance, type Check } from '../../src/conformance/index.js';
import { FAST_HOST_FLAGS, ids, runCli, SINGLE_CONNECTION_RUN, UNLIMITED_HOST_SKIPS } from '../helpers/conformance-runs.js';
import { cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

let workspace: Workspace;

beforeAll(async () => {
  workspace = createWorkspace();
  await startSandbox(workspace, ['--conformance-kit', ...FAST_HOST_FLAGS]);
});

afterAll(cleanupProcesses);

describe('conformance suite against the sandbox', () => {
  it('passes every check (but the eviction check, on a host with no connection limit)', async () => {
    const report = await runConformance({ project: workspace.project, recordsDir: join(workspace.home, 'hosts') });
    const notPassed = report.results.filter((r) => r.status !== 'passed' && !UNLIMITED_HOST_SKIPS.includes(r.id)).map(formatResult);
    expect(notPassed, `checks that did not pass:\n${notPassed.join('\n')}`).toEqual([]);
    expect(ids(report, 'skipped')).toEqual(UNLIMITED_HOST_SKIPS);
    expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
    expect(report.conformanceKit).toBe(true);
  }, 60_000);

  it('runs from the command line with --only and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(workspace, ['conformance', '--project', workspace.project, '--only', 'handshake']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const handshakeChecks = CHECKS.filter((c) => c.id.includes('handshake')).length;
    expect(stdout.split('\n')).toContain(`${handshakeChecks} passed, 0 failed`);
    expect(stdout).not.toContain('✗');
  });

  it('against a sandbox serving one connection at a time: skips the checks that hold more, fails none, and checks the eviction', async () => {
    const single = createWorkspace();
    await startSandbox(single, ['--conformance-kit', '--max-connections', '1', ...FAST_HOST_FLAGS]);
    const report = await runConformance({ project: single.project, recordsDir: join(single.home, 'hosts'), checks: SINGLE_CONNECTION_RUN });
    const failed = report.results.filter((r) => r.status === 'failed').map(formatResult);
    expect(failed, failed.join('\n')).toEqual([]);
    expect(ids(report, 'skipped')).toEqual(CHECKS.filter((c) => (c.connections ?? 1) > 1).map((c) => c.id));
    expect(report.results.find((r) => r.id === 'connections.eviction')?.status).toBe('passed');
  }, 60_000);

  // A block a check's cleanup did not cancel held the main thread through the checks after it,
  // which failed for what they did not do (seen once in a clean-clone run, under load).
  it('lets no call a check left behind hold the main thread for the next check', async () => {
    const left = createWorkspace();
    await startSandbox(left, ['--conformance-kit']);
    const leaves: Check = {
      id: 'test.leaves-a-block',
      requirement: 'LV-1',
      title: 'starts a long block and leaves it running, with no cleanup',
      async run(context) {
        const session = await context.connect();
        void session.start({ callId: `conformance-left-${Date.now()}`, tool: KIT.block, arguments: { ms: 60_000 } }).catch(() => undefined);
        await expect.poll(async () => (await session.hostStatus()).calls.length).toBe(1);
      },
    };
    const next: Check = {
      id: 'test.needs-the-main-thread',
      requirement: 'LV-1',
      title: 'a count answers within 3 s',
      async run(context) {
        const session = await context.connect();
        const counted = session.start({ callId: `conformance-next-${Date.now()}`, tool: KIT.count, arguments: { key: 'next' } });
        await Promise.race([counted, delay(3_000).then(() => Promise.reject(new Error('the main thread was still held')))]);
      },
    };
    const report = await runConformance({ project: left.project, recordsDir: join(left.home, 'hosts'), checks: [leaves, next] });
    expect(report.results.map((r) => [r.id, r.status, r.detail])).toEqual([
      ['test.leaves-a-block', 'passed', undefined],
      ['test.needs-the-main-thread', 'passed', undefined],
    ]);
  });

  // A host that does not ping (protocol.md §11: 0 disables it) failed the host-pings check.
  it('skips the host-pings check, not fails it, against a sandbox that says in its hello it does not ping', async () => {
    const quiet = createWorkspace();
    await startSandbox(quiet, ['--conformance-kit', '--ping-interval-ms', '0']);
    const report = await runConformance({ project: quiet.project, recordsDir: join(quiet.home, 'hosts'), checks: CHECKS.filter((c) => c.id === 'liveness.host-pings') });
    expect(report.results).toMatchObject([{ id: 'liveness.host-pings', status: 'skipped', detail: expect.stringContaining('pingIntervalMs 0') }]);
  });
});
