/**
 * The conformance suite against the sandbox editor, the reference host: in-process through
 * the src/conformance API (every check must pass), and once through the real CLI.
 */
import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CHECKS, formatResult, runConformance } from '../../src/conformance/index.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

let workspace: Workspace;

beforeAll(async () => {
  workspace = createWorkspace();
  // Short frame timeout and heartbeat, so the timing checks run in well under a second each.
  await startSandbox(workspace, ['--conformance-kit', '--frame-timeout-ms', '500', '--heartbeat-ms', '300']);
});

afterAll(cleanupProcesses);

/** Runs the CLI to completion; 'close' (not 'exit') so every line of stdout is in. */
function runCli(args: string[]): Promise<{ code: number | null; stdout: string; stderr: string }> {
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

describe('conformance suite against the sandbox', () => {
  it('passes every check', async () => {
    const report = await runConformance({ project: workspace.project, recordsDir: join(workspace.home, 'hosts') });
    const notPassed = report.results.filter((r) => r.status !== 'passed').map(formatResult);
    expect(notPassed, `checks that did not pass:\n${notPassed.join('\n')}`).toEqual([]);
    expect(report.results.map((r) => r.id)).toEqual(CHECKS.map((c) => c.id));
    expect(report.conformanceKit).toBe(true);
    expect(report.summary).toEqual({ passed: CHECKS.length, failed: 0, skipped: 0 });
  }, 60_000);

  it('runs from the command line with --only and exits 0', async () => {
    const { code, stdout, stderr } = await runCli(['conformance', '--project', workspace.project, '--only', 'handshake']);
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
    const handshakeChecks = CHECKS.filter((c) => c.id.includes('handshake')).length;
    expect(stdout.split('\n')).toContain(`${handshakeChecks} passed, 0 failed`);
    expect(stdout).not.toContain('✗');
  });
});
