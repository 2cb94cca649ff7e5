/**
 * `tether logs --follow` and the dashboard follow the logs through CallLogFollower, which
 * keeps a read position per inode. A rotation deletes the oldest file and makes the new live
 * one, which on ext4 mostly gets the inode just freed: the follower must read that file from
 * its start, not skip it as if it were the old one (it once saw 18 of 600 calls with keep=1).
 * The rotations below show it on a filesystem that reuses inodes; the in-place rewrites show
 * it on any, as a file keeps its inode when truncated: one smaller than where the follower
 * stopped, and one as big or bigger that starts otherwise.
 */
import { mkdtempSync, readdirSync, renameSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { RotatingLogFile } from '../../src/cli/rotating-log-file.js';
import { CallLogFollower } from '../../src/mcp/call-log-reader.js';
import { CALL_LOG_MESSAGE } from '../../src/mcp/call-log.js';

const dirs: string[] = [];

function logsDir(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-follow-'));
  dirs.push(dir);
  return dir;
}

afterEach(() => {
  for (const dir of dirs.splice(0)) rmSync(dir, { recursive: true, force: true });
});

/** Call n's id: all the same length, so every full file has the same size (the hardest case). */
const id = (n: number): string => `c${String(n).padStart(4, '0')}`;

function callLine(n: number): string {
  return `${JSON.stringify({ level: 30, time: 1_000 + n, name: 'mcp', msg: CALL_LOG_MESSAGE, callId: id(n), tool: 'get_hierarchy', durationMs: 1, outcome: 'success', bytes: 10 })}\n`;
}

const ids = (from: number, to: number): string[] => Array.from({ length: to - from }, (_, i) => id(from + i));

/** How many positions the follower holds (they must not pile up over weeks of rotations). */
const positionsHeld = (follower: CallLogFollower): number => (follower as unknown as { positions: Map<string, unknown> }).positions.size;

describe('CallLogFollower across rotations', () => {
  // Three calls a flush make four flushes a file. Polled after every flush, each new file is
  // first seen small; polled every fourth, first seen full, as big as the file whose inode it
  // may have (a file lives keep + 1 files' worth of flushes, so none goes unread).
  it.each([
    [0, 1],
    [1, 1],
    [1, 4],
    [5, 1],
    [5, 4],
  ])('sees every call once, in order, through 99 rotations with keep=%i, polled every %i flushes', (keep, every) => {
    const dir = logsDir();
    const file = new RotatingLogFile(join(dir, 'mcp.log'), { maxBytes: 2048, keep });
    const follower = new CallLogFollower(dir);
    const seen: string[] = [];
    for (let n = 0; n < 1200; n += 3) {
      for (let i = n; i < n + 3; i++) file.write(callLine(i));
      file.flush();
      if ((n / 3 + 1) % every === 0) seen.push(...follower.poll().map((line) => line.callId));
    }
    file.close();
    seen.push(...follower.poll().map((line) => line.callId));
    expect(readdirSync(dir)).toHaveLength(keep + 1);
    expect(seen).toEqual(ids(0, 1200));
    // Those of the files there now, and of the last poll's: not one per file ever rotated.
    expect(positionsHeld(follower)).toBeLessThanOrEqual(2 * (keep + 1));
  });

  it('reads a file smaller than where it stopped in that inode from its start', () => {
    const dir = logsDir();
    const path = join(dir, 'mcp.log');
    writeFileSync(path, callLine(0) + callLine(1) + callLine(2));
    const follower = new CallLogFollower(dir);
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(0, 3));
    const inode = statSync(path).ino;
    // Truncated and written anew in place: the same inode, now shorter than the position.
    writeFileSync(path, callLine(3));
    expect(statSync(path).ino).toBe(inode);
    expect(follower.poll().map((line) => line.callId)).toEqual([id(3)]);
    writeFileSync(path, callLine(4), { flag: 'a' });
    expect(follower.poll().map((line) => line.callId)).toEqual([id(4)]);
  });

  it('reads a file at its inode that starts otherwise from its start, even as big as the old one or bigger; not one only renamed', () => {
    const dir = logsDir();
    const path = join(dir, 'mcp.log');
    writeFileSync(path, callLine(0) + callLine(1));
    const follower = new CallLogFollower(dir);
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(0, 2));
    // Renamed as by a rotation: the same file, nothing new in it.
    renameSync(path, join(dir, 'mcp.1.log'));
    expect(follower.poll()).toEqual([]);
    // Written anew in place (same inode) to just the size read, then past it.
    const inode = statSync(join(dir, 'mcp.1.log')).ino;
    writeFileSync(join(dir, 'mcp.1.log'), callLine(2) + callLine(3));
    expect(statSync(join(dir, 'mcp.1.log')).ino).toBe(inode);
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(2, 4));
    writeFileSync(join(dir, 'mcp.1.log'), callLine(4) + callLine(5) + callLine(6));
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(4, 7));
    expect(follower.poll()).toEqual([]);
  });

  it('keeps how a file starts once it has a whole line, not from a first read that had none', () => {
    const dir = logsDir();
    const path = join(dir, 'mcp.log');
    const [first, rest] = [callLine(0).slice(0, 40), callLine(0).slice(40)];
    writeFileSync(path, first);
    const follower = new CallLogFollower(dir);
    expect(follower.poll()).toEqual([]);
    writeFileSync(path, rest + callLine(1), { flag: 'a' });
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(0, 2));
    writeFileSync(path, callLine(2) + callLine(3) + callLine(4));
    expect(follower.poll().map((line) => line.callId)).toEqual(ids(2, 5));
  });
});
