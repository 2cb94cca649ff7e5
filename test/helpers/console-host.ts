/**
 * The C# console host (unity/Tests~/Tether.ConsoleHost: a Tether host built from the Unity
 * package's Core alone) as a real process for integration tests, in the style of
 * processes.ts: the workspace's TETHER_HOME, waits on its JSON lines on stdout (`ready` after
 * each start and reload, `reloading`), never on sleeps, and an escalating stop (SIGTERM, then
 * SIGKILL). `npm run test:unity` builds it (Release) before vitest runs.
 */
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { ChildWithLines, REPO_ROOT, type Workspace } from './processes.js';

const RELEASE_DIR = join(REPO_ROOT, 'unity', 'Tests~', 'Tether.ConsoleHost', 'bin', 'Release');
const DLL_NAME = 'tether-console-host.dll';

/** The built console host (bin/Release/<tfm>/tether-console-host.dll); throws, saying how to build it, when there is none. */
export function consoleHostDll(): string {
  const frameworks = existsSync(RELEASE_DIR) ? readdirSync(RELEASE_DIR) : [];
  const found = frameworks.map((tfm) => join(RELEASE_DIR, tfm, DLL_NAME)).find((dll) => existsSync(dll));
  if (found) return found;
  throw new Error(
    `The C# console host is not built: no ${join(RELEASE_DIR, '<tfm>', DLL_NAME)}. ` + 'Run `npm run test:unity` (npm test runs it before vitest; it needs the .NET SDK), then run these tests again.',
  );
}

export interface ConsoleHostReady {
  event: 'ready';
  port: number;
  instanceId: string;
  pid: number;
  generation: number;
}

const running = new Set<ConsoleHost>();

export class ConsoleHost extends ChildWithLines {
  constructor(
    readonly workspace: Workspace,
    args: string[],
  ) {
    super('dotnet', [consoleHostDll(), '--project', workspace.project, ...args], workspace.env, { stdin: 'pipe' });
    running.add(this);
    void this.exited.then(() => running.delete(this));
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

  /** A simulated domain reload: the host goes away for --reload-ms and comes back as the next generation. */
  reload(): void {
    this.child.stdin!.write('reload\n');
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
