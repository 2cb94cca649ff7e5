/**
 * Processes for the benchmark: every child is tracked and killed on exit (normal, error or
 * signal); stdout lines can be awaited; RSS and peak RSS come from /proc/<pid>/status.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdirSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

export const BENCH_DIR = resolve(fileURLToPath(new URL('..', import.meta.url)));
export const REPO_ROOT = resolve(BENCH_DIR, '..');
export const TETHER_BIN = join(REPO_ROOT, 'bin', 'tether.js');

const children = new Set<ChildProcess>();
const pids = new Set<number>();
const roots: string[] = [];

/** Kills every child still running (SIGKILL; also SIGCONT first, for a stopped one). */
export function killAll(): void {
  for (const child of children) {
    try {
      child.kill('SIGCONT');
      child.kill('SIGKILL');
    } catch {
      // already gone
    }
  }
  children.clear();
  for (const pid of pids) {
    try {
      process.kill(pid, 'SIGKILL');
    } catch {
      // already gone
    }
  }
  pids.clear();
}

/** Registers a process known only by pid (spawned by the SDK's StdioClientTransport). */
export function trackPid(pid: number): void {
  pids.add(pid);
}

export function untrackPid(pid: number): void {
  pids.delete(pid);
}

export function removeWorkspaces(): void {
  for (const root of roots.splice(0)) rmSync(root, { recursive: true, force: true });
}

process.on('exit', () => {
  killAll();
  removeWorkspaces();
});

/** Registers a child spawned elsewhere (e.g. by the SDK's StdioClientTransport) for cleanup. */
export function track(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export interface Workspace {
  root: string;
  home: string;
  project: string;
  env: Record<string, string>;
}

/** A fresh TETHER_HOME and project folder (a copy of the sample project with `sample`). */
export function createWorkspace(options: { sample?: boolean; logLevel?: string } = {}): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'tether-bench-'));
  roots.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  if (options.sample) cpSync(join(REPO_ROOT, 'samples', 'sample-project'), project, { recursive: true });
  else mkdirSync(project, { recursive: true });
  const env: Record<string, string> = {};
  for (const [key, value] of Object.entries(process.env)) if (value !== undefined) env[key] = value;
  env.TETHER_HOME = home;
  env.TETHER_LOG_LEVEL = options.logLevel ?? 'info';
  return { root, home, project, env };
}

export class Child {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly stderrLines: string[] = [];
  readonly exited: Promise<number | null>;
  private readonly waiters: Array<{ match(line: string): boolean; resolve(line: string): void }> = [];

  constructor(command: string, args: string[], env: Record<string, string>, options: { stdin?: 'pipe' | 'ignore'; cwd?: string } = {}) {
    this.child = track(spawn(command, args, { env, cwd: options.cwd ?? REPO_ROOT, stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'] }));
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(line)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    createInterface({ input: this.child.stderr! }).on('line', (line) => this.stderrLines.push(line));
  }

  get pid(): number {
    return this.child.pid as number;
  }

  waitForLine(match: (line: string) => boolean, timeoutMs = 30_000): Promise<string> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a line from pid ${this.pid}; stdout: ${this.lines.join('\n')}\nstderr: ${this.stderrLines.join('\n')}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`pid ${this.pid} exited (${code}) before the line appeared; stderr: ${this.stderrLines.join('\n')}`));
      });
    });
  }

  /** SIGTERM, then SIGKILL after `graceMs`. */
  async stop(graceMs = 3_000): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGCONT');
    this.child.kill('SIGTERM');
    const timer = setTimeout(() => this.child.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
  }

  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** `node <script> args` as a tracked child. */
export function node(script: string, args: string[], env: Record<string, string>, options: { stdin?: 'pipe' | 'ignore'; execArgv?: string[] } = {}): Child {
  return new Child(process.execPath, [...(options.execArgv ?? []), script, ...args], env, options);
}

/** VmRSS and VmHWM (peak RSS) of a process, in KiB. */
export function memoryOf(pid: number): { rssKB: number; hwmKB: number } {
  const status = readFileSync(`/proc/${pid}/status`, 'utf8');
  const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
  return { rssKB: field('VmRSS'), hwmKB: field('VmHWM') };
}

export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));

/** Wall-clock ms with sub-ms precision, comparable across processes on one machine. */
export function wallNow(): number {
  return performance.timeOrigin + performance.now();
}

const CLOCK_TICKS_PER_SECOND = 100;

/** CPU time (user + system, ms) a process has used so far, from /proc/<pid>/stat. */
export function cpuMsOf(pid: number): number {
  const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields after the command: state is index 0, so utime (14th overall) is index 11, stime index 12.
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLOCK_TICKS_PER_SECOND;
}
