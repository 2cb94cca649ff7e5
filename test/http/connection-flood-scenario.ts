/**
 * Strangers without the token flooding `tether serve` with connections that send nothing or
 * half a request line, while an agent with the token keeps calling on fresh connections (as
 * agents do: an idle keep-alive connection is closed after 5 s). A scenario with its sizes as
 * parameters: `npm test` floods with 2,000 connections against low limits, `npm run test:slow`
 * with 20,000 against the defaults.
 *
 * The attackers are separate processes, as they would be ("two ordinary processes opened
 * 21,000 of them"): their sockets count against their own descriptor limits, not the test's,
 * and the agent's latencies measure the server, not the test's event loop. Everything is
 * bounded: a known number of connections, on loopback, each attacker giving up after
 * `holdMs`; `stopFloods()` (afterEach) ends any attacker still running.
 */
import { spawn, execFileSync, type ChildProcess } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import { request } from 'node:http';
import { createInterface } from 'node:readline';
import { setTimeout as delay } from 'node:timers/promises';
import { stopChild } from '../helpers/processes.js';
import type { Served } from '../helpers/serve.js';

export interface FloodPlan {
  /** Connections opened in all, across the attackers. */
  connections: number;
  /** Attacker processes the connections are shared between. */
  attackers: number;
  /** How long an attacker keeps what it opened before it gives up and exits. */
  holdMs: number;
  /** Connections an attacker has connecting at once. */
  window?: number;
  /**
   * The serve process's descriptor limit, when it should be lower than the machine's (set with
   * util-linux's prlimit; where there is none, the flood runs under the machine's limit).
   */
  serveDescriptorLimit?: number;
  /** How long after the last connection opened the server may take to be back at its descriptors of before. */
  settleWithinMs: number;
}

export interface AttackerReport {
  opened: number;
  /** Of those, closed by the server while the attacker still held them. */
  closedByServer: number;
  /** Connections that could not be made at all (refused, reset during the handshake, no local port). */
  failed: number;
  /** The most this attacker held open at once. */
  maxHeld: number;
  /**
   * How the attacker ended: every connection closed by the server, or gave up at holdMs. (A
   * connection the kernel completed while the server's accept queue was full may never reach
   * the server: the attacker holds a socket the server never had, so "gave-up" alone proves
   * nothing; the server's descriptors do.)
   */
  end: 'shed' | 'gave-up';
  ms: number;
}

export interface FloodOutcome {
  attackers: AttackerReport[];
  /** The agent's requests during the flood: answered ones' latencies (ms), and the others' errors. */
  latencies: number[];
  failures: string[];
  /** Whether the server ran under plan.serveDescriptorLimit. */
  limited: boolean;
  /** The server's open descriptors: before the flood, and the most seen during it. */
  baselineFds: number;
  peakFds: number;
  /**
   * From the moment every connection was open to the moment the server was back at its
   * baseline (ms), the attackers still running; undefined if it was not within settleWithinMs.
   */
  settledMs: number | undefined;
}

/**
 * One attacker: opens its share of connections (`window` connecting at a time), half of them
 * sending nothing, half sending half a request line, and holds each until the server closes it
 * or `holdMs` passes. Prints a JSON line once all are open ("flooded") and one at the end
 * ("done"). CommonJS for `node -e`.
 */
const ATTACKER = `
const net = require('node:net');
const { port, host, count, holdMs, window } = JSON.parse(process.argv[1]);
const started = Date.now();
let opened = 0, connecting = 0, held = 0, maxHeld = 0, closedByServer = 0, failed = 0, flooded = false, finished = false;
const sockets = new Set();
const report = (event, extra) => JSON.stringify({ event, opened, closedByServer, failed, maxHeld, ms: Date.now() - started, ...extra }) + '\\n';
function finish(end) {
  if (finished) return;
  finished = true;
  for (const socket of sockets) socket.destroy();
  process.stdout.write(report('done', { end }), () => process.exit(0));
}
function settle() {
  if (!flooded && opened + failed === count) {
    flooded = true;
    process.stdout.write(report('flooded', { held }));
  }
  if (opened + failed === count && held === 0 && connecting === 0) finish('shed');
  else open();
}
function open() {
  while (!finished && connecting < window && opened + failed + connecting < count) {
    const i = opened + failed + connecting;
    connecting++;
    const socket = net.connect({ port, host });
    let connected = false;
    sockets.add(socket);
    socket.on('connect', () => {
      connected = true;
      connecting--;
      opened++;
      held++;
      maxHeld = Math.max(maxHeld, held);
      if (i % 2 === 1) socket.write('POST /mcp HTT');
      settle();
    });
    socket.on('data', () => undefined);
    socket.on('error', () => undefined);
    socket.on('close', () => {
      sockets.delete(socket);
      if (finished) return;
      if (connected) { held--; closedByServer++; } else { connecting--; failed++; }
      settle();
    });
  }
}
setTimeout(() => finish('gave-up'), holdMs);
open();
`;

const attackers = new Set<ChildProcess>();
/** What the agent's requests may hold of the server's descriptors at a time: its connection, and the one closing before it. */
const AGENT_FDS = 2;

/** Stops any attacker still running (call in afterEach). */
export async function stopFloods(): Promise<void> {
  await Promise.all([...attackers].map((child) => stopChild(child, 1_000)));
  attackers.clear();
}

/** The open descriptors of a process (Linux). */
export function descriptors(pid: number): number {
  return readdirSync(`/proc/${pid}/fd`).length;
}

/** A process's soft limit on open descriptors (Linux). */
export function descriptorLimit(pid: number | 'self'): number {
  const line = readFileSync(`/proc/${pid}/limits`, 'utf8')
    .split('\n')
    .find((l) => l.startsWith('Max open files'));
  return Number(/\d+/.exec(line?.slice('Max open files'.length) ?? '')?.[0] ?? Number.POSITIVE_INFINITY);
}

