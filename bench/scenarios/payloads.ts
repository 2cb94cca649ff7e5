/**
 * 3. Payloads: tool results of 1, 10 and 50 MiB (text, and a PNG image as base64): round-trip
 * time and peak RSS, against JSON.stringify + JSON.parse of the same result in a fresh
 * process; beside the SDK floor server answering in-process (what crossing the process
 * boundary alone costs: no hop, no bridge), and the SDK relay (the SDK server relaying to a
 * raw host over TCP, parsing and re-serializing each result as a bridge does unless it passes
 * the bytes through). Every size gets fresh processes, so each peak RSS (VmHWM) is that size's
 * alone.
 *
 * The SDK client's stdio reader appends each chunk with Buffer.concat (quadratic in the
 * message size: ~15 s for 50 MiB, whatever the server), so the headline figures use a linear
 * newline-JSON reader speaking MCP to `tether mcp`, which shows Tether's own share; the SDK
 * client is measured beside the SDK floor server with the same client.
 */
import { spawn } from 'node:child_process';
import { performance } from 'node:perf_hooks';
import { helper } from '../lib/build.js';
import { call, connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { createWorkspace, memoryOf, node, track, type Workspace } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost, startRawTcpHost } from '../lib/setup.js';
import { median, round } from '../lib/stats.js';

const MiB = 1024 * 1024;

/** A minimal MCP client over stdio with a linear line reader (chunks kept, joined once per message). */
class LinearStdioClient {
  private readonly child;
  private chunks: Buffer[] = [];
  private waiting: { resolve(message: { id?: number; result?: unknown; error?: unknown }): void; reject(error: Error): void } | undefined;
  private nextId = 1;
  private stderr = '';

