/**
 * The host conformance suite against the C# console host (the Unity package's Core, without
 * Unity), as test/conformance/sandbox-conformance.test.ts runs it against the sandbox: every
 * check passes and none is skipped but the eviction check (the host declares no connection
 * limit), in-process through the src/conformance API and once through the real CLI (`tether
 * conformance`, what `npm run conformance` runs); and, serving one connection at a time, it
 * fails none and evicts as it should.
 */
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, formatResult, runConformance, type ConformanceReport } from '../../src/conformance/index.js';
import { FAST_HOST_FLAGS, runCli, SINGLE_CONNECTION_RUN, UNLIMITED_HOST_SKIPS } from '../helpers/conformance-runs.js';
import { startConsoleHost, stopConsoleHosts, type ConsoleHostReady } from '../helpers/console-host.js';
import { cleanupProcesses, createWorkspace, type Workspace } from '../helpers/processes.js';

let workspace: Workspace;
let ready: ConsoleHostReady;

beforeAll(async () => {
  workspace = createWorkspace();
  ({ ready } = await startConsoleHost(workspace, ['--conformance-kit', ...FAST_HOST_FLAGS]));
});

afterAll(async () => {
  await stopConsoleHosts();
  await cleanupProcesses();
});


function expectAllPassed(report: ConformanceReport): void {
  const notPassed = report.results.filter((r) => r.status !== 'passed' && !UNLIMITED_HOST_SKIPS.includes(r.id)).map(formatResult);
  expect(notPassed, `checks that did not pass:\n${notPassed.join('\n')}`).toEqual([]);
  expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
  expect(report.conformanceKit).toBe(true);
  expect(report.summary).toEqual({ passed: CHECKS.length - UNLIMITED_HOST_SKIPS.length, failed: 0, skipped: UNLIMITED_HOST_SKIPS.length });
}

describe('conformance suite against the C# console host', () => {
  it('passes every check, none skipped but the eviction check', async () => {
    const report = await runConformance({ project: workspace.project, recordsDir: join(workspace.home, 'hosts') });
    expect(report.host).toMatchObject({ kind: 'console', pid: ready.pid, port: ready.port });
    expectAllPassed(report);
  }, 90_000);

  it('passes every check through the command line, exit 0', async () => {
    const run = await runCli(workspace, ['conformance', '--project', workspace.project, '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expectAllPassed(JSON.parse(run.stdout) as ConformanceReport);
  }, 90_000);

  it('serving one connection at a time: skips the checks that hold more, fails none, and evicts as it should', async () => {
    const single = createWorkspace();
    await startConsoleHost(single, ['--conformance-kit', '--max-connections', '1', ...FAST_HOST_FLAGS]);
    const report = await runConformance({ project: single.project, recordsDir: join(single.home, 'hosts'), checks: SINGLE_CONNECTION_RUN });
    const failed = report.results.filter((r) => r.status === 'failed').map(formatResult);
    expect(failed, failed.join('\n')).toEqual([]);
    expect(report.results.filter((r) => r.status === 'skipped').map((r) => r.id)).toEqual(CHECKS.filter((c) => (c.connections ?? 1) > 1).map((c) => c.id));
    expect(report.results.find((r) => r.id === 'connections.eviction')?.status).toBe('passed');
  }, 90_000);
});
