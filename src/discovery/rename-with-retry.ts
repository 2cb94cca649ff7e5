/**
 * Renaming a temporary file over the file it replaces (the atomic write), as Windows allows it.
 *
 * There an antivirus scanner or the search indexer briefly holds a file just written (the
 * temporary one, or the target it replaces), and the rename fails meanwhile with EPERM,
 * EACCES or EBUSY; a moment later it succeeds. graceful-fs (github.com/isaacs/node-graceful-fs,
 * polyfills.js: on win32 its rename and renameSync retry EACCES and EPERM, as "A/V software
 * can lock the directory"), npm through it, and VS Code (src/vs/base/node/pfs.ts: rename
 * retries EACCES, EPERM and EBUSY on Windows) all retry such a rename for this reason.
 *
 * They wait up to 60 s; here the wait is bounded by RENAME_RETRY_LIMIT_MS (1 s), since every
 * caller renames synchronously on a thread that serves others (a host answering 5 s
 * heartbeats, the sandbox editor, `tether serve` starting): a hold longer than that is no
 * scan passing by, and the caller's own error says more than a process that stopped
 * answering. Each wait sleeps the thread (Atomics.wait) rather than spinning, which
 * graceful-fs notes can starve the very process holding the file of CPU.
 *
 * Elsewhere it is a plain rename. On every platform, a rename that fails for good removes the
 * temporary file and throws the file system's own error, so callers keep their typed errors.
 */
import { renameSync, rmSync } from 'node:fs';

/** How long, in all, a rename refused on Windows is retried before its error is thrown. */
export const RENAME_RETRY_LIMIT_MS = 1_000;

/** The codes Windows gives while another program briefly holds the file. */
const TRANSIENT = new Set(['EPERM', 'EACCES', 'EBUSY']);
const FIRST_WAIT_MS = 10;
const LONGEST_WAIT_MS = 100;

/** What renameWithRetry uses (Node and the real clock by default): tests give their own. */
export interface RenameRetryOptions {
  platform?: NodeJS.Platform;
  rename?: (from: string, to: string) => void;
  /** Removes the temporary file once the rename has failed for good; what it throws is ignored. */
  remove?: (path: string) => void;
  now?: () => number;
  sleep?: (ms: number) => void;
  limitMs?: number;
}

/** Blocks this thread for `ms` without using the CPU. */
function sleepSync(ms: number): void {
  Atomics.wait(new Int32Array(new SharedArrayBuffer(4)), 0, 0, ms);
}

/**
 * Renames the temporary file `from` over `to`; on win32, retries EPERM, EACCES and EBUSY with
 * a growing wait (10 ms, 20 ms, … 100 ms) for up to `limitMs` in all. If it still fails,
 * `from` is removed and the last error of the rename is thrown as it came.
 */
export function renameWithRetry(from: string, to: string, options: RenameRetryOptions = {}): void {
  const { platform = process.platform, rename = renameSync, remove = removeForce, now = () => performance.now(), sleep = sleepSync, limitMs = RENAME_RETRY_LIMIT_MS } = options;
  const deadline = now() + limitMs;
  for (let wait = FIRST_WAIT_MS; ; wait = Math.min(wait + FIRST_WAIT_MS, LONGEST_WAIT_MS)) {
    try {
      rename(from, to);
      return;
    } catch (error) {
      const left = deadline - now();
      if (platform !== 'win32' || !TRANSIENT.has((error as NodeJS.ErrnoException).code ?? '') || left <= 0) {
        try {
          remove(from);
        } catch {
          // The rename's error, thrown next, is what the caller needs to know.
        }
        throw error;
      }
      sleep(Math.min(wait, left));
    }
  }
}

function removeForce(path: string): void {
  rmSync(path, { force: true });
}