/** Lowers a running process's descriptor limit with util-linux's prlimit; false where there is none. */
export function limitDescriptors(pid: number, limit: number): boolean {
  try {
    execFileSync('prlimit', ['--pid', String(pid), `--nofile=${limit}:${limit}`], { stdio: 'ignore' });
    return descriptorLimit(pid) === limit;
  } catch {
    return false;
  }
}

/**
 * One request on a connection of its own (no keep-alive), as an agent back from thinking
 * makes it: its latency in ms, or the error it met. Bounded: 10 s.
 */
export function askOnNewConnection(served: Served, headers: Record<string, string>, body: unknown): Promise<{ status: number; ms: number; text: string }> {
  const url = new URL(served.url);
  const payload = JSON.stringify(body);
  const started = performance.now();
  return new Promise((resolve, reject) => {
    const req = request(
      {
        host: url.hostname,
        port: url.port,
        path: url.pathname,
        method: 'POST',
        agent: false,
        timeout: 10_000,
        headers: { ...headers, connection: 'close', 'content-length': Buffer.byteLength(payload) },
      },
      (res) => {
        let text = '';
        res.on('data', (chunk: Buffer) => (text += chunk.toString()));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, ms: performance.now() - started, text }));
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error('no answer within 10 s')));
    req.on('error', reject);
    req.end(payload);
  });
}

/**
 * Floods the server as planned while `session` (the headers of an open session) lists tools
 * again and again on fresh connections; returns what the attackers saw, the agent's
 * latencies and failures, and the server's descriptors.
 */
export async function connectionFlood(served: Served, session: Record<string, string>, plan: FloodPlan): Promise<FloodOutcome> {
  const pid = served.server.pid;
  const limited = plan.serveDescriptorLimit !== undefined && limitDescriptors(pid, plan.serveDescriptorLimit);
  const list = { jsonrpc: '2.0', id: 'list', method: 'tools/list' };
  // The agent's session works, and nothing of its requests is left open.
  expect200(await askOnNewConnection(served, session, list));
  const baselineFds = descriptors(pid);

  let flooding = true;
  const latencies: number[] = [];
  const failures: string[] = [];
  const agent = (async () => {
    while (flooding) {
      try {
        const answer = await askOnNewConnection(served, session, list);
        if (answer.status === 200 && answer.text.includes('"tools"')) latencies.push(answer.ms);
        else failures.push(`HTTP ${answer.status}: ${answer.text.slice(0, 200)}`);
      } catch (error) {
        failures.push((error as Error).message);
      }
    }
  })();
  let peakFds = baselineFds;
  const sampler = setInterval(() => {
    try {
      peakFds = Math.max(peakFds, descriptors(pid));
    } catch {
      // the server is gone: the assertions on its answers say so
    }
  }, 10);

  const url = new URL(served.url);
  const window = plan.window ?? 256;
  const shares = Array.from({ length: plan.attackers }, (_, i) => Math.floor(plan.connections / plan.attackers) + (i < plan.connections % plan.attackers ? 1 : 0));
  const runs = shares.map((count) => attack({ port: Number(url.port), host: url.hostname, count, holdMs: plan.holdMs, window }));
  // Every connection open: from now on the server must shed what strangers hold, while they hold it.
  await Promise.all(runs.map((run) => run.flooded));
  const floodedAt = performance.now();
  let settledMs: number | undefined;
  while (performance.now() - floodedAt < plan.settleWithinMs) {
    // The agent's own connection of the moment may be open too.
    if (descriptors(pid) <= baselineFds + AGENT_FDS) {
      settledMs = performance.now() - floodedAt;
      break;
    }
    await delay(20);
  }
  const reports = await Promise.all(runs.map((run) => run.done));
  flooding = false;
  await agent;
  clearInterval(sampler);
  return { attackers: reports, latencies, failures, limited, baselineFds, peakFds, settledMs };
}

/** Starts one attacker process: resolves `flooded` once all its connections are open, `done` with its report. */
function attack(options: { port: number; host: string; count: number; holdMs: number; window: number }): { flooded: Promise<void>; done: Promise<AttackerReport> } {
  const child = spawn(process.execPath, ['-e', ATTACKER, JSON.stringify(options)], { stdio: ['ignore', 'pipe', 'pipe'] });
  attackers.add(child);
  let err = '';
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (err += chunk));
  const lines = createInterface({ input: child.stdout! });
  // 'close', not 'exit': an attacker's last line ("done") may still be in its pipe at 'exit'.
  const exited = new Promise<number | null>((resolve) => child.once('close', (code) => resolve(code)));
  void exited.then(() => attackers.delete(child));
  const line = (event: string) =>
    new Promise<Record<string, unknown>>((resolve, reject) => {
      lines.on('line', (text) => {
        const parsed = JSON.parse(text) as Record<string, unknown>;
        if (parsed.event === event) resolve(parsed);
      });
      void exited.then((code) => reject(new Error(`an attacker exited (${code}) before "${event}": ${err}`)));
    });
  const done = line('done').then(({ event: _event, ...report }) => report as unknown as AttackerReport);
  // A "done" without "flooded" (it gave up before opening all) still lets the flood end.
  const flooded = Promise.race([line('flooded'), done]).then(() => undefined);
  return { flooded, done };
}

function expect200(answer: { status: number; text: string }): void {
  if (answer.status !== 200) throw new Error(`the agent's session does not work before the flood: HTTP ${answer.status} ${answer.text}`);
}

/** The p-th percentile (0-100) of some latencies. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))] ?? Number.NaN;
}
