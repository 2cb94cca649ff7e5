/**
 * Running node processes under valgrind's callgrind with counting off until switched on, and
 * reading back what they counted: the machinery bench/instructions.ts (stdio) and
 * bench/instructions-http.ts (tether serve) share.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, readdirSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { removePerfMap } from './callgrind-functions.js';
import { Child } from './procs.js';

/**
 * The command line both counters take: `--warm` calls uncounted, `--calls` counted,
 * `--functions` top functions listed, by their own instructions or, with `--inclusive`, with
 * their callees' (where a path's time goes, not only which leaf spends it).
 */
export function countingOptions(argv: string[]): { warm: number; calls: number; functions: number; inclusive: boolean } {
  const option = (name: string, fallback: number): number => {
    const at = argv.indexOf(`--${name}`);
    return at >= 0 ? Number(argv[at + 1]) : fallback;
  };
  return { warm: option('warm', 12_000), calls: option('calls', 2_000), functions: option('functions', 0), inclusive: argv.includes('--inclusive') };
}

export class CallgrindRun {
  /** Where callgrind writes its dumps (and V8 its log, with perf maps on). */
  readonly dumps = mkdtempSync(join(tmpdir(), 'tether-callgrind-'));
  /** Processes that may have left a perf map, removed by `cleanUp` whatever happened. */
  private readonly mapped = new Set<number>();

  /** `perfMaps`: run node with --perf-basic-prof, so that costlyFunctions can name V8's code. */
  constructor(private readonly perfMaps: boolean) {}

  /** valgrind's arguments for running `node args` with counting off until switched on. */
  args(nodeArgs: string[]): string[] {
    // The flag also writes V8's log, to the working directory unless told where.
    const nodeFlags = this.perfMaps ? ['--perf-basic-prof', `--logfile=${join(this.dumps, 'v8.log')}`, '--no-logfile-per-isolate'] : [];
    return ['--tool=callgrind', '--instr-atstart=no', `--callgrind-out-file=${join(this.dumps, 'callgrind.%p')}`, process.execPath, ...nodeFlags, ...nodeArgs];
  }

  /** `node script args` under callgrind, as a tracked child (the shape of procs.node, for startServe and friends). */
  readonly launch = (script: string, args: string[], env: Record<string, string>): Child => {
    const child = new Child('valgrind', this.args([script, ...args]), env);
    this.mapped.add(child.pid);
    return child;
  };

  /** Records a process started elsewhere (the SDK's StdioClientTransport) as one that may leave a perf map. */
  mapsOf(pid: number): void {
    this.mapped.add(pid);
  }

  control(pids: number[], ...args: string[]): void {
    for (const pid of pids) execFileSync('callgrind_control', [...args, String(pid)], { stdio: 'ignore' });
  }

  /** The dump `callgrind_control --dump` wrote for `pid`. */
  dumpOf(pid: number): string {
    const dump = readdirSync(this.dumps).find((name) => name.startsWith(`callgrind.${pid}.`));
    if (!dump) throw new Error(`no callgrind dump for pid ${pid} in ${this.dumps}`);
    return join(this.dumps, dump);
  }

  /** Instructions in the dump of `pid`. */
  instructions(pid: number): number {
    const totals = /^(?:summary|totals): (\d+)/m.exec(readFileSync(this.dumpOf(pid), 'utf8'));
    if (!totals) throw new Error(`no totals in the callgrind dump of pid ${pid}`);
    return Number(totals[1]);
  }

  /** Removes the dumps of a finished measurement, so that the next one's pids cannot meet them. */
  clearDumps(): void {
    for (const name of readdirSync(this.dumps)) rmSync(join(this.dumps, name));
  }

  cleanUp(): void {
    rmSync(this.dumps, { recursive: true, force: true });
    for (const pid of this.mapped) removePerfMap(pid);
  }
}
