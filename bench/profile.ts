/**
 * CPU profiles of the hot paths: runs the bench host and `tether mcp` (or `tether serve`)
 * under `node --cpu-prof`, drives calls through them with the SDK client, and prints where
 * each process spends its time (self time by function and by module group).
 *
 *   npm run build && node --import tsx bench/profile.ts [--calls 5000] [--payload text:50] [--http | --floor]
 *
 * Profiles land in bench/results/profiles/ (open them in Chrome DevTools → Performance).
 */
import { mkdirSync, readdirSync, readFileSync, rmSync } from 'node:fs';
import { summarize } from './lib/cpuprofile.js';
import { join } from 'node:path';
import { performance } from 'node:perf_hooks';
import { buildHelpers, helper } from './lib/build.js';
import { call, connectHttp, connectStdio } from './lib/mcp.js';
import { BENCH_DIR, REPO_ROOT, createWorkspace, killAll, node, removeWorkspaces, sleep } from './lib/procs.js';
import { percentile } from './lib/stats.js';

/**
 * The compiled, unbundled CLI: the same code as bin/tether.js runs (dist/bundle/ is built from
 * it), but with a file per module, so time is attributed to Tether, the SDK, zod… by path.
 */
const UNBUNDLED_CLI = join(REPO_ROOT, 'dist', 'cli', 'tether.js');

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
};

async function main(): Promise<void> {
  buildHelpers();
  const calls = Number(option('calls') ?? 5000);
  const payload = option('payload');
  const http = argv.includes('--http');
  const dir = join(BENCH_DIR, 'results', 'profiles');
  rmSync(dir, { recursive: true, force: true });
  mkdirSync(dir, { recursive: true });
  const ws = createWorkspace();
  const prof = (name: string): string[] => ['--cpu-prof', '--cpu-prof-interval', option('interval') ?? '250', '--cpu-prof-dir', dir, '--cpu-prof-name', `${name}.cpuprofile`];
  const [kind = 'text', mb = '1'] = (payload ?? '').split(':');
  const host = node(helper('bench-host'), ['--project', ws.project, ...(payload ? ['--prewarm', payload] : [])], ws.env, { execArgv: prof('host') });
  await host.waitForLine((l) => l.includes('"event":"ready"'), 120_000);
  let client;
  let front;
  if (http) {
    front = node(UNBUNDLED_CLI, ['serve', '--port', '0', '--project', ws.project], ws.env, { execArgv: prof('serve') });
    const { url } = JSON.parse(await front.waitForLine((l) => l.includes('listening'))) as { url: string };
    const { token } = JSON.parse(readFileSync(join(ws.home, 'serve.json'), 'utf8')) as { token: string };
    client = await connectHttp(url, token);
  } else if (argv.includes('--floor')) {
    const session = await connectStdio([...prof('sdk-floor'), helper('floor-sdk-server')], ws.env);
    client = session.client;
  } else {
    const session = await connectStdio([...prof('mcp'), UNBUNDLED_CLI, 'mcp', '--project', ws.project], ws.env);
    client = session.client;
  }
  await client.listTools();
  const times: number[] = [];
  const args = payload ? { kind, mb: Number(mb) } : { text: 'ping' };
  const name = payload ? 'payload' : 'echo';
  for (let i = 0; i < calls; i++) {
    const start = performance.now();
    await call(client, name, args);
    times.push(performance.now() - start);
  }
  process.stdout.write(`${calls} ${name} calls: p50 ${percentile(times, 50).toFixed(3)} ms, p90 ${percentile(times, 90).toFixed(3)} ms\n\n`);
  await client.close();
  if (front) await front.stop();
  await host.stop();
  await sleep(300);
  for (const file of readdirSync(dir)) process.stdout.write(`${summarize(join(dir, file))}\n\n`);
  process.stdout.write(`Profiles in ${dir.replace(`${REPO_ROOT}/`, '')}\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`profile failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkspaces();
    setTimeout(() => process.exit(), 200).unref();
  });
