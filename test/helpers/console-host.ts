/**
 * The C# console host (unity/Tests~/Tether.ConsoleHost: a Tether host built from the Unity
 * package's Core alone) as a real process for integration tests, in the style of
 * processes.ts: the workspace's TETHER_HOME, waits on its JSON lines on stdout (`ready` after
 * each start and reload, `reloading`), never on sleeps, and an escalating stop (SIGTERM, then
 * SIGKILL). `npm run test:unity` builds it (Release) before vitest runs.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { REPO_ROOT, stopChild, type Workspace } from './processes.js';

const RELEASE_DIR = join(REPO_ROOT, 'unity', 'Tests~', 'Tether.ConsoleHost', 'bin', 'Release');
const DLL_NAME = 'tether-console-host.dll';

/** The built console host (bin/Release/<tfm>/tether-console-host.dll); throws, saying how to build it, when there is none. */
export function consoleHostDll(): string {
  const frameworks = existsSync(RELEASE_DIR) ? readdirSync(RELEASE_DIR) : [];
  const found = frameworks.map((tfm) => join(RELEASE_DIR, tfm, DLL_NAME)).find((dll) => existsSync(dll));
  if (found) return found;
  throw new Error(
    `The C# console host is not built: no ${join(RELEASE_DIR, '<tfm>', DLL_NAME)}. ` +
      'Run `npm run test:unity` (npm test runs it before vitest; it needs the .NET SDK), then run these tests again.',
  );
}

export interface ConsoleHostReady {
  event: 'ready';
  port: number;
  instanceId: string;
  pid: number;
  generation: number;
}

type LineWaiter = { match(line: string): boolean; resolve(line: string): void };

const running = new Set<ConsoleHost>();

export class ConsoleHost {
  readonly child: ChildProcess;
  /** stdout: JSON lines only (the host's events). */
  readonly lines: string[] = [];
  stderr = '';
  readonly exited: Promise<number | null>;
  private readonly waiters: LineWaiter[] = [];

  constructor(
    readonly workspace: Workspace,
    args: string[],
  ) {
    this.child = spawn('dotnet', [consoleHostDll(), '--project', workspace.project, ...args], { env: workspace.env, stdio: ['pipe', 'pipe', 'pipe'] });
    running.add(this);
    this.exited = new Promise((resolve) => this.child.once('exit', (code) => resolve(code)));
    void this.exited.then(() => running.delete(this));
    this.child.stdin!.on('error', () => undefined); // a write racing the host's exit
    createInterface({ input: this.child.stdout! }).on('line', (line) => {
      this.lines.push(line);
      for (const waiter of [...this.waiters]) {
        if (waiter.match(line)) {
          this.waiters.splice(this.waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    });
    this.child.stderr!.on('data', (chunk: Buffer) => (this.stderr += chunk.toString()));
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** The `ready` line of the host's n-th (re)start: it is listening and its record is written. */
  async ready(generation = 1, timeoutMs = 20_000): Promise<ConsoleHostReady> {
    return JSON.parse(await this.waitForEvent('ready', generation, timeoutMs)) as ConsoleHostReady;
  }

  /** The `reloading` line of the reload that ends generation `generation`. */
  async reloading(generation = 1, timeoutMs = 20_000): Promise<void> {
    await this.waitForEvent('reloading', generation, timeoutMs);
  }

  private waitForEvent(event: string, generation: number, timeoutMs: number): Promise<string> {
    return this.waitForLine((line) => {
      const parsed = parseJson(line) as { event?: string; generation?: number } | undefined;
      return parsed?.event === event && (parsed.generation ?? 0) >= generation;
    }, timeoutMs);
  }

  /** Resolves with the first stdout line (past or future) that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
    const seen = this.lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a line of the console host; stdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`)), timeoutMs);
      this.waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`the console host exited (${code}) before the line appeared; stdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`));
      });
    });
  }

  /** A simulated domain reload: the host goes away for --reload-ms and comes back as the next generation. */
  reload(): void {
    this.child.stdin!.write('reload\n');
  }

  /** SIGTERM (a clean shutdown: record removed, exit 0), then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 5_000): Promise<number | null> {
    await stopChild(this.child, graceMs);
    return this.exited;
  }

  /** Dies without any cleanup, as a crashed editor does: its record and journal stay. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

/** Starts the console host on the workspace's project and waits for its first `ready` line. */
export async function startConsoleHost(workspace: Workspace, args: string[] = []): Promise<{ host: ConsoleHost; ready: ConsoleHostReady }> {
  const host = new ConsoleHost(workspace, args);
  return { host, ready: await host.ready() };
}

/** Stops every console host still running. Call from afterEach/afterAll, before cleanupProcesses() removes the workspaces. */
export async function stopConsoleHosts(): Promise<void> {
  await Promise.all([...running].map((host) => host.stop()));
}

/** The kit's counters (tether_conformance_count), as the host keeps them on disk. */
export function kitCounters(workspace: Workspace): Record<string, number> {
  try {
    return JSON.parse(readFileSync(join(workspace.project, 'Library', 'Tether', 'conformance-counters.json'), 'utf8')) as Record<string, number>;
  } catch {
    return {};
  }
}

export interface JournalLine {
  callId?: string;
  tool?: string;
  state?: string;
}

/** What the host's journal (Library/Tether/journal.jsonl) holds, line by line (a line still being written is left out). */
export function journalLines(workspace: Workspace): JournalLine[] {
  let text: string;
  try {
    text = readFileSync(join(workspace.project, 'Library', 'Tether', 'journal.jsonl'), 'utf8');
  } catch {
    return [];
  }
  return text
    .split('\n')
    .map((line) => parseJson(line) as JournalLine | undefined)
    .filter((entry): entry is JournalLine => typeof entry === 'object' && entry !== null);
}

/** The states the host's journal recorded for a call, in order. */
export function journalStates(workspace: Workspace, callId: string): string[] {
  return journalLines(workspace)
    .filter((entry) => entry.callId === callId)
    .map((entry) => entry.state ?? '');
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text) as unknown;
  } catch {
    return undefined;
  }
}
