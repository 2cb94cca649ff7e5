/**
 * 2. Throughput: N stdio clients (each an SDK client with its own `tether mcp`, as N agents
 * would have), each with one call in flight, for a fixed time: calls/s in aggregate,
 * against N SDK floor servers under the same load, and N SDK relay floors sharing one raw
 * host (what a hop to one editor process costs any bridge).
 */
import { performance } from 'node:perf_hooks';
import { helper } from '../lib/build.js';
import { call, connectStdio, tetherMcpArgs, type StdioSession } from '../lib/mcp.js';
import { createWorkspace, node, type Workspace } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost, startRawTcpHost } from '../lib/setup.js';
import { round } from '../lib/stats.js';

async function openClients(count: number, args: string[], env: Record<string, string>): Promise<StdioSession[]> {
  const sessions: StdioSession[] = [];
  for (let i = 0; i < count; i += 8) {
    sessions.push(...(await Promise.all(Array.from({ length: Math.min(8, count - i) }, () => connectStdio(args, env)))));
  }
  return sessions;
}

/** Every client loops calls until the time is up; returns calls/s over the window. */
async function drive(sessions: StdioSession[], seconds: number): Promise<{ rate: number; calls: number }> {
  await Promise.all(sessions.map(async (s) => {
    for (let i = 0; i < 20; i++) await call(s.client, 'echo', { text: 'ping' });
  }));
  let calls = 0;
  const start = performance.now();
  const end = start + seconds * 1000;
  await Promise.all(
    sessions.map(async (s) => {
      while (performance.now() < end) {
        await call(s.client, 'echo', { text: 'ping' });
        calls++;
      }
    }),
  );
  const elapsed = (performance.now() - start) / 1000;
  return { rate: calls / elapsed, calls };
}

async function measure(count: number, args: string[], ws: Workspace, seconds: number): Promise<{ rate: number; calls: number }> {
  const sessions = await openClients(count, args, ws.env);
  try {
    return await drive(sessions, seconds);
  } finally {
    await Promise.all(sessions.map((s) => s.close()));
  }
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  await startBenchHost(ws);
  const { relayArgs } = await startRawTcpHost(ws);
  const seconds = ctx.quick ? 1.5 : 5;
  const entries: Entry[] = [];
  const details: Record<string, unknown> = {};
  for (const count of [1, 8, 32]) {
    ctx.log(`throughput: ${count} client(s), ${seconds} s each side`);
    const tether = await measure(count, tetherMcpArgs(ws), ws, seconds);
    const floor = await measure(count, [helper('floor-sdk-server')], ws, seconds);
    const relay = await measure(count, [helper('floor-sdk-server'), ...relayArgs], ws, seconds);
    const rates = { tether, sdkFloor: floor, sdkRelayFloor: relay };
    details[`clients${count}`] = Object.fromEntries(Object.entries(rates).map(([name, r]) => [name, { callsPerSecond: round(r.rate, 1), calls: r.calls }]));
    entries.push(
      entry({
        name: `throughput, ${count} stdio client${count > 1 ? 's' : ''} × 1 in flight (tether mcp vs SDK floor)`,
        metric: 'throughput',
        value: tether.rate,
        unit: 'calls/s',
        floor: floor.rate,
        ...(count === 8 ? { goal: { on: 'ratio', op: '>=', target: 0.7 } as const } : {}),
      }),
    );
    if (count === 8) {
      const name = (what: string): string => `throughput, 8 stdio clients × 1 in flight (${what})`;
      entries.push(entry({ name: name('SDK relay floor vs SDK floor'), metric: 'throughput', value: relay.rate, unit: 'calls/s', floor: floor.rate }));
      entries.push(entry({ name: name('tether mcp vs SDK relay floor'), metric: 'throughput', value: tether.rate, unit: 'calls/s', floor: relay.rate }));
    }
  }
  ctx.diagnostics.throughput = details;

  // The host hop alone (host SDK + link client in one process), early and late in a long run:
  // a per-call cost that grew with the journal would show as a rising window.
  const growthCalls = ctx.quick ? 8_000 : 40_000;
  const growthWindow = ctx.quick ? 2_000 : 5_000;
  ctx.log(`host round trip: ${growthCalls} calls through an in-process link client`);
  const child = node(helper('host-journal-growth'), [String(growthCalls), String(growthWindow)], ws.env);
  const windows = (JSON.parse(await child.waitForLine(() => true, 600_000)) as { windows: number[] }).windows;
  ctx.diagnostics.hostRoundTrip = { window: growthWindow, microsecondsPerCall: windows };
  entries.push(
    entry({
      name: `host round trip per call, calls ${growthCalls - growthWindow + 1}–${growthCalls}, in-process link client (vs the first ${growthWindow})`,
      metric: 'host_call_cost',
      value: windows.at(-1) ?? null,
      unit: 'µs',
      floor: windows[0] ?? null,
    }),
  );
  return entries;
}
