/**
 * 4. Recovery and liveness.
 * - Recovery: the host is killed (SIGKILL) and a replacement starts; from the replacement's
 *   host record being written (its own clock, right after host.start()) to the first
 *   successful tools/call through the front (a call issued while the host was away, which the
 *   front holds until the link is back).
 * - Dead-host detection: the host is SIGSTOPped (a half-open peer: the socket stays open and
 *   nothing answers); from the signal to the front's `host link` log line with state "lost".
 */
import { connect } from 'node:net';
import { performance } from 'node:perf_hooks';
import { call, connectStdio, tetherMcpArgs, type StdioSession } from '../lib/mcp.js';
import { createWorkspace, sleep, wallNow, type Workspace } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost } from '../lib/setup.js';
import { median, percentile, round } from '../lib/stats.js';

interface LinkLog {
  state: string;
  time: number;
}

/** Resolves with the first `host link` log line in `state` after `since` (ms, wall clock). */
function linkState(session: StdioSession, state: string, since: number, timeoutMs = 10_000): Promise<LinkLog> {
  const parse = (line: string): LinkLog | undefined => {
    try {
      const log = JSON.parse(line) as { msg?: string; state?: string; time?: number };
      return log.msg === 'host link' && log.state === state && (log.time ?? 0) >= Math.floor(since) ? { state, time: log.time as number } : undefined;
    } catch {
      return undefined;
    }
  };
  const seen = session.stderrLines.map(parse).find(Boolean);
  if (seen) return Promise.resolve(seen);
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${state}" link state within ${timeoutMs} ms; stderr: ${session.stderrLines.slice(-5).join('\n')}`)), timeoutMs);
    session.onStderr = (line) => {
      const log = parse(line);
      if (!log) return;
      clearTimeout(timer);
      session.onStderr = undefined;
      resolve(log);
    };
  });
}

async function tcpConnectMs(port: number): Promise<number> {
  const start = performance.now();
  await new Promise<void>((resolve, reject) => {
    const socket = connect({ port, host: '127.0.0.1' }, () => {
      socket.destroy();
      resolve();
    });
    socket.once('error', reject);
  });
  return performance.now() - start;
}

async function recoveryTrial(ws: Workspace, session: StdioSession, kill: () => Promise<void>): Promise<{ ms: number; authenticatedMs: number; tcpMs: number; nextKill: () => Promise<void> }> {
  const killedAt = wallNow();
  await kill();
  await linkState(session, 'lost', killedAt);
  // A call made while the editor is away: the front holds it until the link is back.
  const pending = call(session.client, 'echo', { text: 'back?' }, 60_000).then(() => wallNow());
  await sleep(100);
  const { host, ready } = await startBenchHost(ws);
  const doneAt = await pending;
  const authenticated = await linkState(session, 'authenticated', Math.floor(ready.recordAt));
  const tcp: number[] = [];
  for (let i = 0; i < 5; i++) tcp.push(await tcpConnectMs(ready.port));
  return { ms: doneAt - ready.recordAt, authenticatedMs: authenticated.time - ready.recordAt, tcpMs: median(tcp), nextKill: () => host.kill() };
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  let current = await startBenchHost(ws);
  const session = await connectStdio(tetherMcpArgs(ws, ['--log-level', 'info']), ws.env);
  await session.client.listTools();
  await call(session.client, 'echo', { text: 'warm' });

  // Recovery after a crash.
  const trials = ctx.quick ? 3 : 8;
  const recoveries: number[] = [];
  const authenticated: number[] = [];
  const tcp: number[] = [];
  let kill = (): Promise<void> => current.host.kill();
  for (let i = 0; i < trials; i++) {
    ctx.log(`recovery: trial ${i + 1}/${trials}`);
    const trial = await recoveryTrial(ws, session, kill);
    recoveries.push(trial.ms);
    authenticated.push(trial.authenticatedMs);
    tcp.push(trial.tcpMs);
    kill = trial.nextKill;
    await sleep(300);
  }

  // Dead-host detection: a stopped host keeps its socket open and answers nothing.
  await kill();
  current = await startBenchHost(ws);
  await call(session.client, 'echo', { text: 'warm' }, 60_000);
  const detections: number[] = [];
  const killDetections: number[] = [];
  const detectTrials = ctx.quick ? 2 : 5;
  for (let i = 0; i < detectTrials; i++) {
    ctx.log(`dead-host detection: trial ${i + 1}/${detectTrials}`);
    await sleep(300 + Math.random() * 700); // land anywhere in the ping cycle
    const stoppedAt = wallNow();
    process.kill(current.ready.pid, 'SIGSTOP');
    const lost = await linkState(session, 'lost', stoppedAt);
    detections.push(lost.time - stoppedAt);
    process.kill(current.ready.pid, 'SIGCONT');
    // Also: how fast a crash (socket closed by the kernel) is noticed.
    await current.host.kill();
    current = await startBenchHost(ws);
    await call(session.client, 'echo', { text: 'warm' }, 60_000);
    const killedAt = wallNow();
    await current.host.kill();
    killDetections.push((await linkState(session, 'lost', killedAt)).time - killedAt);
    current = await startBenchHost(ws);
    await call(session.client, 'echo', { text: 'warm' }, 60_000);
  }
  await session.close();
  await current.host.stop();

  ctx.diagnostics.recovery = {
    recoveryMs: recoveries.map((v) => round(v, 1)),
    recordToAuthenticatedMs: authenticated.map((v) => round(v, 1)),
    tcpConnectMs: tcp.map((v) => round(v, 3)),
    halfOpenDetectionMs: detections.map((v) => round(v, 0)),
    crashDetectionMs: killDetections.map((v) => round(v, 0)),
    note: 'Log times are pino epoch ms (1 ms resolution); record times are sub-ms wall clock from the host process.',
  };
  return [
    entry({
      name: "recovery p50: replacement host's record written → first successful call (vs TCP connect)",
      metric: 'recovery_p50',
      value: median(recoveries),
      unit: 'ms',
      floor: median(tcp),
      goal: { on: 'value', op: '<=', target: 100 },
    }),
    entry({ name: 'recovery max (vs TCP connect)', metric: 'recovery_max', value: percentile(recoveries, 100), unit: 'ms', floor: median(tcp), goal: { on: 'value', op: '<=', target: 100 } }),
    entry({ name: 'dead-host detection p50: SIGSTOP → link "lost"', metric: 'detection_p50', value: median(detections), unit: 'ms', floor: null, goal: { on: 'value', op: '<=', target: 2000 } }),
    entry({
      name: 'dead-host detection max: SIGSTOP → link "lost"',
      metric: 'detection_max',
      value: percentile(detections, 100),
      unit: 'ms',
      floor: null,
      goal: { on: 'value', op: '<=', target: 2000 },
    }),
    entry({ name: 'crashed-host detection p50: SIGKILL → link "lost" (reference)', metric: 'crash_detection_p50', value: median(killDetections), unit: 'ms', floor: null }),
  ];
}
