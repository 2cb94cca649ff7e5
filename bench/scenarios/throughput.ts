/**
 * 2. Throughput: N stdio clients (each an SDK client with its own `tether mcp`, as N agents
 * would have), each with one call in flight: calls/s in aggregate, against N SDK floor
 * servers under the same load, N SDK relay floors sharing one raw host (the SDK server with a
 * hop to one editor process), and N hop floors sharing it (a server with no SDK and no checks
 * relaying to it: the most calls a second any bridge with that hop can answer here).
 *
 * Throughput is a steady-state figure: every side is first warmed up (until each client has
 * made `warmCalls` calls, or `warmSeconds` have passed), so V8 has compiled its hot path, then
 * measured in short windows that alternate between the sides, so that drift on a noisy
 * machine (these VMs' speed changes by 2-4x within a minute) hits all of them alike. What
 * fresh processes manage during their warm-up is kept in the diagnostics.
 */
import { performance } from 'node:perf_hooks';
import { helper } from '../lib/build.js';
import { connectStdio, echoUntil, tetherMcpArgs, type StdioSession } from '../lib/mcp.js';
import { createWorkspace, node } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { HOP_FLOOR, startBenchHost, startRawTcpHost } from '../lib/setup.js';
import { round } from '../lib/stats.js';

/** Calls made, and the seconds they took. */
interface Run {
  calls: number;
  seconds: number;
}

const perSecond = (run: Run): number => run.calls / run.seconds;
/** What a host's journal counts for one finished echo call: 512 bytes of overhead and its strings' 12. */
const ECHO_ENTRY_BYTES = 524;

interface Side {
  name: 'tether' | 'sdkFloor' | 'sdkRelayFloor' | 'hopFloor';
  sessions: StdioSession[];
  /** Over the measured windows together. */
  measured: Run;
  warmup: Run;
}

async function openClients(count: number, args: string[], env: Record<string, string>): Promise<StdioSession[]> {
  const sessions: StdioSession[] = [];
  for (let i = 0; i < count; i += 8) {
    sessions.push(...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, () => connectStdio(args, env)))));
  }
  return sessions;
}

/**
 * Every client of the side loops calls until `until` says stop (it is asked before each
 * call, with that client's count so far); returns the calls made and the seconds it took.
 */
async function drive(side: Side, until: (clientCalls: number, now: number) => boolean): Promise<Run> {
  const start = performance.now();
  const calls = await echoUntil(side.sessions, until);
  return { calls, seconds: (performance.now() - start) / 1000 };
}

interface Plan {
  warmCalls: number;
  warmSeconds: number;
  rounds: number;
  windowSeconds: number;
}

