/**
 * The live JS heap `tether serve` keeps per idle session, after a forced garbage collection:
 * what RSS shows only once V8 has collected (an idle server may not collect for a long time).
 * Runs a TetherServer in this process (`node --expose-gc`), opens sessions over real HTTP and
 * prints one JSON line: { "liveKiBPerSession", "awake" }.
 *
 *   node --expose-gc serve-live-heap.js <repo root> <project> <sessions> <session-dormant-ms>
 */
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { pathToFileURL } from 'node:url';
import { openSessions } from './mcp-sessions.js';

type TetherServerModule = typeof import('../../src/http/tether-server.js');

const [repoRoot = '', project = '', sessionsArg = '1000', dormantArg = '60000'] = process.argv.slice(2);
const sessions = Number(sessionsArg);
const dormantMs = Number(dormantArg);
const gc = (globalThis as { gc?: () => void }).gc;
if (!gc) throw new Error('run with node --expose-gc');

const { TetherServer } = (await import(pathToFileURL(join(repoRoot, 'dist', 'http', 'tether-server.js')).href)) as TetherServerModule;
const { default: pino } = await import('pino');
const server = new TetherServer({ port: 0, project, logger: pino({ level: 'silent' }), pools: { interactive: { capacity: sessions * 2 } }, sessionDormantMs: dormantMs });
const url = await server.start();

async function awake(): Promise<number> {
  const health = (await (await fetch(url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${server.token}` } })).json()) as { sessions: { awake: number } };
  return health.sessions.awake;
}

/** Settles: until every session sleeps when they are meant to, else a fixed second; then collects. */
async function settledHeapKiB(): Promise<number> {
  if (dormantMs < 60_000) while ((await awake()) > 0) await sleep(50);
  else await sleep(1_000);
  gc!();
  gc!();
  return process.memoryUsage().heapUsed / 1024;
}

await openSessions(url, server.token, 20);
const before = await settledHeapKiB();
await openSessions(url, server.token, sessions);
const after = await settledHeapKiB();
process.stdout.write(`${JSON.stringify({ liveKiBPerSession: (after - before) / sessions, awake: await awake() })}\n`);
await server.close();
process.exit(0);
