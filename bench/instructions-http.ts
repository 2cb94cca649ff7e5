/**
 * Instructions per call over Streamable HTTP, counted by valgrind's callgrind: what `tether
 * serve` and the bench host each execute for a trivial tools/call from a lean node:http client
 * (RawHttpSession: keep-alive, one session, JSON responses), the client the latency scenario's
 * "lean node:http client" rows use. The sibling of bench/instructions.ts (the stdio paths); read
 * its header for what an instruction count is good for and what it leaves out.
 *
 *   npm run build && node --import tsx bench/instructions-http.ts [--warm 12000] [--calls 2000] [--functions 25]
 *
 * Both processes start with instrumentation off, serve `--warm` calls so that V8 has compiled
 * what it will compile, and are counted over the next `--calls` calls. `--functions N` lists
 * each process's N functions with the most instructions of their own per call (with
 * --perf-basic-prof, which adds ~1–3% to the totals: compare totals only between runs made
 * the same way).
 */
import { spawnSync } from 'node:child_process';
import { buildHelpers } from './lib/build.js';
import { CallgrindRun, countingOptions } from './lib/callgrind.js';
import { costlyFunctions } from './lib/callgrind-functions.js';
import { createWorkspace, killAll, removeWorkspaces } from './lib/procs.js';
import { RawHttpSession, startBenchHost, startServe } from './lib/setup.js';

const { warm: WARM_CALLS, calls: COUNTED_CALLS, functions: TOP_FUNCTIONS, inclusive: INCLUSIVE } = countingOptions(process.argv.slice(2));

const run = new CallgrindRun(TOP_FUNCTIONS > 0);

async function main(): Promise<void> {
  if (spawnSync('valgrind', ['--version']).status !== 0) throw new Error('valgrind is not installed (Debian: apt-get install valgrind)');
  buildHelpers();
  const ws = createWorkspace();
  const { host } = await startBenchHost(ws, [], [], run.launch);
  const { serve, url, token } = await startServe(ws, [], run.launch);
  const session = await new RawHttpSession(url, token).initialize();
  const processes = [
    { name: 'tether serve', pid: serve.pid },
    { name: 'bench host', pid: host.pid },
  ];
  const pids = processes.map((p) => p.pid);
  try {
    process.stderr.write(`[instructions-http] tether serve: ${WARM_CALLS} calls to warm up, ${COUNTED_CALLS} counted\n`);
    for (let i = 0; i < WARM_CALLS; i++) await session.call('echo', { text: 'ping' });
    run.control(pids, '--instr=on');
    run.control(pids, '--zero');
    for (let i = 0; i < COUNTED_CALLS; i++) await session.call('echo', { text: 'ping' });
    run.control(pids, '--dump=counted');
  } finally {
    session.close();
  }

  const counts = processes.map(({ name, pid }) => ({ name, perCall: Math.round(run.instructions(pid) / COUNTED_CALLS) }));
  const together = counts.reduce((sum, c) => sum + c.perCall, 0);
  process.stdout.write(`\nInstructions per tools/call over HTTP (lean node:http client; user space), after ${WARM_CALLS} calls, counted over ${COUNTED_CALLS}:\n\n`);
  process.stdout.write('| process | per call |\n| --- | ---: |\n');
  for (const { name, perCall } of counts) process.stdout.write(`| ${name} | ${perCall.toLocaleString('en')} |\n`);
  process.stdout.write(`| together | ${together.toLocaleString('en')} |\n`);
  if (TOP_FUNCTIONS > 0) {
    for (const { name, pid } of processes) {
      process.stdout.write(`\n${name}, the ${TOP_FUNCTIONS} functions with the most instructions ${INCLUSIVE ? "with their callees'" : 'of their own'}, per call:\n\n`);
      for (const f of costlyFunctions(run.dumpOf(pid), pid, COUNTED_CALLS, TOP_FUNCTIONS, INCLUSIVE)) process.stdout.write(`${f.perCall.toLocaleString('en').padStart(9)}  ${f.name}\n`);
    }
  }
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`instructions-http failed: ${(error as Error).stack ?? String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkspaces();
    run.cleanUp();
  });
