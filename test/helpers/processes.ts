/**
 * Real `tether` processes for integration tests: each test gets its own TETHER_HOME and a
 * copy of the sample project, waits on events (a "ready" line, a file), never on sleeps,
 * and stops everything it started with an escalating shutdown (SIGTERM, then SIGKILL).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { cpSync, mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { sceneFileOf, workingCopyOf } from '../../src/sandbox/scene-paths.js';

export const REPO_ROOT = resolve(fileURLToPath(new URL('../../', import.meta.url)));
export const TETHER_BIN = join(REPO_ROOT, 'bin', 'tether.js');

export interface Workspace {
  home: string;
  project: string;
  env: NodeJS.ProcessEnv;
}

const started = new Set<ChildWithLines>();
const children = new Set<ChildProcess>();
const workspaces: string[] = [];

/** A fresh TETHER_HOME and a copy of the sample project. */
export function createWorkspace(): Workspace {
  const root = mkdtempSync(join(tmpdir(), 'tether-test-'));
  workspaces.push(root);
  const home = join(root, 'home');
  const project = join(root, 'project');
  cpSync(join(REPO_ROOT, 'samples', 'sample-project'), project, { recursive: true });
  // Not the developer's TETHER_LOG_FORMAT: piped, tether writes the JSON lines tests wait on.
  const { TETHER_LOG_FORMAT: _format, ...inherited } = process.env;
  return { home, project, env: { ...inherited, TETHER_HOME: home, TETHER_LOG_LEVEL: process.env.TETHER_LOG_LEVEL ?? 'warn' } };
}

type LineWaiter = { match(line: string): boolean; resolve(line: string): void };

/**
 * Any process a test starts and reads line by line (a tether command, the C# console host):
 * waits on its stdout and stderr lines, and is stopped by cleanupProcesses() if the test did not.
 */
export class ChildWithLines {
  readonly child: ChildProcess;
  readonly lines: string[] = [];
  readonly stderrLines: string[] = [];
  stderr = '';
  private readonly waiters: LineWaiter[] = [];
  private readonly stderrWaiters: LineWaiter[] = [];
  readonly exited: Promise<number | null>;

  constructor(command: string, args: string[], env: NodeJS.ProcessEnv, options: { stdin?: 'pipe' | 'ignore' } = {}) {
    this.child = spawn(command, args, { env, stdio: [options.stdin ?? 'ignore', 'pipe', 'pipe'] });
    // A write racing the process's exit is not the test's failure.
    this.child.stdin?.on('error', () => undefined);
    started.add(this);
    // 'close', not 'exit': Node may emit 'exit' before the last of the child's output is read
    // from its pipes, and a test that reads lines or stderr after `exited` must see all of it.
    this.exited = new Promise((resolve) => this.child.once('close', (code) => resolve(code)));
    void this.exited.then(() => started.delete(this));
    const collect = (lines: string[], waiters: LineWaiter[]) => (line: string) => {
      lines.push(line);
      for (const waiter of [...waiters]) {
        if (waiter.match(line)) {
          waiters.splice(waiters.indexOf(waiter), 1);
          waiter.resolve(line);
        }
      }
    };
    createInterface({ input: this.child.stdout! }).on('line', collect(this.lines, this.waiters));
    createInterface({ input: this.child.stderr! }).on('line', collect(this.stderrLines, this.stderrWaiters));
    this.child.stderr!.setEncoding('utf8');
    this.child.stderr!.on('data', (chunk: string) => {
      this.stderr += chunk;
    });
  }

  get pid(): number {
    return this.child.pid as number;
  }

  /** Resolves with the first stdout line (past or future) that matches. */
  waitForLine(match: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return this.waitFor(this.lines, this.waiters, match, timeoutMs);
  }

  /** Resolves with the first stderr line (past or future) that matches: the process's log lines. */
  waitForStderrLine(match: (line: string) => boolean, timeoutMs = 20_000): Promise<string> {
    return this.waitFor(this.stderrLines, this.stderrWaiters, match, timeoutMs);
  }

  private waitFor(lines: string[], waiters: LineWaiter[], match: (line: string) => boolean, timeoutMs: number): Promise<string> {
    const seen = lines.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => reject(new Error(`timed out waiting for a line; stdout: ${this.lines.join('\n')}\nstderr: ${this.stderr}`)), timeoutMs);
      waiters.push({
        match,
        resolve: (line) => {
          clearTimeout(timer);
          resolve(line);
        },
      });
      void this.exited.then((code) => {
        clearTimeout(timer);
        reject(new Error(`process exited (${code}) before the line appeared; stderr: ${this.stderr}`));
      });
    });
  }

  /** SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
  async stop(graceMs = 5_000): Promise<number | null> {
    await stopChild(this.child, graceMs);
    return this.exited;
  }

  /** Dies without any cleanup, as a crashed editor does. */
  async kill(): Promise<void> {
    if (this.child.exitCode !== null || this.child.signalCode !== null) return;
    this.child.kill('SIGKILL');
    await this.exited;
  }
}

