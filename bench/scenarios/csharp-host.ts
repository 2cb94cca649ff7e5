/**
 * 7. The C# host (the Unity package's Core, run by the console host in unity/Tests~) beside the
 * TypeScript host: per-call latency of the same trivial tool through the same front. Both hosts
 * run the conformance kit (--conformance-kit), whose read-only `tether_conformance_read` reads
 * one counter on the host's main thread: the sandbox editor (TypeScript, main thread in a
 * worker) against the console host (C#, main thread a dedicated thread). SDK client →
 * `tether mcp` (stdio) → host → back, one call at a time, in interleaved rounds so drift hits
 * both alike; plus the CPU time per call of each host process.
 *
 * The console host is built first (`dotnet build -c Release`), so the figure is of the C# code
 * as it is now; without the .NET SDK the figures are reported as not measured, with the reason.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { call, connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { Child, REPO_ROOT, TETHER_BIN, cpuMsOf, createWorkspace, node } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { percentile, round } from '../lib/stats.js';
import { measureInterleaved } from './latency.js';

const CONSOLE_HOST_DIR = join(REPO_ROOT, 'unity', 'Tests~', 'Tether.ConsoleHost');
const READY = (line: string): boolean => line.includes('"event":"ready"');

/** Builds the console host (Release) and returns its dll; throws saying why it could not. */
function buildConsoleHost(ctx: Context): string {
  ctx.log('csharp-host: dotnet build -c Release (the console host)…');
  const build = spawnSync('dotnet', ['build', join(CONSOLE_HOST_DIR, 'Tether.ConsoleHost.csproj'), '-c', 'Release', '--nologo', '-v', 'q', '-nodeReuse:false'], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
    env: { ...process.env, DOTNET_NOLOGO: '1', DOTNET_CLI_TELEMETRY_OPTOUT: process.env.DOTNET_CLI_TELEMETRY_OPTOUT ?? '1' },
  });
  if (build.error) throw new Error(`dotnet could not run (${build.error.message}); the C# host needs the .NET SDK (https://dot.net/)`);
  if (build.status !== 0) throw new Error(`dotnet build failed:\n${`${build.stdout}${build.stderr}`.trim().split('\n').slice(-15).join('\n')}`);
  const release = join(CONSOLE_HOST_DIR, 'bin', 'Release');
  const dll = readdirSync(release)
    .map((tfm) => join(release, tfm, 'tether-console-host.dll'))
    .find((path) => existsSync(path));
  if (!dll) throw new Error(`dotnet build succeeded but left no tether-console-host.dll under ${release}`);
  return dll;
}

const NAMES = {
  p50: 'C# console host: tether_conformance_read latency p50 via tether mcp (vs the TypeScript sandbox host)',
  p90: 'C# console host: tether_conformance_read latency p90 via tether mcp (vs the TypeScript sandbox host)',
  p99: 'C# console host: tether_conformance_read latency p99 via tether mcp (vs the TypeScript sandbox host)',
} as const;

export async function run(ctx: Context): Promise<Entry[]> {
  let dll: string;
  try {
    dll = buildConsoleHost(ctx);
  } catch (error) {
    ctx.log(`csharp-host: not measured: ${(error as Error).message}`);
    ctx.diagnostics.csharpHost = { notMeasured: (error as Error).message };
    return [entry({ name: NAMES.p50, metric: 'latency_p50', value: null, unit: 'ms', goal: { on: 'ratio', op: '<=', target: 1.25 } })];
  }

  const tsWorkspace = createWorkspace({ sample: true, logLevel: 'warn' });
  const sandbox = node(TETHER_BIN, ['sandbox', '--project', tsWorkspace.project, '--conformance-kit'], tsWorkspace.env);
  const csWorkspace = createWorkspace({ logLevel: 'warn' });
  const consoleHost = new Child('dotnet', [dll, '--project', csWorkspace.project, '--conformance-kit'], csWorkspace.env, { stdin: 'pipe' });
  const sandboxReady = JSON.parse(await sandbox.waitForLine(READY)) as { pid?: number };
  const consoleReady = JSON.parse(await consoleHost.waitForLine(READY)) as { pid?: number };
  const tsFront = await connectStdio(tetherMcpArgs(tsWorkspace), tsWorkspace.env);
  const csFront = await connectStdio(tetherMcpArgs(csWorkspace), csWorkspace.env);

  const read = (client: typeof tsFront.client) => (): Promise<unknown> => call(client, 'tether_conformance_read', { key: 'bench' });
  const targets = [
    { name: 'typescript', once: read(tsFront.client) },
    { name: 'csharp', once: read(csFront.client) },
  ];
  const rounds = ctx.quick ? 4 : 10;
  const perRound = ctx.quick ? 200 : 500;
  ctx.log(`csharp-host: ${rounds} interleaved rounds of ${perRound} calls per host`);
  const samples = await measureInterleaved(targets, rounds, perRound, ctx.quick ? 300 : 1000);
  const p = (name: string, q: number): number => percentile(samples.get(name)!, q);

  // CPU per call of each host process and its front (from /proc/<pid>/stat).
  const cpuCalls = ctx.quick ? 1000 : 5000;
  const cpuPass = async (once: () => Promise<unknown>, pids: Record<string, number>): Promise<Record<string, number>> => {
    const before = Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, cpuMsOf(pid)]));
    for (let i = 0; i < cpuCalls; i++) await once();
    return Object.fromEntries(Object.entries(pids).map(([name, pid]) => [name, round(((cpuMsOf(pid) - (before[name] as number)) * 1000) / cpuCalls, 1)]));
  };
  ctx.diagnostics.csharpHost = {
    latency: Object.fromEntries([...samples].map(([name, values]) => [name, { n: values.length, p50: round(p(name, 50)), p90: round(p(name, 90)), p99: round(p(name, 99)) }])),
    cpuMicrosecondsPerCall: {
      calls: cpuCalls,
      typescript: await cpuPass(targets[0]!.once, { 'tether mcp': tsFront.pid, 'sandbox host': sandboxReady.pid ?? sandbox.pid }),
      csharp: await cpuPass(targets[1]!.once, { 'tether mcp': csFront.pid, 'console host': consoleReady.pid ?? consoleHost.pid }),
    },
  };

  await tsFront.close();
  await csFront.close();
  await sandbox.stop();
  await consoleHost.stop();

  return [
    entry({ name: NAMES.p50, metric: 'latency_p50', value: p('csharp', 50), unit: 'ms', floor: p('typescript', 50), goal: { on: 'ratio', op: '<=', target: 1.25 } }),
    entry({ name: NAMES.p90, metric: 'latency_p90', value: p('csharp', 90), unit: 'ms', floor: p('typescript', 90) }),
    entry({ name: NAMES.p99, metric: 'latency_p99', value: p('csharp', 99), unit: 'ms', floor: p('typescript', 99) }),
  ];
}
