/**
 * Clean shutdown on SIGINT, SIGTERM or SIGHUP (and SIGBREAK on Windows): every registered
 * task runs once (newest first, so a server stops before the editor it talks to), then the
 * process exits once what it wrote is out (a half-written line on stdout would be a broken
 * message to an MCP client). A shutdown that hangs cannot keep the process forever.
 */
import { exitWhenFlushed } from './flushed-exit.js';

const tasks: Array<(signal: NodeJS.Signals) => Promise<void>> = [];
let installed = false;
let stopping = false;

/**
 * The signals that ask a `tether` process to stop: Ctrl-C, a script's `timeout` or a CI job's
 * cancel, a closed terminal, and SIGBREAK (Ctrl+Break in a Windows console, which would
 * otherwise end the process with no cleanup).
 */
export const STOP_SIGNALS: readonly NodeJS.Signals[] = ['SIGINT', 'SIGTERM', 'SIGHUP', ...(process.platform === 'win32' ? (['SIGBREAK'] as const) : [])];

export function onShutdownSignal(shutdown: (signal: NodeJS.Signals) => Promise<void>): void {
  tasks.unshift(shutdown);
  if (installed) return;
  installed = true;
  for (const signal of STOP_SIGNALS) {
    process.on(signal, () => {
      if (stopping) return;
      stopping = true;
      setTimeout(() => process.exit(1), 5_000).unref();
      void (async () => {
        for (const task of tasks) await task(signal).catch(() => undefined);
      })().finally(() => exitWhenFlushed(0));
    });
  }
}