async function measure(sides: Side[], plan: Plan): Promise<void> {
  for (const side of sides) {
    const end = performance.now() + plan.warmSeconds * 1000;
    side.warmup = await drive(side, (mine, now) => mine >= plan.warmCalls || now >= end);
  }
  for (let r = 0; r < plan.rounds; r++) {
    for (const side of r % 2 === 0 ? sides : [...sides].reverse()) {
      const end = performance.now() + plan.windowSeconds * 1000;
      const window = await drive(side, (_mine, now) => now >= end);
      side.measured.calls += window.calls;
      side.measured.seconds += window.seconds;
    }
  }
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  await startBenchHost(ws);
  const { relayArgs } = await startRawTcpHost(ws);
  const plan: Plan = ctx.quick ? { warmCalls: 3_000, warmSeconds: 10, rounds: 4, windowSeconds: 0.5 } : { warmCalls: 5_000, warmSeconds: 30, rounds: 10, windowSeconds: 1 };
  const entries: Entry[] = [];
  const details: Record<string, unknown> = { plan };
  for (const count of [1, 8, 32]) {
    ctx.log(`throughput: ${count} client(s): warm-up (${plan.warmCalls} calls per client, at most ${plan.warmSeconds} s), then ${plan.rounds} interleaved rounds of ${plan.windowSeconds} s`);
    const sides: Side[] = [];
    const open = async (name: Side['name'], args: string[]): Promise<void> => {
      sides.push({ name, sessions: await openClients(count, args, ws.env), measured: { calls: 0, seconds: 0 }, warmup: { calls: 0, seconds: 0 } });
    };
    try {
      await open('tether', tetherMcpArgs(ws));
      await open('sdkFloor', [helper('floor-sdk-server')]);
      await open('sdkRelayFloor', [helper('floor-sdk-server'), ...relayArgs]);
      await open('hopFloor', [helper('raw-mcp-server'), ...relayArgs]);
      await measure(sides, plan);
    } finally {
      await Promise.all(sides.flatMap((side) => side.sessions.map((s) => s.close())));
    }
    const byName = Object.fromEntries(sides.map((s) => [s.name, s])) as Record<Side['name'], Side>;
    details[`clients${count}`] = Object.fromEntries(
      sides.map((side) => [
        side.name,
        {
          callsPerSecond: round(perSecond(side.measured), 1),
          calls: side.measured.calls,
          warmup: { calls: side.warmup.calls, seconds: round(side.warmup.seconds, 2), callsPerSecond: round(perSecond(side.warmup), 1) },
        },
      ]),
    );
    const [tether, floor, relay, hop] = [byName.tether, byName.sdkFloor, byName.sdkRelayFloor, byName.hopFloor].map((s) => perSecond(s.measured)) as [number, number, number, number];
    entries.push(
      entry({
        name: `throughput, ${count} stdio client${count > 1 ? 's' : ''} × 1 in flight (tether mcp vs SDK floor)`,
        metric: 'throughput',
        value: tether,
        unit: 'calls/s',
        floor,
        ...(count === 8 ? { goal: { on: 'ratio', op: '>=', target: 0.8 } as const } : {}),
      }),
    );
    if (count === 8) {
      const name = (what: string): string => `throughput, 8 stdio clients × 1 in flight (${what})`;
      entries.push(entry({ name: name('SDK relay floor vs SDK floor'), metric: 'throughput', value: relay, unit: 'calls/s', floor }));
      entries.push(entry({ name: name('tether mcp vs SDK relay floor'), metric: 'throughput', value: tether, unit: 'calls/s', floor: relay }));
      entries.push(entry({ name: name(`${HOP_FLOOR} vs SDK floor`), metric: 'throughput', value: hop, unit: 'calls/s', floor }));
      entries.push(entry({ name: name('tether mcp vs hop floor'), metric: 'throughput', value: tether, unit: 'calls/s', floor: hop }));
      entries.push(
        entry({
          name: name('fresh processes, during the warm-up: tether mcp vs SDK floor'),
          metric: 'throughput',
          value: perSecond(byName.tether.warmup),
          unit: 'calls/s',
          floor: perSecond(byName.sdkFloor.warmup),
        }),
      );
    }
  }
  ctx.diagnostics.throughput = details;

  // The host hop alone (host SDK + link client in one process), early and late in a long run:
  // a per-call cost that grew with the journal would show as a rising window. The host's
  // read-only budget holds a quarter of the run's calls, so it is full for most of the run.
  const growthCalls = ctx.quick ? 20_000 : 200_000;
  const growthWindow = ctx.quick ? 5_000 : 20_000;
  const keptCalls = growthCalls / 4;
  const budgetBytes = keptCalls * ECHO_ENTRY_BYTES;
  ctx.log(`host round trip: ${growthCalls} calls through an in-process link client`);
  const child = node(helper('host-journal-growth'), [String(growthCalls), String(growthWindow), String(budgetBytes)], ws.env);
  const windows = (JSON.parse(await child.waitForLine(() => true, 600_000)) as { windows: number[] }).windows;
  ctx.diagnostics.hostRoundTrip = { window: growthWindow, readOnlyBudgetBytes: budgetBytes, microsecondsPerCall: windows };
  entries.push(
    entry({
      name: `host round trip per call, calls ${growthCalls - growthWindow + 1}–${growthCalls}, in-process link client, read-only budget full from about call ${keptCalls} (vs calls ${growthWindow + 1}–${2 * growthWindow}, the first window after V8's warm-up)`,
      metric: 'host_call_cost',
      value: windows.at(-1) ?? null,
      unit: 'µs',
      floor: windows[1] ?? null,
    }),
  );
  return entries;
}
