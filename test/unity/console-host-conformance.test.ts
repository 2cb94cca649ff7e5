/**
 * The host conformance suite against the C# console host (the Unity package's Core, without
 * Unity), as test/conformance/sandbox-conformance.test.ts runs it against the sandbox: every
 * check passes and none is skipped, in-process through the src/conformance API and once
 * through the real CLI (`tether conformance`, what `npm run conformance` runs).
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, formatResult, runConformance, type ConformanceReport } from '../../src/conformance/index.js';
import { startConsoleHost, stopConsoleHosts, type ConsoleHostReady } from '../helpers/console-host.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, type Run, type Workspace } from '../helpers/processes.js';

let workspace: Workspace;
let ready: ConsoleHostReady;

beforeAll(async () => {
  workspace = createWorkspace();
  // Short frame timeout and heartbeat, so the timing checks run in well under a second each.
  ({ ready } = await startConsoleHost(workspace, ['--conformance-kit', '--frame-timeout-ms', '500', '--heartbeat-ms', '300']));
});

afterAll(async () => {
  await stopConsoleHosts();
  await cleanupProcesses();
});

/** Runs the CLI to completion; 'close' (not 'exit') so every line of stdout is in. */
function runCli(args: string[]): Promise<Run> {
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, [TETHER_BIN, ...args], { env: workspace.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => (stdout += chunk.toString()));
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('close', (code) => resolve({ code, stdout, stderr }));
  });
}

function expectAllPassed(report: ConformanceReport): void {
  const notPassed = report.results.filter((r) => r.status !== 'passed').map(formatResult);
  expect(notPassed, `checks that did not pass:\n${notPassed.join('\n')}`).toEqual([]);
  expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
  expect(report.conformanceKit).toBe(true);
  expect(report.summary).toEqual({ passed: CHECKS.length, failed: 0, skipped: 0 });
}

describe('conformance suite against the C# console host', () => {
  it('passes every check, none skipped', async () => {
    const report = await runConformance({ project: workspace.project, recordsDir: join(workspace.home, 'hosts') });
    expect(report.host).toMatchObject({ kind: 'console', pid: ready.pid, port: ready.port });
    expectAllPassed(report);
  }, 90_000);

  it('passes every check through the command line, exit 0', async () => {
    const run = await runCli(['conformance', '--project', workspace.project, '--json']);
    expect({ code: run.code, stderr: run.stderr }).toEqual({ code: 0, stderr: '' });
    expectAllPassed(JSON.parse(run.stdout) as ConformanceReport);
  }, 90_000);
});
