/**
 * 6. Memory: RSS of an idle `tether mcp` (against the idle SDK floor server), and the RSS
 * `tether serve` spends per MCP session, from 1,000 to 2,000 sessions and for the first 1,000
 * of a fresh server (against the SDK floor HTTP server, one SDK transport and server per
 * session, under the same load), with idle sessions asleep and kept awake; plus the live JS
 * heap per session after a forced GC, asleep against awake.
 * Sessions are opened with raw fetch: a 2025-11-25 initialize, then notifications/initialized.
 */
import { openSessions } from '../helpers/mcp-sessions.js';
import { helper } from '../lib/build.js';
import { call, connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { REPO_ROOT, createWorkspace, memoryOf, node, sleep, type Workspace } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost, startFloorHttp, startServe } from '../lib/setup.js';
import { median, round } from '../lib/stats.js';

const SESSIONS = 1000;

async function idleRss(args: string[], env: Record<string, string>, settleMs: number): Promise<number> {
  const session = await connectStdio(args, env);
  await session.client.listTools();
  await call(session.client, 'echo', { text: 'ping' });
  await sleep(settleMs);
  const rss = memoryOf(session.pid).rssKB / 1024;
  await session.close();
  return rss;
}

interface PerSession {
  /** RSS growth per session, for SESSIONS sessions opened on top of the first SESSIONS. */
  kb: number;
  /** The same for the first SESSIONS sessions of a fresh server (V8's one-time growth included). */
  freshKb: number;
  beforeMiB: number;
  afterMiB: number;
  seconds: number;
}

/**
 * RSS growth per session. The first SESSIONS sessions of a fresh server also pay for what any
 * sustained load makes V8 grow once (its young generation goes from 16 to 32 MiB, ~16 KiB per
 * session here) and for compiling code: that is the fresh figure. SESSIONS more, opened on
 * top of them after a settle, cost what a session costs.
 */
async function perSession(url: string, token: string | undefined, pid: number, settleMs: number): Promise<PerSession> {
  await openSessions(url, token, 20);
  await sleep(settleMs);
  const fresh = memoryOf(pid).rssKB;
  await openSessions(url, token, SESSIONS);
  await sleep(settleMs);
  const before = memoryOf(pid).rssKB;
  const start = Date.now();
  await openSessions(url, token, SESSIONS);
  const seconds = (Date.now() - start) / 1000;
  await sleep(settleMs);
  const after = memoryOf(pid).rssKB;
  return { kb: (after - before) / SESSIONS, freshKb: (before - fresh) / SESSIONS, beforeMiB: before / 1024, afterMiB: after / 1024, seconds };
}

async function servePerSession(ws: Workspace, extra: string[], settleMs: number): Promise<PerSession> {
  const { serve, url, token } = await startServe(ws, ['--interactive-sessions', String(SESSIONS * 3), ...extra]);
  const measured = await perSession(url, token, serve.pid, settleMs);
  await serve.stop();
  return measured;
}

