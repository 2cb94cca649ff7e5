/**
 * The front's log stays bounded: past its size it rotates to `.1`, `.2`, … keeping `keep`
 * files; lines are written together, after a short wait or once many are pending; every
 * file is 0600; a link planted in its place is refused; two processes appending to one file
 * rotate it once; and `tether logs`' follower reads across a rotation without losing or
 * repeating a call.
 */
import { lstatSync, mkdtempSync, readFileSync, readdirSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import { LOG_FLUSH_PENDING_CHARS, RotatingLogFile, logRotationFromEnv, rotatedPath } from '../../src/cli/rotating-log-file.js';
import { CallLogFollower } from '../../src/mcp/call-log-reader.js';
import { CALL_LOG_MESSAGE } from '../../src/mcp/call-log.js';

const posix = process.platform !== 'win32';

function callLine(n: number): string {
  return `${JSON.stringify({ level: 30, time: 1_000 + n, name: 'mcp', msg: CALL_LOG_MESSAGE, callId: `c${n}`, tool: 'get_hierarchy', durationMs: n, outcome: 'success', bytes: 10 })}\n`;
}

describe('rotating log file', () => {
  it('rotates past maxBytes and keeps at most `keep` older files, each 0600', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const path = join(dir, 'mcp.log');
    const file = new RotatingLogFile(path, { maxBytes: 1024, keep: 2 });
    for (let n = 0; n < 100; n++) {
      file.write(callLine(n));
      file.flush();
    }
    file.close();
    expect(readdirSync(dir).sort()).toEqual(['mcp.1.log', 'mcp.2.log', 'mcp.log']);
    for (const name of readdirSync(dir)) {
      expect(lstatSync(join(dir, name)).size).toBeLessThanOrEqual(1024);
      if (posix) expect(lstatSync(join(dir, name)).mode & 0o777).toBe(0o600);
    }
    // The newest lines are in the live file, the ones before in .1.
    expect(readFileSync(path, 'utf8')).toContain('"callId":"c99"');
    expect(readFileSync(rotatedPath(path, 1), 'utf8')).not.toContain('"callId":"c99"');
  });

  it("writes lines together once the first has waited flushAfterMs, not each turn's", async () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    try {
      const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
      const path = join(dir, 'mcp.log');
      const file = new RotatingLogFile(path, undefined, 50);
      file.write(callLine(1));
      await new Promise((resolve) => setImmediate(resolve));
      file.write(callLine(2));
      vi.advanceTimersByTime(49);
      expect(readFileSync(path, 'utf8')).toBe('');
      vi.advanceTimersByTime(1);
      expect(readFileSync(path, 'utf8')).toBe(callLine(1) + callLine(2));
      // The next line starts a wait of its own.
      file.write(callLine(3));
      expect(vi.getTimerCount()).toBe(1);
      file.close();
      expect(vi.getTimerCount()).toBe(0);
      expect(readFileSync(path, 'utf8')).toBe(callLine(1) + callLine(2) + callLine(3));
    } finally {
      vi.useRealTimers();
    }
  });

  it('writes at once when the lines pending pass LOG_FLUSH_PENDING_CHARS, not waiting for the timer', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const path = join(dir, 'mcp.log');
    const file = new RotatingLogFile(path, undefined, 60_000);
    const line = callLine(1);
    const fitting = Math.floor(LOG_FLUSH_PENDING_CHARS / line.length);
    for (let n = 0; n < fitting; n++) file.write(line);
    expect(readFileSync(path, 'utf8')).toBe('');
    file.write(line);
    expect(readFileSync(path, 'utf8')).toBe(line.repeat(fitting + 1));
    file.close();
  });

  it('holds lines back, and writes what is pending when closed', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const path = join(dir, 'serve.log');
    const file = new RotatingLogFile(path);
    file.write(callLine(1));
    file.write(callLine(2));
    expect(readFileSync(path, 'utf8')).toBe('');
    file.close();
    expect(readFileSync(path, 'utf8')).toBe(callLine(1) + callLine(2));
  });

  it.skipIf(!posix)("refuses to open through a symbolic link planted in the log's place", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const target = join(dir, 'elsewhere');
    writeFileSync(target, '');
    symlinkSync(target, join(dir, 'mcp.log'));
    expect(() => new RotatingLogFile(join(dir, 'mcp.log'))).toThrow(/ELOOP|symbolic/i);
  });

  it("two writers on one file lose no line, and the second follows the first one's rotation to the new file", () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const path = join(dir, 'mcp.log');
    const a = new RotatingLogFile(path, { maxBytes: 1024, keep: 5 });
    const b = new RotatingLogFile(path, { maxBytes: 1024, keep: 5 });
    for (let n = 0; n < 12; n++) {
      a.write(callLine(n));
      a.flush();
    }
    // a rotated once; b's count still says the old file is small, so b writes into it (now .1)
    // until its own count passes the size, then finds the live file already new.
    for (let n = 12; n < 30; n++) {
      b.write(callLine(n));
      b.flush();
    }
    a.close();
    b.close();
    const all = readdirSync(dir).flatMap((name) => readFileSync(join(dir, name), 'utf8').split('\n').filter(Boolean));
    expect(all).toHaveLength(30);
    expect(readFileSync(path, 'utf8')).toContain('"callId":"c29"');
    // 30 lines of ~140 bytes need four files of 1 KiB at least; a doubled rotation would make more.
    expect(readdirSync(dir).length).toBeLessThanOrEqual(5);
  });

  it('the follower reads every call once across a rotation', () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-log-'));
    const path = join(dir, 'mcp.log');
    const file = new RotatingLogFile(path, { maxBytes: 2048, keep: 3 });
    const follower = new CallLogFollower(dir);
    const seen: string[] = [];
    for (let n = 0; n < 40; n++) {
      file.write(callLine(n));
      if (n % 3 === 0) file.write('{"level":30,"msg":"something else"}\n');
      file.flush();
      if (n % 7 === 0) seen.push(...follower.poll().map((line) => line.callId));
    }
    file.close();
    seen.push(...follower.poll().map((line) => line.callId));
    expect(seen).toEqual(Array.from({ length: 40 }, (_, n) => `c${n}`));
  });

  it('takes its sizes from TETHER_LOG_MAX_BYTES and TETHER_LOG_KEEP, ignoring nonsense', () => {
    expect(logRotationFromEnv({ TETHER_LOG_MAX_BYTES: '4096', TETHER_LOG_KEEP: '1' })).toEqual({ maxBytes: 4096, keep: 1 });
    expect(logRotationFromEnv({ TETHER_LOG_MAX_BYTES: 'lots', TETHER_LOG_KEEP: '-1' })).toEqual({ maxBytes: 10 * 1024 * 1024, keep: 5 });
  });
});