export class TetherProcess extends ChildWithLines {
  /** `node`: the Node binary to run it with (default: the one running the tests). */
  constructor(args: string[], env: NodeJS.ProcessEnv, options: { stdin?: 'pipe' | 'ignore'; node?: string } = {}) {
    super(options.node ?? process.execPath, [TETHER_BIN, ...args], env, options);
  }
}

export interface SandboxReady {
  event: 'ready';
  port: number;
  generation: number;
  instanceId: string;
}

export class SandboxProcess extends TetherProcess {
  /** Waits for the editor's n-th (re)load to be listening. */
  async ready(generation = 1, timeoutMs = 20_000): Promise<SandboxReady> {
    const line = await this.waitForLine((l) => l.includes('"event":"ready"') && (JSON.parse(l) as SandboxReady).generation >= generation, timeoutMs);
    return JSON.parse(line) as SandboxReady;
  }
}

/** Starts `tether sandbox` on the workspace's project with fast defaults for tests. */
export async function startSandbox(workspace: Workspace, extra: string[] = []): Promise<{ sandbox: SandboxProcess; ready: SandboxReady }> {
  const sandbox = new SandboxProcess(['sandbox', '--project', workspace.project, '--build-seconds', '2', '--reload-ms', '300', '--compile-ms', '100', '--test-ms', '50', ...extra], workspace.env);
  const ready = await sandbox.ready();
  return { sandbox, ready };
}

/** Two editors of one user (one TETHER_HOME), each on its own copy of the sample project, both ready. */
export async function startTwoSandboxes(): Promise<[Workspace, Workspace]> {
  const first = createWorkspace();
  const second = createWorkspace();
  second.env.TETHER_HOME = first.home;
  await Promise.all([startSandbox(first), startSandbox(second)]);
  return [first, second];
}

/** The sandbox's player builds, in order, with how each ended (its Library/Builds/build-log.jsonl). */
export function buildLog(workspace: Workspace): Array<{ status: string }> {
  try {
    return readFileSync(join(workspace.project, 'Library', 'Builds', 'build-log.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { status: string });
  } catch {
    return [];
  }
}

export const SAMPLE_SCENE = 'Assets/Scenes/SampleScene.unity';

/**
 * A scene as the editor holds it, as text, read off its disk: what tools changed. That is the
 * scene's working copy (its unsaved changes, Library/Tether/scenes/<path>.json) when it has
 * one, else its asset as last saved. Edits reach the asset only through save_scene
 * (savedSceneText); a working copy outlives reloads, kills and restarts, so an edit that
 * completed can be counted after any of them.
 */
export function sceneText(workspace: Workspace, scene = SAMPLE_SCENE): string {
  try {
    return readFileSync(join(workspace.project, workingCopyOf(scene)), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  // A save writes the asset before it removes the working copy, so this is never older than it.
  return savedSceneText(workspace, scene);
}

/** A scene's asset as last saved (Assets/…/Name.json for Assets/…/Name.unity): what save_scene wrote, and what build_player builds. */
export function savedSceneText(workspace: Workspace, scene = SAMPLE_SCENE): string {
  return readFileSync(join(workspace.project, sceneFileOf(scene)), 'utf8');
}

/** Any child process: SIGTERM, then SIGKILL if it has not exited within `graceMs`. */
export async function stopChild(child: ChildProcess, graceMs = 5_000): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), graceMs);
  await exited;
  clearTimeout(timer);
}

export interface Run {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Runs a command to its end with piped (non-TTY) streams; stops it and fails if it hangs. */
export function runToExit(command: string, args: string[], options: { env: NodeJS.ProcessEnv; cwd?: string; timeoutMs?: number }): Promise<Run> {
  const timeoutMs = options.timeoutMs ?? 20_000;
  const child = spawn(command, args, { env: options.env, ...(options.cwd ? { cwd: options.cwd } : {}), stdio: ['ignore', 'pipe', 'pipe'] });
  children.add(child);
  let stdout = '';
  let stderr = '';
  // Decoded as a stream, so a character split between two chunks stays whole.
  child.stdout!.setEncoding('utf8').on('data', (chunk: string) => (stdout += chunk));
  child.stderr!.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      void stopChild(child);
      reject(new Error(`${command} ${args.join(' ')} did not exit within ${timeoutMs} ms; stdout: ${stdout}\nstderr: ${stderr}`));
    }, timeoutMs);
    // 'close', not 'exit': Node may emit 'exit' before the child's last output has been read
    // from its pipes (a refused call's one stderr line went missing that way under CI load).
    child.once('close', (code) => {
      clearTimeout(timer);
      children.delete(child);
      resolve({ code, stdout, stderr });
    });
  });
}

/** The tools the sandbox executed, in order (its Library/Tether/executions.jsonl). */
export function executedTools(workspace: Workspace): string[] {
  try {
    return readFileSync(join(workspace.project, 'Library', 'Tether', 'executions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => (JSON.parse(line) as { tool: string }).tool);
  } catch {
    return [];
  }
}

/** Stops every process the tests started and removes their workspaces. Call from afterEach/afterAll. */
export async function cleanupProcesses(): Promise<void> {
  await Promise.all([...started].map((p) => p.stop()));
  await Promise.all([...children].map((child) => stopChild(child)));
  children.clear();
  for (const root of workspaces.splice(0)) rmSync(root, { recursive: true, force: true });
}
