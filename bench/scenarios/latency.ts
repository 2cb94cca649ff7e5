/**
 * 1. Per-call latency of a trivial read-only tool (`echo`): SDK client → tether mcp (stdio) →
 * host → back, and the same over tether serve; against the SDK floor server (stdio and
 * HTTP) and a raw newline-JSON echo over a pipe. The SDK relay floor (the same SDK server
 * forwarding each call over TCP to a raw host process) shows what the hop costs a bridge that
 * keeps the SDK; the hop floor (a server with no SDK and no checks forwarding to the same raw
 * host) what it costs any bridge on this machine, doing nothing else. The targets are measured in interleaved rounds, so drift on a
 * noisy machine hits all of them alike.
 */
import { performance } from 'node:perf_hooks';
import type { Client } from '@modelcontextprotocol/client';
import { helper } from '../lib/build.js';
import { call, connectHttp, connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { TETHER_BIN, cpuMsOf, createWorkspace, node } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { HOP_FLOOR, RawEcho, RawHttpSession, startBenchHost, startFloorHttp, startRawTcpHost, startServe } from '../lib/setup.js';
import { percentile, round } from '../lib/stats.js';

type Target = { name: string; once(): Promise<unknown> };

async function sample(target: Target, count: number, into: number[]): Promise<void> {
  for (let i = 0; i < count; i++) {
    const start = performance.now();
    await target.once();
    into.push(performance.now() - start);
  }
}

export async function measureInterleaved(targets: Target[], rounds: number, perRound: number, warmup: number): Promise<Map<string, number[]>> {
  const samples = new Map<string, number[]>(targets.map((t) => [t.name, []]));
  for (const target of targets) await sample(target, warmup, []);
  for (let r = 0; r < rounds; r++) {
    for (const target of r % 2 === 0 ? targets : [...targets].reverse()) await sample(target, perRound, samples.get(target.name)!);
  }
  return samples;
}

const echo =
  (client: Client): (() => Promise<unknown>) =>
  () =>
    call(client, 'echo', { text: 'ping' });

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  const { ready: hostReady } = await startBenchHost(ws);
  const tether = await connectStdio(tetherMcpArgs(ws), ws.env);
  const floor = await connectStdio([helper('floor-sdk-server')], ws.env);
  const { host: rawHost, relayArgs } = await startRawTcpHost(ws);
  const relay = await connectStdio([helper('floor-sdk-server'), ...relayArgs], ws.env);
  const hopFloor = await connectStdio([helper('raw-mcp-server'), ...relayArgs], ws.env);
  const raw = new RawEcho(ws.env);
  const { serve, url, token } = await startServe(ws);
  const tetherHttp = await connectHttp(url, token);
  const floorHttpServer = await startFloorHttp(ws.env);
  const floorHttp = await connectHttp(floorHttpServer.url);
  const tetherRawHttp = await new RawHttpSession(url, token).initialize();
  const floorRawHttp = await new RawHttpSession(floorHttpServer.url).initialize();
  const relayHttpServer = await startFloorHttp(ws.env, relayArgs);
  const relayHttp = await connectHttp(relayHttpServer.url);
  const relayRawHttp = await new RawHttpSession(relayHttpServer.url).initialize();
  await tether.client.listTools();

  const rounds = ctx.quick ? 3 : 10;
  const perRound = ctx.quick ? 200 : 500;
  ctx.log(`latency: ${rounds} interleaved rounds of ${perRound} calls per target`);
  const samples = await measureInterleaved(
    [
      { name: 'tether-stdio', once: echo(tether.client) },
      { name: 'sdk-stdio', once: echo(floor.client) },
      { name: 'relay-stdio', once: echo(relay.client) },
      { name: 'hop-stdio', once: echo(hopFloor.client) },
      { name: 'raw-pipe', once: () => raw.call('ping') },
      { name: 'tether-http', once: echo(tetherHttp) },
      { name: 'sdk-http', once: echo(floorHttp) },
      { name: 'relay-http', once: echo(relayHttp) },
      { name: 'tether-http-raw-client', once: () => tetherRawHttp.call('echo', { text: 'ping' }) },
      { name: 'sdk-http-raw-client', once: () => floorRawHttp.call('echo', { text: 'ping' }) },
      { name: 'relay-http-raw-client', once: () => relayRawHttp.call('echo', { text: 'ping' }) },
    ],
    rounds,
    perRound,
    ctx.quick ? 150 : 500,
  );
  const p = (name: string, q: number): number => percentile(samples.get(name)!, q);
  const summary = Object.fromEntries([...samples].map(([name, values]) => [name, { n: values.length, p50: round(p(name, 50)), p90: round(p(name, 90)), p99: round(p(name, 99)) }]));
  ctx.diagnostics.latency = summary;

  // CPU per call of every process on each path (from /proc/<pid>/stat; the client is this process).
  const cpuCalls = ctx.quick ? 1000 : 5000;
  const cpuPass = async (once: () => Promise<unknown>, pids: Record<string, number>): Promise<Record<string, number>> => {
    const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMsOf(pid)]));
    const client0 = process.cpuUsage();
    for (let i = 0; i < cpuCalls; i++) await once();
    const client = process.cpuUsage(client0);
    const perCall = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, round(((cpuMsOf(pid) - (before[name] as number)) * 1000) / cpuCalls, 1)]));
    return { ...perCall, 'client (bench process)': round((client.user + client.system) / cpuCalls, 1) };
  };
  ctx.diagnostics.cpuMicrosecondsPerCall = {
    calls: cpuCalls,
    'tether-stdio': await cpuPass(echo(tether.client), { 'tether mcp': tether.pid, host: hostReady.pid }),
    'sdk-stdio': await cpuPass(echo(floor.client), { 'sdk floor server': floor.pid }),
    'relay-stdio': await cpuPass(echo(relay.client), { 'sdk relay floor': relay.pid, 'raw host': rawHost.child.pid ?? 0 }),
    'hop-stdio': await cpuPass(echo(hopFloor.client), { 'hop floor': hopFloor.pid, 'raw host': rawHost.child.pid ?? 0 }),
    'raw-pipe': await cpuPass(() => raw.call('ping'), { 'raw echo': raw.child.pid }),
    'tether-http': await cpuPass(echo(tetherHttp), { 'tether serve': serve.pid, host: hostReady.pid }),
    'sdk-http': await cpuPass(echo(floorHttp), { 'sdk floor HTTP server': floorHttpServer.server.pid }),
    'relay-http': await cpuPass(echo(relayHttp), { 'sdk relay floor HTTP server': relayHttpServer.server.pid, 'raw host': rawHost.child.pid ?? 0 }),
  };

  // The sandbox editor's path, once, for reference: its tools run on a worker "main thread".
  let sandboxP50: number | null = null;
  try {
    const sandboxWs = createWorkspace({ sample: true });
    const sandbox = node(TETHER_BIN, ['sandbox', '--project', sandboxWs.project], sandboxWs.env);
    await sandbox.waitForLine((l) => l.includes('"event":"ready"'));
    const session = await connectStdio(tetherMcpArgs(sandboxWs), sandboxWs.env);
    const values: number[] = [];
    const once = (): Promise<unknown> => call(session.client, 'read_console', { count: 1 });
    await sample({ name: 'sandbox', once }, 100, []);
    await sample({ name: 'sandbox', once }, ctx.quick ? 200 : 1000, values);
    sandboxP50 = percentile(values, 50);
    ctx.diagnostics.sandboxReadConsole = { n: values.length, p50: round(sandboxP50), p90: round(percentile(values, 90)), p99: round(percentile(values, 99)) };
    await session.close();
    await sandbox.stop();
  } catch (error) {
    ctx.log(`sandbox reference failed: ${(error as Error).message}`);
  }

  await tether.close();
  await floor.close();
  await relay.close();
  await hopFloor.close();
  await tetherHttp.close();
  await floorHttp.close();
  await relayHttp.close();
  tetherRawHttp.close();
  floorRawHttp.close();
  relayRawHttp.close();

  const entries: Entry[] = [];
  for (const q of [50, 90, 99]) {
    entries.push(
      entry({
        name: `stdio latency p${q} (tether mcp vs SDK floor server)`,
        metric: `latency_p${q}`,
        value: p('tether-stdio', q),
        unit: 'ms',
        floor: p('sdk-stdio', q),
        // Issue 24: as fast as the SDK answers in-process (p50), and a tail within 1.25× of it.
        ...(q === 50 ? { goal: { on: 'ratio', op: '<=', target: 1 } as const } : q === 90 ? { goal: { on: 'ratio', op: '<=', target: 1.25 } as const } : {}),
      }),
    );
  }
  const hop = 'SDK relay floor: the SDK server relaying over TCP to a raw host';
  entries.push(entry({ name: `stdio latency p50 (${hop}; vs SDK floor server)`, metric: 'latency_p50', value: p('relay-stdio', 50), unit: 'ms', floor: p('sdk-stdio', 50) }));
  entries.push(entry({ name: 'stdio latency p50 (tether mcp vs SDK relay floor)', metric: 'latency_p50', value: p('tether-stdio', 50), unit: 'ms', floor: p('relay-stdio', 50) }));
  // The bound on issue 24's goals: the fastest any bridge with the hop answers, doing nothing else.
  for (const q of [50, 90]) {
    entries.push(entry({ name: `stdio latency p${q} (${HOP_FLOOR}; vs SDK floor server)`, metric: `latency_p${q}`, value: p('hop-stdio', q), unit: 'ms', floor: p('sdk-stdio', q) }));
  }
  entries.push(entry({ name: 'stdio latency p50 (tether mcp vs hop floor)', metric: 'latency_p50', value: p('tether-stdio', 50), unit: 'ms', floor: p('hop-stdio', 50) }));
  entries.push(entry({ name: 'stdio latency p50 (tether mcp vs raw newline-JSON pipe echo)', metric: 'latency_p50', value: p('tether-stdio', 50), unit: 'ms', floor: p('raw-pipe', 50) }));
  entries.push(entry({ name: 'SDK floor server stdio latency p50 (vs raw newline-JSON pipe echo)', metric: 'latency_p50', value: p('sdk-stdio', 50), unit: 'ms', floor: p('raw-pipe', 50) }));
  for (const q of [50, 90, 99]) {
    entries.push(
      entry({
        name: `HTTP latency p${q} (tether serve vs SDK floor HTTP server)`,
        metric: `latency_p${q}`,
        value: p('tether-http', q),
        unit: 'ms',
        floor: p('sdk-http', q),
        ...(q === 50 ? { goal: { on: 'value', op: '<=', target: 1 } as const } : {}),
      }),
    );
  }
  entries.push(
    entry({
      name: 'HTTP latency p50 with a lean node:http client (tether serve vs SDK floor HTTP server)',
      metric: 'latency_p50',
      value: p('tether-http-raw-client', 50),
      unit: 'ms',
      floor: p('sdk-http-raw-client', 50),
      goal: { on: 'value', op: '<=', target: 1 },
    }),
  );
  entries.push(entry({ name: `HTTP latency p50 (${hop}; vs SDK floor HTTP server)`, metric: 'latency_p50', value: p('relay-http', 50), unit: 'ms', floor: p('sdk-http', 50) }));
  entries.push(
    entry({
      name: 'HTTP latency p50 with a lean node:http client (SDK relay floor vs SDK floor HTTP server)',
      metric: 'latency_p50',
      value: p('relay-http-raw-client', 50),
      unit: 'ms',
      floor: p('sdk-http-raw-client', 50),
    }),
  );
  entries.push(
    entry({
      name: 'HTTP latency p50 with a lean node:http client (tether serve vs SDK relay floor)',
      metric: 'latency_p50',
      value: p('tether-http-raw-client', 50),
      unit: 'ms',
      floor: p('relay-http-raw-client', 50),
    }),
  );
  if (sandboxP50 !== null) {
    entries.push(entry({ name: 'sandbox read_console latency p50 via tether mcp (reference; vs SDK floor)', metric: 'latency_p50', value: sandboxP50, unit: 'ms', floor: p('sdk-stdio', 50) }));
  }
  return entries;
}
