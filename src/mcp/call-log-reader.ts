/**
 * Reading the per-call lines that fronts (`tether mcp`, `tether serve`) write to their logs in
 * $TETHER_HOME/logs/: every file, the rotated ones too, in time order; and following them as
 * they grow and rotate.
 */
import { closeSync, openSync, readSync, readdirSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { CALL_LOG_MESSAGE, type CallLogLine } from './call-log.js';

/** The files a reader looks at: every `*.log` in the folder (live and rotated). */
function logFiles(dir: string): string[] {
  try {
    return readdirSync(dir)
      .filter((name) => name.endsWith('.log'))
      .map((name) => join(dir, name));
  } catch {
    return [];
  }
}

/** The per-call lines of one chunk of log text; other lines and half-written ones are skipped. */
export function callLinesOf(text: string): CallLogLine[] {
  const lines: CallLogLine[] = [];
  for (const line of text.split('\n')) {
    if (!line.includes(`"msg":"${CALL_LOG_MESSAGE}"`)) continue;
    try {
      const record = JSON.parse(line) as CallLogLine;
      if (record.msg === CALL_LOG_MESSAGE && typeof record.time === 'number') lines.push(record);
    } catch {
      // A line cut by a crash or being written now.
    }
  }
  return lines;
}

/** The bytes of a file from `offset` to `size` (fewer if it is shorter now). */
function readFrom(path: string, offset: number, size: number): Buffer {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(size - offset);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.subarray(0, read);
  } finally {
    closeSync(fd);
  }
}

/** How many of a file's first bytes a follower keeps to know it again: its first line's level, time and pid. */
const HEAD_BYTES = 64;

/** Where a follower stopped in one file (the byte after the last whole line read), and how the file starts. */
interface Position {
  offset: number;
  head: Buffer;
}

/**
 * Whether the file now at a position's inode is still the one the position was taken in. A
 * rotation deletes the oldest file and then makes the new live one, and ext4 mostly gives the
 * new file the inode just freed. Logs only grow, so a file smaller than the position is a new
 * one; and a file's first bytes never change, so one that starts otherwise is new too (one
 * that has reached the old file's size, or passed it, by the time it is first polled).
 */
function isSameFile(path: string, size: number, position: Position): boolean {
  if (size < position.offset) return false;
  return readFrom(path, 0, position.head.length).equals(position.head);
}

/**
 * Follows the folder's logs by inode, so a file renamed by a rotation is read on from where
 * it was, and the new file from its start. Only whole lines are returned; a line still being
 * written waits for the next poll.
 */
export class CallLogFollower {
  private readonly positions = new Map<string, Position>();
  /** The files (by inode) the last poll found. */
  private lastSeen = new Set<string>();

  constructor(private readonly dir: string) {}

  /** The call lines written since the last poll (the first poll returns everything there is). */
  poll(): CallLogLine[] {
    const found: CallLogLine[] = [];
    const seen = new Set<string>();
    for (const path of logFiles(this.dir)) {
      let stats;
      try {
        stats = statSync(path);
      } catch {
        continue;
      }
      const key = `${stats.dev}:${stats.ino}`;
      seen.add(key);
      try {
        found.push(...this.readOn(path, key, stats.size));
      } catch {
        // Rotated away or deleted since the listing: read on next poll, under its new name.
      }
    }
    this.forgetGone(seen);
    return found.sort((a, b) => a.time - b.time);
  }

  /** The call lines of a file past where this follower stopped in it (all, if it is new), moving the position on. */
  private readOn(path: string, key: string, size: number): CallLogLine[] {
    const position = this.positions.get(key);
    const known = position !== undefined && isSameFile(path, size, position) ? position : undefined;
    const offset = known?.offset ?? 0;
    if (size <= offset) return [];
    const bytes = readFrom(path, offset, size);
    const end = bytes.lastIndexOf(0x0a) + 1;
    // Taken on each read from the start (a first one may not have reached a whole line); a
    // copy, not to hold on to the whole read.
    const head = known !== undefined && offset > 0 ? known.head : Buffer.from(bytes.subarray(0, Math.min(end, HEAD_BYTES)));
    this.positions.set(key, { offset: offset + end, head });
    return callLinesOf(bytes.subarray(0, end).toString('utf8'));
  }

  /**
   * Drops the positions of files gone from the folder, so a follower running for weeks holds
   * one per file there. Only once two polls in a row missed a file: a rotation between
   * listing the folder and stat-ing a name can hide a file that is still there from one
   * poll (renamed onto a name already looked at), and forgetting it would read it again.
   */
  private forgetGone(seen: Set<string>): void {
    for (const key of this.positions.keys()) {
      if (!seen.has(key) && !this.lastSeen.has(key)) this.positions.delete(key);
    }
    this.lastSeen = seen;
  }
}
