/**
 * A log file under $TETHER_HOME/logs/ that stays bounded: past `maxBytes` it is renamed to
 * `name.1.log` (the older ones shift to `.2`, `.3`, …) and a fresh file is opened; at most
 * `keep` rotated files are kept, so a `tether serve` that runs for weeks holds at most
 * (keep + 1) × maxBytes of logs.
 *
 * Ours rather than pino-roll: logs hold project paths and tool arguments, so every open is
 * 0600 and never follows a symbolic link planted in the file's place (pino-roll opens by path
 * through sonic-boom, which follows links), and several processes (one `tether mcp` per
 * agent) append to the same file: a process that finds the file already rotated by another
 * reopens it instead of rotating again.
 */
import { closeSync, constants, fstatSync, openSync, renameSync, rmSync, statSync, writeSync } from 'node:fs';

const APPEND_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

export interface LogRotation {
  /** Rotate once the file passes this size. */
  maxBytes: number;
  /** How many rotated files to keep beside the live one. */
  keep: number;
}

export const DEFAULT_LOG_ROTATION: LogRotation = { maxBytes: 10 * 1024 * 1024, keep: 5 };

/** The rotation settings, from TETHER_LOG_MAX_BYTES and TETHER_LOG_KEEP where set (tests make them small). */
export function logRotationFromEnv(env: NodeJS.ProcessEnv = process.env): LogRotation {
  const read = (value: string | undefined, fallback: number, min: number): number => {
    const parsed = Number(value);
    return value !== undefined && value !== '' && Number.isInteger(parsed) && parsed >= min ? parsed : fallback;
  };
  return { maxBytes: read(env.TETHER_LOG_MAX_BYTES, DEFAULT_LOG_ROTATION.maxBytes, 1024), keep: read(env.TETHER_LOG_KEEP, DEFAULT_LOG_ROTATION.keep, 0) };
}

/** `logs/mcp.log` → `logs/mcp.2.log`: the n-th older file. */
export function rotatedPath(path: string, n: number): string {
  return path.replace(/(\.log)?$/, `.${n}$1`);
}

/**
 * How long a line may wait to be written with the ones after it. Short enough that `tether
 * logs --follow` and the dashboard show a call as it ends, and that a process killed outright
 * loses little; long enough that a front answering thousands of calls a second writes once
 * for hundreds of lines. Flushing at the end of each turn instead (setImmediate) cost
 * `tether mcp` a pass of the event loop's check phase (~12k instructions) and a write for
 * every call (docs/performance.md, the sixth round).
 */
export const LOG_FLUSH_AFTER_MS = 50;

/** Pending lines past this many characters are written at once, whatever the time. */
export const LOG_FLUSH_PENDING_CHARS = 64 * 1024;

/**
 * A pino destination writing to a rotating file. Lines are gathered and written together,
 * `LOG_FLUSH_AFTER_MS` after the first of them (a call's path pays no syscall and no turn of
 * the event loop per line), and whatever is pending is written synchronously when the process
 * exits, so an exit (stdin closed, a signal handled, an uncaught error) loses nothing.
 */
export class RotatingLogFile {
  private fd: number;
  private size: number;
  private pending: string[] = [];
  private pendingChars = 0;
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** flush, bound: what the timer and the process's exit call. */
  private readonly flushNow = (): void => this.flush();

  /** Opens (creating, 0600) the live file; throws if it cannot, e.g. when a link stands in its place. */
  constructor(
    readonly path: string,
    private readonly rotation: LogRotation = DEFAULT_LOG_ROTATION,
    private readonly flushAfterMs = LOG_FLUSH_AFTER_MS,
  ) {
    this.fd = openSync(path, APPEND_NO_FOLLOW, 0o600);
    this.size = fstatSync(this.fd).size;
    process.on('exit', this.flushNow);
  }

  write(line: string): void {
    if (this.fd < 0) return;
    this.pending.push(line);
    this.pendingChars += line.length;
    if (this.pendingChars > LOG_FLUSH_PENDING_CHARS) this.flush();
    // Unreferenced: pending lines never keep a process alive (its exit writes them).
    else if (this.timer === undefined) this.timer = setTimeout(this.flushNow, this.flushAfterMs).unref();
  }

  /** Writes what is pending now (also done `flushAfterMs` after a line, and at exit). */
  flush(): void {
    if (this.timer !== undefined) {
      clearTimeout(this.timer);
      this.timer = undefined;
    }
    if (this.fd < 0 || this.pending.length === 0) return;
    const text = this.pending.join('');
    this.pending = [];
    this.pendingChars = 0;
    const bytes = Buffer.byteLength(text);
    if (this.size > 0 && this.size + bytes > this.rotation.maxBytes) this.rotate();
    try {
      writeSync(this.fd, text);
      this.size += bytes;
    } catch {
      // A full disk costs log lines, never the process.
    }
  }

  /** The name pino's multistream flushes its destinations by (`flushSync`, as sonic-boom's). */
  flushSync(): void {
    this.flush();
  }

  close(): void {
    if (this.fd < 0) return;
    this.flush();
    process.off('exit', this.flushNow);
    closeSync(this.fd);
    this.fd = -1;
  }

  private rotate(): void {
    try {
      // Another process may have rotated already: then the path is a new, small file and this
      // process only needs to follow it there.
      if (statSync(this.path).ino === fstatSync(this.fd).ino) this.shift();
      const next = openSync(this.path, APPEND_NO_FOLLOW, 0o600);
      closeSync(this.fd);
      this.fd = next;
      this.size = fstatSync(next).size;
    } catch {
      // A rotation that fails (a folder made read-only, a link planted) keeps the current file.
      this.size = 0;
    }
  }

  private shift(): void {
    const { keep } = this.rotation;
    rmSync(rotatedPath(this.path, keep), { force: true });
    for (let n = keep - 1; n >= 1; n--) {
      try {
        renameSync(rotatedPath(this.path, n), rotatedPath(this.path, n + 1));
      } catch {
        // Not there yet: fewer rotations so far than `keep`.
      }
    }
    if (keep === 0) rmSync(this.path, { force: true });
    else renameSync(this.path, rotatedPath(this.path, 1));
  }
}
