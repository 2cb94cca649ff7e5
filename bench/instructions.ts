/**
 * Instructions per call, counted by valgrind's callgrind: what each process on the path of a
 * trivial tools/call executes, for `tether mcp` + bench host, the SDK relay floor + raw host,
 * the hop floor (no SDK, no checks) + raw host, and the SDK floor server. Unlike CPU time, an
 * instruction count hardly moves with what else the machine is doing, so a change of a few
 * percent shows (CPU time on these shared 2-CPU VMs moves by ±10–30% between rounds). It
 * counts user-space instructions only: system calls are the same for every bridge here (see
 * docs/performance.md), and a cache miss counts as one instruction, so it guides changes and
 * does not replace the timed scenarios.
 *
 *   npm run build && node --import tsx bench/instructions.ts [--warm 12000] [--calls 2000] [--functions 25]
 *
 * Every process starts with instrumentation off (valgrind still runs it, about 7× slower), serves
 * `--warm` calls, so that V8 has compiled what it will compile, and is counted over the next
 * `--calls` calls. Needs valgrind (Debian: `apt-get install valgrind`).
 *
 * `--functions N` also lists, for each process, the N functions that executed the most
 * instructions of their own per call, JavaScript ones by name and file: the processes then run
 * with `--perf-basic-prof`, whose map of V8's generated code names what callgrind sees as bare
 * addresses (see lib/callgrind-functions.ts). V8 then also reports each object its garbage
 * collector moves (Heap::OnMoveEvent), which adds ~1–3% to the counts: compare totals only
 * between runs made the same way.
 */
import { spawnSync } from 'node:child_process';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { buildHelpers, helper } from './lib/build.js';
import { CallgrindRun, countingOptions } from './lib/callgrind.js';
import { costlyFunctions, type FunctionCost } from './lib/callgrind-functions.js';
import { call } from './lib/mcp.js';
import { type Child, TETHER_BIN, createWorkspace, killAll, removeWorkspaces, trackPid } from './lib/procs.js';

const { warm: WARM_CALLS, calls: COUNTED_CALLS, functions: TOP_FUNCTIONS, inclusive: INCLUSIVE } = countingOptions(process.argv.slice(2));

const run = new CallgrindRun(TOP_FUNCTIONS > 0);

/** With --functions: what each counted process spent its instructions on, per path. */
const functionLists: Array<{ process: string; functions: FunctionCost[] }> = [];

async function startHost(script: string, args: string[], env: Record<string, string>, ready: string): Promise<{ host: Child; line: string }> {
  const host = run.launch(helper(script), args, env);
  const line = await host.waitForLine((l) => l.includes(ready), 180_000);
  return { host, line };
}

async function measure(name: string, serverArgs: string[], env: Record<string, string>, host: Child | undefined): Promise<Record<string, number>> {
  const transport = new StdioClientTransport({ command: 'valgrind', args: run.args(serverArgs), env, stderr: 'ignore' });
  const client = new Client({ name: 'tether-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } });
  try {
    await client.connect(transport);
  } finally {
    if (transport.pid !== null) run.mapsOf(transport.pid);
  }
  const server = transport.pid as number;
  trackPid(server);
  const pids = [server, ...(host ? [host.pid] : [])];
  try {
    process.stderr.write(`[instructions] ${name}: ${WARM_CALLS} calls to warm up, ${COUNTED_CALLS} counted\n`);
    for (let i = 0; i < WARM_CALLS; i++) await call(client, 'echo', { text: 'ping' });
    run.control(pids, '--instr=on');
    run.control(pids, '--zero');
    for (let i = 0; i < COUNTED_CALLS; i++) await call(client, 'echo', { text: 'ping' });
    run.control(pids, '--dump=counted');
    if (TOP_FUNCTIONS > 0) {
      functionLists.push({ process: `${name}: server`, functions: costlyFunctions(run.dumpOf(server), server, COUNTED_CALLS, TOP_FUNCTIONS, INCLUSIVE) });
      if (host) functionLists.push({ process: `${name}: host`, functions: costlyFunctions(run.dumpOf(host.pid), host.pid, COUNTED_CALLS, TOP_FUNCTIONS, INCLUSIVE) });
    }
    return {
      server: Math.round(run.instructions(server) / COUNTED_CALLS),
      ...(host ? { host: Math.round(run.instructions(host.pid) / COUNTED_CALLS) } : {}),
    };
  } finally {
    await client.close();
    run.clearDumps();
  }
}

async function main(): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  buildHelpers();
  const rows: Array<[string, Record<string, number>]> = [];

  const tetherWs = createWorkspace();
  const benchHost = await startHost('bench-host', ['--project', tetherWs.project], tetherWs.env, '"event":"ready"');
  rows.push(['tether mcp + bench host', await measure('tether mcp', [TETHER_BIN, 'mcp', '--project', tetherWs.project], tetherWs.env, benchHost.host)]);
  await benchHost.host.stop();

  const relayWs = createWorkspace();
  const rawHost = await startHost('raw-tcp-host', [], relayWs.env, '"event":"listening"');
  const { port } = JSON.parse(rawHost.line) as { port: number };
  rows.push(['SDK relay floor + raw host', await measure('SDK relay floor', [helper('floor-sdk-server'), '--relay', String(port)], relayWs.env, rawHost.host)]);
  rows.push(['hop floor + raw host', await measure('hop floor', [helper('raw-mcp-server'), '--relay', String(port)], relayWs.env, rawHost.host)]);
  await rawHost.host.stop();

  rows.push(['SDK floor server', await measure('SDK floor server', [helper('floor-sdk-server')], relayWs.env, undefined)]);

  const floor = rows.find(([name]) => name === 'SDK floor server')?.[1].server ?? NaN;
  process.stdout.write(`\nInstructions per tools/call (user space), after ${WARM_CALLS} calls, counted over ${COUNTED_CALLS}:\n\n`);
  process.stdout.write('| path | server | host | together | vs SDK floor server |\n| --- | ---: | ---: | ---: | ---: |\n');
  for (const [name, counts] of rows) {
    const together = (counts.server ?? 0) + (counts.host ?? 0);
    process.stdout.write(`| ${name} | ${counts.server?.toLocaleString('en')} | ${counts.host?.toLocaleString('en') ?? '—'} | ${together.toLocaleString('en')} | ${(together / floor).toFixed(2)}× |\n`);
  }
  for (const { process: which, functions } of functionLists) {
    process.stdout.write(`\n${which}, the ${functions.length} functions with the most instructions ${INCLUSIVE ? "with their callees'" : 'of their own'}, per call:\n\n`);
    for (const { name, perCall } of functions) process.stdout.write(`${perCall.toLocaleString('en').padStart(9)}  ${name}\n`);
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`instructions failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkspaces();
    run.cleanUp();
  });
