/**
 * 5. Cold start: from spawning `tether mcp` to the first tools/list answered (initialize
 * included), against the SDK floor server started the same way: as every agent session after
 * the first finds it (the tool cache and the CLI's code cache of earlier runs present), without
 * the tool cache, and the very first run after an install (neither cache). Diagnostics: what
 * importing each dependency costs.
 */
import { spawn } from 'node:child_process';
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { pathToFileURL } from 'node:url';
import { helper } from '../lib/build.js';
import { connectStdio, tetherMcpArgs } from '../lib/mcp.js';
import { REPO_ROOT, createWorkspace } from '../lib/procs.js';
import { entry, type Context, type Entry } from '../lib/results.js';
import { startBenchHost } from '../lib/setup.js';
import { median, round } from '../lib/stats.js';

async function spawnToList(args: string[], env: Record<string, string>, expectTools: number): Promise<number> {
  const start = performance.now();
  const session = await connectStdio(args, env);
  const { tools } = await session.client.listTools();
  const elapsed = performance.now() - start;
  await session.close();
  if (tools.length < expectTools) throw new Error(`tools/list answered ${tools.length} tools, expected ${expectTools}`);
  return elapsed;
}

function runNode(args: string[]): Promise<{ ms: number; stdout: string }> {
  const start = performance.now();
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, args, { cwd: REPO_ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let stdout = '';
    let ms = 0;
    child.stdout.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
    child.once('error', reject);
    // Timed to its exit; resolved once its stdout is all read, which 'exit' does not promise.
    child.once('exit', () => (ms = performance.now() - start));
    child.once('close', () => resolve({ ms, stdout }));
  });
}

/** Milliseconds `await import(specifier)` takes in a fresh process (median of `runs`). */
async function importMs(specifier: string, runs: number): Promise<number> {
  const times: number[] = [];
  for (let i = 0; i < runs; i++) {
    const { stdout } = await runNode(['--input-type=module', '-e', `const t = performance.now(); await import(${JSON.stringify(specifier)}); process.stdout.write(String(performance.now() - t));`]);
    times.push(Number(stdout));
  }
  return median(times);
}

export async function run(ctx: Context): Promise<Entry[]> {
  const ws = createWorkspace();
  await startBenchHost(ws);
  const runs = ctx.quick ? 5 : 15;
  const cached: number[] = [];
  const noToolCache: number[] = [];
  const firstRun: number[] = [];
  const floor: number[] = [];
  const nodeOnly: number[] = [];
  // tether mcp advertises tether_status besides the host's echo and payload.
  await spawnToList(tetherMcpArgs(ws), ws.env, 3);
  await spawnToList([helper('floor-sdk-server')], ws.env, 2);
  for (let i = 0; i < runs; i++) {
    ctx.log(`cold start: round ${i + 1}/${runs}`);
    cached.push(await spawnToList(tetherMcpArgs(ws), ws.env, 3));
    rmSync(join(ws.home, 'cache', 'tools'), { recursive: true, force: true });
    noToolCache.push(await spawnToList(tetherMcpArgs(ws), ws.env, 3));
    // Both caches gone: the tool cache and the code cache of the bundled CLI (cache/cli).
    rmSync(join(ws.home, 'cache'), { recursive: true, force: true });
    firstRun.push(await spawnToList(tetherMcpArgs(ws), ws.env, 3));
    floor.push(await spawnToList([helper('floor-sdk-server')], ws.env, 2));
    nodeOnly.push((await runNode(['-e', '0'])).ms);
  }
  const imports: Record<string, number> = {};
  const importRuns = ctx.quick ? 3 : 5;
  for (const specifier of [
    '@modelcontextprotocol/server',
    '@modelcontextprotocol/server/stdio',
    '@modelcontextprotocol/client',
    'zod',
    'ajv/dist/2020.js',
    'pino',
    'commander',
    pathToFileURL(join(REPO_ROOT, 'dist', 'protocol', 'index.js')).href,
    pathToFileURL(join(REPO_ROOT, 'dist', 'mcp', 'front.js')).href,
    pathToFileURL(join(REPO_ROOT, 'dist', 'mcp', 'mcp-server.js')).href,
    pathToFileURL(join(REPO_ROOT, 'dist', 'cli', 'commands', 'mcp.js')).href,
  ]) {
    imports[specifier.replace(pathToFileURL(REPO_ROOT).href + '/', '')] = round(await importMs(specifier, importRuns), 1);
  }
  ctx.diagnostics.coldStart = {
    cachedMs: cached.map((v) => round(v, 1)),
    noToolCacheMs: noToolCache.map((v) => round(v, 1)),
    firstRunMs: firstRun.map((v) => round(v, 1)),
    sdkFloorMs: floor.map((v) => round(v, 1)),
    nodeSpawnToExitMs: nodeOnly.map((v) => round(v, 1)),
    importMsInFreshProcess: imports,
  };
  return [
    entry({
      name: 'cold start p50: spawn tether mcp → first tools/list answered, tool cache present (vs SDK floor server)',
      metric: 'cold_start_p50',
      value: median(cached),
      unit: 'ms',
      floor: median(floor),
      goal: { on: 'value', op: '<=', target: 150 },
    }),
    entry({
      name: 'cold start p50 without the tool cache (vs SDK floor server)',
      metric: 'cold_start_p50',
      value: median(noToolCache),
      unit: 'ms',
      floor: median(floor),
      goal: { on: 'value', op: '<=', target: 150 },
    }),
    entry({
      name: 'cold start p50, first run after an install: no tool cache, no code cache (reference; vs SDK floor server)',
      metric: 'cold_start_p50',
      value: median(firstRun),
      unit: 'ms',
      floor: median(floor),
    }),
    entry({ name: 'SDK floor server cold start p50 (vs node -e 0 spawn → exit)', metric: 'cold_start_p50', value: median(floor), unit: 'ms', floor: median(nodeOnly) }),
  ];
}
