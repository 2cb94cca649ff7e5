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

function readFrom(path: string, offset: number, size: number): string {
  const fd = openSync(path, 'r');
  try {
    const buffer = Buffer.alloc(size - offset);
    const read = readSync(fd, buffer, 0, buffer.length, offset);
    return buffer.subarray(0, read).toString('utf8');
  } finally {
    closeSync(fd);
  }
}

/**
 * Follows the folder's logs by inode, so a file renamed by a rotation is read on from where
 * it was, and the new file from its start. Only whole lines are returned; a line still being
 * written waits for the next poll.
 */
export class CallLogFollower {
  private readonly offsets = new Map<string, number>();

  constructor(private readonly dir: string) {}

  /** The call lines written since the last poll (the first poll returns everything there is). */
  poll(): CallLogLine[] {
    const found: CallLogLine[] = [];
    for (const path of logFiles(this.dir)) {
      let stats;
      try {
        stats = statSync(path);
      } catch {
        continue;
      }
      const key = `${stats.dev}:${stats.ino}`;
      const offset = this.offsets.get(key) ?? 0;
      if (stats.size <= offset) continue;
      let text: string;
      try {
        text = readFrom(path, offset, stats.size);
      } catch {
        continue;
      }
      const end = text.lastIndexOf('\n') + 1;
      this.offsets.set(key, offset + Buffer.byteLength(text.slice(0, end)));
      found.push(...callLinesOf(text.slice(0, end)));
    }
    return found.sort((a, b) => a.time - b.time);
  }
}