  constructor(args: string[], env: Record<string, string>) {
    this.child = spawn(process.execPath, args, { env, stdio: ['pipe', 'pipe', 'pipe'] });
    track(this.child);
    this.child.stderr.on('data', (chunk: Buffer) => (this.stderr = (this.stderr + chunk.toString()).slice(-2_000)));
    this.child.once('exit', (code, signal) => this.waiting?.reject(new Error(`the server exited (${code ?? signal}) before answering; stderr: ${this.stderr}`)));
    this.child.stdout.on('data', (chunk: Buffer) => {
      let newline = chunk.indexOf(10);
      while (newline >= 0) {
        this.chunks.push(chunk.subarray(0, newline));
        const line = Buffer.concat(this.chunks).toString('utf8');
        this.chunks = [];
        chunk = chunk.subarray(newline + 1);
        newline = chunk.indexOf(10);
        const message = JSON.parse(line) as { id?: number };
        if (message.id !== undefined) this.waiting?.resolve(message);
      }
      if (chunk.length > 0) this.chunks.push(chunk);
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  request(method: string, params: unknown, timeoutMs = 300_000): Promise<{ result?: unknown; error?: unknown }> {
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`${method} got no answer within ${timeoutMs} ms; stderr: ${this.stderr}`)), timeoutMs);
      const settle = (): void => {
        clearTimeout(timer);
        this.waiting = undefined;
      };
      this.waiting = {
        resolve: (message) => {
          settle();
          resolve(message);
        },
        reject: (error) => {
          settle();
          reject(error);
        },
      };
      this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id: this.nextId++, method, params })}\n`);
    });
  }

  async initialize(): Promise<void> {
    await this.request('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-linear', version: '1' } }, 30_000);
    this.child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
  }

  close(): void {
    this.waiting = undefined;
    this.child.stdin.end();
    this.child.kill('SIGTERM');
  }
}

interface Trial {
  ms: number[];
  hwmMiB: number;
  idleMiB: number;
  hostHwmMiB?: number;
  error?: string;
}

async function sdkClientTrial(ws: Workspace, args: string[], kind: string, mb: number, reps: number, noWarmup = false): Promise<Trial> {
  const session = await connectStdio(args, ws.env);
  try {
    await session.client.listTools();
    const idleMiB = memoryOf(session.pid).rssKB / 1024;
    const ms: number[] = [];
    for (let i = noWarmup ? 1 : 0; i <= reps; i++) {
      const start = performance.now();
      await call(session.client, 'payload', { kind, mb }, 300_000);
      if (i > 0) ms.push(performance.now() - start); // the first call is a warm-up
    }
    return { ms, hwmMiB: memoryOf(session.pid).hwmKB / 1024, idleMiB };
  } catch (error) {
    return { ms: [], hwmMiB: NaN, idleMiB: NaN, error: (error as Error).message.slice(0, 300) };
  } finally {
    await session.close();
  }
}

async function linearTrial(ws: Workspace, kind: string, mb: number, reps: number, hostPid?: number, args = tetherMcpArgs(ws)): Promise<Trial> {
  const client = new LinearStdioClient(args, ws.env);
  try {
    await client.initialize();
    await client.request('tools/list', {});
    const idleMiB = memoryOf(client.pid).rssKB / 1024;
    const ms: number[] = [];
    for (let i = 0; i <= reps; i++) {
      const start = performance.now();
      const answer = await client.request('tools/call', { name: 'payload', arguments: { kind, mb } });
      const elapsed = performance.now() - start;
      const result = answer.result as { isError?: boolean; content?: Array<{ text?: string }> } | undefined;
      if (!result || result.isError) throw new Error(`payload failed: ${JSON.stringify(answer).slice(0, 300)}`);
      if (i > 0) ms.push(elapsed);
    }
    const trial: Trial = { ms, hwmMiB: memoryOf(client.pid).hwmKB / 1024, idleMiB };
    if (hostPid) trial.hostHwmMiB = memoryOf(hostPid).hwmKB / 1024;
    return trial;
  } catch (error) {
    return { ms: [], hwmMiB: NaN, idleMiB: NaN, error: (error as Error).message.slice(0, 300) };
  } finally {
    client.close();
  }
}

async function stringifyParse(env: Record<string, string>, kind: string, mb: number, reps: number): Promise<{ ms: number; hwmMiB: number }> {
  const child = node(helper('stringify-parse'), [kind, String(mb), String(reps)], env);
  const out = JSON.parse(await child.waitForLine(() => true, 300_000)) as { ms: number[]; hwmKB: number };
  await child.exited;
  return { ms: median(out.ms), hwmMiB: out.hwmKB / 1024 };
}

export async function run(ctx: Context): Promise<Entry[]> {
  // The goal sizes get three calls even in a quick run: one 50 MiB call is too noisy to compare.
  const repsFor = (mb: number): number => (ctx.quick && mb < 30 ? 1 : 3);
  const cases: Array<{ kind: 'text' | 'png'; mb: number; label: string }> = [
    { kind: 'text', mb: 1, label: 'text 1 MiB' },
    { kind: 'text', mb: 10, label: 'text 10 MiB' },
    { kind: 'text', mb: 50, label: 'text 50 MiB' },
    { kind: 'png', mb: 1, label: 'PNG 1 MiB' },
    { kind: 'png', mb: 10, label: 'PNG 10 MiB' },
    { kind: 'png', mb: 37.5, label: 'PNG 37.5 MiB (50 MiB as base64)' },
    { kind: 'png', mb: 50, label: 'PNG 50 MiB' },
  ];
  const entries: Entry[] = [];
  const details: Record<string, unknown> = {};
  for (const { kind, mb, label } of cases) {
    ctx.log(`payloads: ${label}`);
    const ws = createWorkspace();
    const big = mb > 20;
    const reps = repsFor(mb);
    // The SDK client's quadratic reader takes ~15 s per 50 MiB result: one call, and only in a full run.
    const sdkReps = big ? (ctx.quick ? 0 : 1) : reps;
    const { host, ready } = await startBenchHost(ws, [`${kind}:${mb}`]);
    const linear = await linearTrial(ws, kind, mb, reps, ready.pid);
    const sdk = sdkReps > 0 && !linear.error ? await sdkClientTrial(ws, tetherMcpArgs(ws), kind, mb, sdkReps, big) : undefined;
    await host.stop();
    const floorLinear = linear.error ? undefined : await linearTrial(ws, kind, mb, reps, undefined, [helper('floor-sdk-server')]);
    const floorSdk = sdk && !sdk.error ? await sdkClientTrial(ws, [helper('floor-sdk-server')], kind, mb, sdkReps, big) : undefined;
    const rawHost = await startRawTcpHost(ws, [`${kind}:${mb}`]);
    const relay = await linearTrial(ws, kind, mb, reps, undefined, [helper('floor-sdk-server'), ...rawHost.relayArgs]);
    await rawHost.host.stop();
    const floor = await stringifyParse(ws.env, kind, mb, reps + 1);
    const wireMiB = round(kind === 'png' ? (Math.ceil((mb * MiB) / (1024 * 4 + 1)) * (1024 * 4 + 1) * 4) / 3 / MiB : mb, 1);
    const summary = (trial: Trial | undefined): unknown =>
      trial &&
      (trial.error
        ? { error: trial.error }
        : {
            ms: trial.ms.map((v) => round(v, 1)),
            serverIdleMiB: round(trial.idleMiB, 1),
            serverPeakMiB: round(trial.hwmMiB, 1),
            ...(trial.hostHwmMiB ? { hostPeakMiB: round(trial.hostHwmMiB, 1) } : {}),
          });
    details[label] = {
      wireMiB,
      tetherLinearReader: summary(linear),
      sdkFloorLinearReader: summary(floorLinear),
      sdkRelayFloorLinearReader: summary(relay),
      tetherSdkClient: summary(sdk),
      sdkFloorSdkClient: summary(floorSdk),
      stringifyParse: { ms: round(floor.ms, 1), peakMiB: round(floor.hwmMiB, 1) },
    };
    const goal = mb === 50;
    const failed = linear.error ? ` — fails: ${/"code":"([A-Z_]+)"|\[([A-Z_]+)\]/.exec(linear.error)?.slice(1).find(Boolean) ?? linear.error.slice(0, 60)}` : '';
    entries.push(
      entry({
        name: `payload ${label}: round trip, tether mcp (linear reader; vs stringify+parse)${failed}`,
        metric: 'round_trip',
        value: linear.error ? null : median(linear.ms),
        unit: 'ms',
        floor: floor.ms,
        ...(goal ? { goal: { on: 'ratio', op: '<=', target: 1.5 } as const } : {}),
      }),
    );
    if (floorLinear && !floorLinear.error) {
      // The process boundary alone: the SDK floor server answers in-process (no hop, no
      // bridge), serializes the message and writes it to the same pipe, and the same client
      // reads and parses it. What it takes beyond stringify + parse bounds any stdio server.
      const floorMs = median(floorLinear.ms);
      entries.push(
        entry({ name: `payload ${label}: round trip, SDK floor server, no hop (bound; linear reader; vs stringify+parse)`, metric: 'round_trip', value: floorMs, unit: 'ms', floor: floor.ms }),
      );
      if (!linear.error)
        entries.push(entry({ name: `payload ${label}: round trip, tether mcp vs SDK floor server (linear reader)`, metric: 'round_trip', value: median(linear.ms), unit: 'ms', floor: floorMs }));
    }
    if (!relay.error) {
      const relayMs = median(relay.ms);
      // A reference, not a floor: Tether passes large strings through, so it beats the relay.
      entries.push(entry({ name: `payload ${label}: round trip, SDK relay (reference; linear reader; vs stringify+parse)`, metric: 'round_trip', value: relayMs, unit: 'ms', floor: floor.ms }));
      if (!linear.error)
        entries.push(entry({ name: `payload ${label}: round trip, tether mcp vs SDK relay (linear reader)`, metric: 'round_trip', value: median(linear.ms), unit: 'ms', floor: relayMs }));
    }
    if (sdk && !sdk.error && floorSdk && !floorSdk.error) {
      entries.push(
        entry({
          name: `payload ${label}: round trip, SDK client → tether mcp (vs SDK client → SDK floor server)`,
          metric: 'round_trip',
          value: median(sdk.ms),
          unit: 'ms',
          floor: median(floorSdk.ms),
        }),
      );
    }
    entries.push(
      entry({
        name: `payload ${label}: peak RSS of tether mcp (vs one stringify+parse)${failed}`,
        metric: 'peak_rss',
        value: linear.error ? null : linear.hwmMiB,
        unit: 'MiB',
        floor: floor.hwmMiB,
        ...(goal ? { goal: { on: 'value', op: '<=', target: round(4 * wireMiB, 1) } as const } : {}),
      }),
    );
  }
  ctx.diagnostics.payloads = details;
  return entries;
}
