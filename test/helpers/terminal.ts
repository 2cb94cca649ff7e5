/**
 * A `tether` command on a pseudo-terminal, as a person runs it: util-linux `script` gives it a
 * terminal and copies everything written there to a log file as it is written (-f).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { existsSync, readFileSync } from 'node:fs';
import { TETHER_BIN, stopChild } from './processes.js';

export const hasScript = process.platform === 'linux' && spawnSync('script', ['--version'], { stdio: 'ignore' }).status === 0;
export const needsScript = hasScript ? '' : ' (skipped: needs util-linux `script`)';

export function shellQuote(value: string): string {
  return `'${value.replaceAll("'", "'\\''")}'`;
}

const started = new Set<ChildProcess>();

export interface TerminalRun {
  child: ChildProcess;
  /** What the terminal showed so far, escapes and all. */
  shown(): string;
  /** What the terminal showed, as lines: carriage returns and erase-line escapes resolved the way a terminal shows them, colours dropped. */
  lines(): string[];
  exited: Promise<number | null>;
  /** Types a line on the terminal. */
  type(text: string): void;
  stop(): Promise<void>;
}

/**
 * Runs `tether ARGS` on a terminal. `redirect` is appended to the shell command (e.g.
 * `> out.json`, so that only stderr reaches the terminal).
 */
export function onTerminal(args: string[], env: NodeJS.ProcessEnv, log: string, redirect = ''): TerminalRun {
  // `exec`: the shell becomes tether, as a person's prompt runs it in the foreground. A shell
  // left waiting would take the terminal's Ctrl-C too, and dash dies of it (exit 130) however
  // tether handles its own.
  return shellOnTerminal(`exec ${tetherCommand(args)} ${redirect}`, env, log);
}

/** `tether ARGS` as a shell command line. */
export function tetherCommand(args: string[]): string {
  return [process.execPath, TETHER_BIN, ...args].map(shellQuote).join(' ');
}

/**
 * Runs a shell command line on a terminal with `sh -c`. `script` runs it with $SHELL, which is
 * bash on one machine and unset (dash) on another: pinned, every machine runs the same shell.
 */
export function shellOnTerminal(commandLine: string, env: NodeJS.ProcessEnv, log: string): TerminalRun {
  const child = spawn('script', ['-qfec', commandLine, log], { env: { ...env, SHELL: '/bin/sh' }, stdio: ['pipe', 'ignore', 'ignore'] });
  started.add(child);
  const exited = new Promise<number | null>((resolve) => child.once('exit', (code) => resolve(code)));
  void exited.then(() => started.delete(child));
  const shown = (): string => (existsSync(log) ? readFileSync(log, 'utf8') : '');
  return {
    child,
    shown,
    lines: () =>
      shown()
        .split(/\r?\n/)
        // eslint-disable-next-line no-control-regex
        .map((line) => (line.split(/\r|\x1b\[2K/).at(-1) ?? '').replace(/\x1b\[\d+m/g, '')),
    exited,
    type: (text) => child.stdin!.write(text),
    stop: () => stopChild(child),
  };
}

/** Stops every terminal still running. Call from afterEach. */
export async function stopTerminals(): Promise<void> {
  await Promise.all([...started].map((child) => stopChild(child)));
}
