/**
 * The attacks an adversarial review found, as regression cases named by what they do. Each
 * case runs on its own processes; a case that throws is a failure of the suite, with its seed.
 */
import { closeMcpSessions } from '../../../test/helpers/mcp-client.js';
import { cleanupProcesses } from '../../../test/helpers/processes.js';
import { stopFloods } from '../../../test/http/connection-flood-scenario.js';
import { ZERO, NONE, atMost, type SuiteRecorder } from '../lib/figures.js';
import { percentile } from '../lib/stats.js';
import { nestingCase, strangerCase } from './host-cases.js';
import { connectionFloodCase, hostHeaderCase, serveRefusalCase, sessionFloodCase } from './http-cases.js';
import { squatterCase } from './squatter.js';

/** The worst a witness call may wait while strangers hold the server or nested frames are refused (ms). */
const WITNESS_LIMIT_MS = 2_000;

async function attempt(recorder: SuiteRecorder, name: string, run: () => Promise<void>): Promise<void> {
  try {
    await run();
  } catch (error) {
    recorder.fail(name, error);
  } finally {
    await stopFloods();
    await closeMcpSessions();
    await cleanupProcesses();
  }
}

export async function runAttacks(full: boolean, recorder: SuiteRecorder, log: (line: string) => void): Promise<void> {
  await attempt(recorder, 'connection flood', async () => {
    const flood = await connectionFloodCase(full);
    const what = `connections that never finish a request, ${flood.connections.toLocaleString('en-US')} of them`;
    recorder.add(
      `${what}: the agent's requests refused or unanswered`,
      flood.agentFailures.length,
      'requests',
      ZERO,
      `${flood.agentAnswered} answered, p99 ${Math.round(flood.p99Ms)} ms${flood.limited ? '' : "; serve ran under the machine's descriptor limit (no prlimit)"}`,
    );
    recorder.add(`${what}: the agent's p99 latency`, Math.round(flood.p99Ms), 'ms', atMost(WITNESS_LIMIT_MS));
    recorder.add(
      `${what}: serve still holding strangers' descriptors after the header timeout`,
      flood.settledMs === undefined ? 1 : 0,
      'floods',
      ZERO,
      flood.settledMs === undefined ? 'not back to its baseline' : `back to its baseline ${Math.round(flood.settledMs)} ms after the last connection opened`,
    );
    for (const failure of flood.agentFailures.slice(0, 3)) recorder.note(`connection flood: ${failure}`);
    log('attack: connection flood done');
  });

  await attempt(recorder, 'proof-less squatter', async () => {
    const squatter = await squatterCase();
    recorder.add('a program holding the port without proofs: token bytes it received', squatter.tokensReceived, 'tokens', ZERO, `${squatter.connections} connection(s) from the front`);
    recorder.add(
      'a program holding the port without proofs: calls reported a success with its answer',
      squatter.falseSuccess ? 1 : 0,
      'calls',
      ZERO,
      `tether call exited ${squatter.exitCode}: ${squatter.stderr.slice(0, 200)}`,
    );
    log('attack: squatter done');
  });

  await attempt(recorder, 'deep nesting', async () => {
    const frames = 8;
    const frameMiB = full ? 60 : 4;
    const nesting = await nestingCase(frames, frameMiB);
    const what = `${frames} frames of ${frameMiB} MiB of nested arrays at once`;
    recorder.add(`${what}: refused`, nesting.refused, 'frames', { kind: 'atLeast', value: frames });
    recorder.add(`${what}: another client's calls failed meanwhile`, nesting.failures.length, 'calls', ZERO, `${nesting.latencies.length} answered`);
    recorder.add(`${what}: another client's slowest call meanwhile`, Math.round(percentile(nesting.latencies, 100)), 'ms', atMost(WITNESS_LIMIT_MS));
    recorder.add(`${what}: the editor's peak RSS growth`, Math.round(nesting.peakGrowthMiB), 'MiB', NONE);
    log('attack: nesting done');
  });

  await attempt(recorder, 'session flood', async () => {
    const flood = await sessionFloodCase();
    const what = `${flood.initializes} session initializes from one client in waves of 32`;
    recorder.add(
      `${what}: the session of an agent working before it refused after it`,
      flood.agentRefused ? 1 : 0,
      'sessions',
      ZERO,
      `answers: ${Object.entries(flood.statuses)
        .map(([s, n]) => `${s}: ${n}`)
        .join(', ')}`,
    );
    recorder.add(`${what}: another client refused a session after it`, flood.newcomerRefused ? 1 : 0, 'sessions', ZERO);
    recorder.add(`${what}: sessions evicted`, flood.evictions, 'sessions', ZERO);
    log('attack: session flood done');
  });

  await attempt(recorder, 'Host headers', async () => {
    const hosts = await hostHeaderCase();
    recorder.add('Host headers other than host[:port], or two of them: accepted', hosts.accepted.length, 'requests', ZERO, hosts.accepted.join('; ') || '7 kinds refused with 400');
    recorder.add('Host headers other than host[:port]: the server stopped serving after them', hosts.stillServing ? 0 : 1, 'servers', ZERO);
    log('attack: Host headers done');
  });

  await attempt(recorder, 'refusals naming the home folder', async () => {
    const host = await strangerCase();
    const serve = await serveRefusalCase();
    recorder.add(
      'refusals to strangers naming the token, TETHER_HOME or the home folder (host and serve)',
      host.leaks.length + serve.length,
      'answers',
      ZERO,
      `${host.answers} host refusals read, 3 serve 401s read`,
    );
    for (const leak of [...host.leaks, ...serve]) recorder.note(`refusal leak: ${leak}`);
    log('attack: refusals done');
  });
}
