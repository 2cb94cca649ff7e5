/**
 * 6. Memory: RSS of an idle `tether mcp` (against the idle SDK floor server), and the RSS
 * `tether serve` spends per MCP session at 1,000 sessions (against the SDK floor HTTP server,
 * one SDK transport and server per session, under the same load). Sessions are opened with
 * raw fetch: a 2025-11-25 initialize, then notifications/initialized.
 */
import { helper } from '../lib/build.js';
import { call, connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { createWorkspace, memoryOf, sleep } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost, startFloorHttp, startServe } from '../lib/setup.js';
import { median, round } from '../lib/stats.js';

const SESSIONS = 1000;
const PROTOCOL = '2025-11-25';

async function idleRss(args: string[], env: Record<string, string>, settleMs: number): Promise<number> {
  const session = await connectStdio(args, env);
  await session.client.listTools();
  await call(session.client, 'echo', { text: 'ping' });
  await sleep(settleMs);
  const rss = memoryOf(session.pid).rssKB / 1024;
  await session.close();
  return rss;
}

async function openSession(url: string, token: string | undefined): Promise<string> {
  const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  const init = await fetch(url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: PROTOCOL, capabilities: {}, clientInfo: { name: 'bench-sessions', version: '1' } } }),
  });
  await init.text();
  const id = init.headers.get('mcp-session-id');
  if (!init.ok || !id) throw new Error(`initialize failed: HTTP ${init.status}`);
  const initialized = await fetch(url, {
    method: 'POST',
    headers: { ...headers, 'mcp-session-id': id, 'mcp-protocol-version': PROTOCOL },
    body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }),
  });
  await initialized.text();
  if (!initialized.ok) throw new Error(`notifications/initialized failed: HTTP ${initialized.status}`);
  return id;
}

async function openSessions(url: string, token: string | undefined, count: number): Promise<void> {
  const concurrency = 16;
  let next = 0;
  await Promise.all(
    Array.from({ length: concurrency }, async () => {
      while (next < count) {
        next++;
        await openSession(url, token);
      }
    }),
  );
}

/** RSS growth per session: warm up with 20 sessions, settle, measure, open SESSIONS more, settle, measure. */
async function perSession(url: string, token: string | undefined, pid: number, settleMs: number): Promise<{ kb: number; beforeMiB: number; afterMiB: number; seconds: number }> {
  await openSessions(url, token, 20);
  await sleep(settleMs);
  const before = memoryOf(pid).rssKB;
  const start = Date.now();
  await openSessions(url, token, SESSIONS);
  const seconds = (Date.now() - start) / 1000;
  await sleep(settleMs);
  const after = memoryOf(pid).rssKB;
  return { kb: (after - before) / SESSIONS, beforeMiB: before / 1024, afterMiB: after / 1024, seconds };
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  await startBenchHost(ws);
  const settleMs = ctx.quick ? 1_000 : 3_000;
  const samples = ctx.quick ? 2 : 4;
  const tetherIdle: number[] = [];
  const floorIdle: number[] = [];
  for (let i = 0; i < samples; i++) {
    tetherIdle.push(await idleRss(tetherMcpArgs(ws), ws.env, settleMs));
    floorIdle.push(await idleRss([helper('floor-sdk-server')], ws.env, settleMs));
  }

  ctx.log(`memory: ${SESSIONS} sessions on tether serve and on the SDK floor HTTP server`);
  const { serve, url, token } = await startServe(ws, ['--interactive-sessions', String(SESSIONS * 2)]);
  const tether = await perSession(url, token, serve.pid, settleMs);
  await serve.stop();
  const floorServer = await startFloorHttp(ws.env);
  const floor = await perSession(floorServer.url, undefined, floorServer.server.pid, settleMs);
  await floorServer.server.stop();

  ctx.diagnostics.memory = {
    idleTetherMcpMiB: tetherIdle.map((v) => round(v, 1)),
    idleSdkFloorMiB: floorIdle.map((v) => round(v, 1)),
    tetherServe: { perSessionKB: round(tether.kb, 1), rssBeforeMiB: round(tether.beforeMiB, 1), rssAfterMiB: round(tether.afterMiB, 1), secondsToOpen: round(tether.seconds, 2) },
    sdkFloorHttp: { perSessionKB: round(floor.kb, 1), rssBeforeMiB: round(floor.beforeMiB, 1), rssAfterMiB: round(floor.afterMiB, 1), secondsToOpen: round(floor.seconds, 2) },
    note: `RSS read after ${settleMs} ms of settling; no forced GC.`,
  };
  return [
    entry({ name: 'idle tether mcp RSS (vs idle SDK floor server)', metric: 'rss_idle', value: median(tetherIdle), unit: 'MiB', floor: median(floorIdle) }),
    entry({ name: `tether serve RSS per idle session at ${SESSIONS} sessions (vs SDK floor HTTP server)`, metric: 'rss_per_session', value: tether.kb, unit: 'KiB', floor: floor.kb, goal: { on: 'value', op: '<=', target: 20 } }),
  ];
}
