/**
 * What the two conformance test files (the sandbox's and the C# console host's) run the suite
 * with: the same host flags, the same checks for a single-connection host, the same CLI run.
 */
import { spawn } from 'node:child_process';
import { CHECKS, type ConformanceReport } from '../../src/conformance/index.js';
import { TETHER_BIN, type Run, type Workspace } from './processes.js';

/**
 * Short timings, so that the timing checks run in well under a second each: frame timeout,
 * heartbeat, host pings, handshake timeout and the grace before a deaf tool is given up.
 */
export const FAST_HOST_FLAGS = ['--frame-timeout-ms', '500', '--heartbeat-ms', '300', '--ping-interval-ms', '400', '--handshake-timeout-ms', '1000', '--deadline-grace-ms', '500'];

/** What a host without a connection limit skips: it has no one to evict. */
export const UNLIMITED_HOST_SKIPS = ['connections.eviction'];

/**
 * What a host serving one connection at a time is checked with: every check but the reload
 * checks and the slow timing checks that hold a single connection each (an eviction cannot
 * touch them, and they take most of a run's time).
 */
export const SINGLE_CONNECTION_RUN = CHECKS.filter(
  (c) =>
    !c.needs?.includes('tether_conformance_reload') &&
    ![
      'handshake.timeout',
      'framing.byte-by-byte',
      'framing.frame-timeout',
      'framing.idle-connection',
      'liveness.host-pings',
      'deadline.exceeded',
      'deadline.queued-time',
      'deadline.give-up',
      'progress.heartbeat',
      'progress.queued-heartbeat',
    ].includes(c.id),
);

/** Runs the CLI to completion; 'close' (not 'exit') so every line of stdout is in. */
export function runCli(workspace: Workspace, args: string[]): Promise<Run> {
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

/** The ids of the checks the report has in `status`. */
export function ids(report: ConformanceReport, status: 'passed' | 'failed' | 'skipped'): string[] {
  return report.results.filter((r) => r.status === status).map((r) => r.id);
}
