/**
 * Where a call's CPU goes, process by process, in user and system time, with the page faults
 * and context switches that come with it: `tether mcp` and its host, beside the SDK floor
 * server and the hop floor with its raw host, under the same load. The throughput scenario
 * says how many calls a second each side answers; this says what each call costs each
 * process, which the instruction counter (instructions.ts) cannot: system time, and what
 * the same instructions cost once other processes have had the caches.
 *
 *   npm run build && node --import tsx bench/cpu-split.ts     # [--clients 8] [--rounds 8] [--window 1]
 *
 * N clients (`--clients`; 1 is one call at a time), each an SDK client with its own server
 * process, one call in flight each, as in the throughput scenario. The clients all run in
 * this process, whose own CPU is the "clients" column. Every side is warmed up first, then
 * measured in windows that alternate between the sides, so drift hits all alike. Counts come
 * from /proc (Linux only), summed over a side's server processes and over its host.
 */
import { readFileSync } from 'node:fs';
import { performance } from 'node:perf_hooks';
import { buildHelpers, helper } from './lib/build.js';
import { connectStdio, echoUntil, tetherMcpArgs, type StdioSession } from './lib/mcp.js';
import { createWorkspace, killAll, removeWorkspaces } from './lib/procs.js';
import { startBenchHost, startRawTcpHost } from './lib/setup.js';

const argv = process.argv.slice(2);
const option = (name: string, fallback: number): number => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? Number(argv[at + 1]) : fallback;
};
const CLIENTS = option('clients', 8);
const ROUNDS = option('rounds', 8);
const WINDOW_MS = option('window', 1) * 1000;
const WARM_CALLS = 3_000;

/** What /proc says a process has used so far. */
interface Usage {
  userMs: number;
  systemMs: number;
  minorFaults: number;
  voluntarySwitches: number;
  involuntarySwitches: number;
}

const NO_USAGE: Usage = { userMs: 0, systemMs: 0, minorFaults: 0, voluntarySwitches: 0, involuntarySwitches: 0 };
/** The kernel's clock ticks per second (USER_HZ), 100 on every Linux Node runs on. */
const MS_PER_TICK = 10;

function usageOf(pid: number): Usage {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  // After the command, which may hold spaces: state is field 0, minflt 7, utime 11, stime 12.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const count = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return {
    userMs: Number(fields[11]) * MS_PER_TICK,
    systemMs: Number(fields[12]) * MS_PER_TICK,
    minorFaults: Number(fields[7]),
    voluntarySwitches: count('voluntary_ctxt_switches'),
    involuntarySwitches: count('nonvoluntary_ctxt_switches'),
  };
}

const add = (a: Usage, b: Usage, sign = 1): Usage => ({
  userMs: a.userMs + sign * b.userMs,
  systemMs: a.systemMs + sign * b.systemMs,
  minorFaults: a.minorFaults + sign * b.minorFaults,
  voluntarySwitches: a.voluntarySwitches + sign * b.voluntarySwitches,
  involuntarySwitches: a.involuntarySwitches + sign * b.involuntarySwitches,
});
const usageOfAll = (pids: number[]): Usage => pids.map(usageOf).reduce((sum, usage) => add(sum, usage), NO_USAGE);

interface Side {
  name: string;
  sessions: StdioSession[];
  /** The process behind the servers (a host), if any. */
  hostPid: number | undefined;
  calls: number;
  seconds: number;
  servers: Usage;
  host: Usage;
  clientsMs: number;
}

async function measureWindow(side: Side): Promise<void> {
  const serverPids = side.sessions.map((s) => s.pid);
  const hostPids = side.hostPid === undefined ? [] : [side.hostPid];
  const [servers, host, clients, start] = [usageOfAll(serverPids), usageOfAll(hostPids), process.cpuUsage(), performance.now()];
  const end = start + WINDOW_MS;
  side.calls += await echoUntil(side.sessions, (_mine, now) => now >= end);
  side.seconds += (performance.now() - start) / 1000;
  const clientsUsed = process.cpuUsage(clients);
  side.clientsMs += (clientsUsed.user + clientsUsed.system) / 1000;
  side.servers = add(side.servers, add(usageOfAll(serverPids), servers, -1));
  side.host = add(side.host, add(usageOfAll(hostPids), host, -1));
}

function perCall(usage: Usage, calls: number): string {
  const us = (ms: number): string => ((ms * 1000) / calls).toFixed(0).padStart(5);
  const each = (n: number): string => (n / calls).toFixed(2).padStart(5);
  return `${us(usage.userMs)} ${us(usage.systemMs)} ${each(usage.minorFaults)} ${each(usage.voluntarySwitches)} ${each(usage.involuntarySwitches)}`;
}

async function main(): Promise<void> {
  buildHelpers();
  const ws = createWorkspace();
  const { ready } = await startBenchHost(ws);
  const { relayArgs, host: rawHost } = await startRawTcpHost(ws);
  const open = async (name: string, args: string[], hostPid: number | undefined): Promise<Side> => ({
    name,
    sessions: await Promise.all(Array.from({ length: CLIENTS }, () => connectStdio(args, ws.env))),
    hostPid,
    calls: 0,
    seconds: 0,
    servers: NO_USAGE,
    host: NO_USAGE,
    clientsMs: 0,
  });
  const sides = [
    await open('tether mcp', tetherMcpArgs(ws), ready.pid),
    await open('SDK floor', [helper('floor-sdk-server')], undefined),
    await open('hop floor', [helper('raw-mcp-server'), ...relayArgs], rawHost.pid),
  ];
  try {
    process.stderr.write(`[cpu-split] ${CLIENTS} client(s) a side: ${WARM_CALLS} calls each to warm up, then ${ROUNDS} rounds of ${WINDOW_MS / 1000} s windows\n`);
    for (const side of sides) await echoUntil(side.sessions, (mine) => mine >= WARM_CALLS);
    for (let round = 0; round < ROUNDS; round++) for (const side of round % 2 === 0 ? sides : [...sides].reverse()) await measureWindow(side);
    const floor = sides[1] as Side;
    const rate = (side: Side): number => side.calls / side.seconds;
    process.stdout.write(`\nPer call, ${CLIENTS} client(s), one call in flight each (µs of CPU; faults and switches per call):\n\n`);
    process.stdout.write(`${''.padEnd(11)} calls/s  vs floor | servers: user   sys  flts  vcsw  icsw | host: user   sys  flts  vcsw  icsw | clients\n`);
    for (const side of sides) {
      const host = side.hostPid === undefined ? `${''.padEnd(35)}` : perCall(side.host, side.calls);
      process.stdout.write(
        `${side.name.padEnd(11)} ${rate(side).toFixed(0).padStart(7)} ${(rate(side) / rate(floor)).toFixed(3).padStart(8)}x |        ${perCall(side.servers, side.calls)} |     ${host} | ${((side.clientsMs * 1000) / side.calls).toFixed(0).padStart(7)}\n`,
      );
    }
  } finally {
    await Promise.all(sides.flatMap((side) => side.sessions.map((s) => s.close())));
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`cpu-split failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkspaces();
  });