/** Live heap per session after a forced GC (bench/helpers/serve-live-heap.ts). */
async function liveHeapPerSession(ws: Workspace, dormantMs: number): Promise<{ liveKiBPerSession: number; awake: number }> {
  const child = node(helper('serve-live-heap'), [REPO_ROOT, ws.project, String(SESSIONS), String(dormantMs)], ws.env, { execArgv: ['--expose-gc'] });
  const line = await child.waitForLine((l) => l.startsWith('{"liveKiBPerSession"'), 120_000);
  await child.exited;
  return JSON.parse(line) as { liveKiBPerSession: number; awake: number };
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  await startBenchHost(ws);
  const settleMs = ctx.quick ? 2_000 : 4_000;
  const samples = ctx.quick ? 2 : 4;
  const tetherIdle: number[] = [];
  const floorIdle: number[] = [];
  for (let i = 0; i < samples; i++) {
    tetherIdle.push(await idleRss(tetherMcpArgs(ws), ws.env, settleMs));
    floorIdle.push(await idleRss([helper('floor-sdk-server')], ws.env, settleMs));
  }

  ctx.log(`memory: ${SESSIONS} sessions on tether serve and on the SDK floor HTTP server`);
  // Idle sessions sleep (http-session.ts) after --session-dormant-ms, 60 s by default; here it
  // is shortened so that they have slept when the settle ends. The same load again with
  // sleeping off (an hour) shows what an awake session costs.
  const dormantMs = Math.floor(settleMs / 4);
  const tether = await servePerSession(ws, ['--session-dormant-ms', String(dormantMs)], settleMs);
  const awake = await servePerSession(ws, ['--session-dormant-ms', String(3_600_000)], settleMs);
  const liveAsleep = await liveHeapPerSession(ws, dormantMs);
  const liveAwake = await liveHeapPerSession(ws, 3_600_000);
  const floorServer = await startFloorHttp(ws.env);
  const floor = await perSession(floorServer.url, undefined, floorServer.server.pid, settleMs);
  await floorServer.server.stop();

  ctx.diagnostics.memory = {
    idleTetherMcpMiB: tetherIdle.map((v) => round(v, 1)),
    idleSdkFloorMiB: floorIdle.map((v) => round(v, 1)),
    tetherServe: {
      dormantAfterMs: dormantMs,
      perSessionKB: round(tether.kb, 1),
      freshPerSessionKB: round(tether.freshKb, 1),
      rssBeforeMiB: round(tether.beforeMiB, 1),
      rssAfterMiB: round(tether.afterMiB, 1),
      secondsToOpen: round(tether.seconds, 2),
    },
    tetherServeAwake: {
      perSessionKB: round(awake.kb, 1),
      freshPerSessionKB: round(awake.freshKb, 1),
      rssBeforeMiB: round(awake.beforeMiB, 1),
      rssAfterMiB: round(awake.afterMiB, 1),
      secondsToOpen: round(awake.seconds, 2),
    },
    sdkFloorHttp: {
      perSessionKB: round(floor.kb, 1),
      freshPerSessionKB: round(floor.freshKb, 1),
      rssBeforeMiB: round(floor.beforeMiB, 1),
      rssAfterMiB: round(floor.afterMiB, 1),
      secondsToOpen: round(floor.seconds, 2),
    },
    liveHeap: { asleep: liveAsleep, awake: liveAwake },
    note: `RSS read after ${settleMs} ms of settling; per session: ${SESSIONS} sessions opened on top of the first ${SESSIONS}; fresh: the first ${SESSIONS}. tether serve collects the memory of sleeping and ended sessions itself (src/http/memory-reclaimer.ts); nothing else forces a GC. Live heap: after two forced GCs, in a process running TetherServer itself.`,
  };
  return [
    entry({ name: 'idle tether mcp RSS (vs idle SDK floor server)', metric: 'rss_idle', value: median(tetherIdle), unit: 'MiB', floor: median(floorIdle) }),
    entry({
      name: `tether serve RSS per idle session from ${SESSIONS} to ${SESSIONS * 2} sessions, asleep (vs SDK floor HTTP server)`,
      metric: 'rss_per_session',
      value: tether.kb,
      unit: 'KiB',
      floor: floor.kb,
      goal: { on: 'value', op: '<=', target: 20 },
    }),
    entry({
      name: `tether serve RSS per idle session for the first ${SESSIONS} sessions of a fresh server, asleep (reference; vs SDK floor HTTP server)`,
      metric: 'rss_per_session',
      value: tether.freshKb,
      unit: 'KiB',
      floor: floor.freshKb,
    }),
    entry({
      name: `tether serve RSS per session from ${SESSIONS} to ${SESSIONS * 2} sessions kept awake (reference; vs SDK floor HTTP server)`,
      metric: 'rss_per_session',
      value: awake.kb,
      unit: 'KiB',
      floor: floor.kb,
    }),
    entry({
      name: `tether serve live JS heap per idle session after a forced GC, asleep (reference; vs kept awake)`,
      metric: 'heap_per_session',
      value: liveAsleep.liveKiBPerSession,
      unit: 'KiB',
      floor: liveAwake.liveKiBPerSession,
    }),
  ];
}
