import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ProgressLine } from '../../src/cli/progress-line.js';
import type { CallProgress } from '../../src/protocol/index.js';

/**
 * A TTY that keeps what was drawn, and a clock on which every timer fires `lateMs` after it was
 * due, as on a loaded machine: Node's setInterval then drifts by that much on each tick.
 */
function terminal(lateMs: number) {
  const drawn: string[] = [];
  let lag = 0;
  let fromEditor = false;
  const stream = { isTTY: true, write: (text: string) => drawn.push(text) > 0 };
  const line = new ProgressLine(stream, () => {
    if (!fromEditor) lag += lateMs;
    return Date.now() + lag;
  });
  const update = (progress: CallProgress) => {
    fromEditor = true;
    line.update(progress);
    fromEditor = false;
  };
  return { line, update, drawn };
}

const progress = (state: CallProgress['state'], elapsedMs: number): CallProgress => ({ callId: 'c1', state, heartbeat: false, elapsedMs });

const seconds = (drawn: string[]) =>
  drawn
    .map((text) => /\((\d+) s\)$/.exec(text)?.[1])
    .filter((s) => s !== undefined)
    .map(Number);

describe('ProgressLine', () => {
  beforeEach(() => void vi.useFakeTimers());
  afterEach(() => void vi.useRealTimers());

  it('shows every second between the editor’s updates, even when its timers fire late', () => {
    const { update, drawn } = terminal(40);
    update(progress('queued', 0));
    vi.advanceTimersByTime(2_300);
    // An update lands between ticks, its clock a little behind the line's.
    update(progress('queued', 2_250));
    vi.advanceTimersByTime(30_000);
    const shown = seconds(drawn);
    expect(shown.at(-1)).toBeGreaterThanOrEqual(30);
    for (let second = 0; second <= 30; second++) expect(shown, `second ${second}`).toContain(second);
    // The clock never runs backwards.
    expect(shown).toEqual([...shown].sort((a, b) => a - b));
  });

  it('stops ticking once cleared, and wipes the line', () => {
    const { line, update, drawn } = terminal(0);
    update(progress('running', 0));
    line.clear();
    const count = drawn.length;
    vi.advanceTimersByTime(5_000);
    expect(drawn.length).toBe(count);
    expect(drawn.at(-1)).toBe('\r\x1b[2K');
  });

  it('draws nothing when the stream is not a terminal', () => {
    const drawn: string[] = [];
    const line = new ProgressLine({ isTTY: false, write: (text: string) => drawn.push(text) > 0 });
    line.update(progress('running', 0));
    vi.advanceTimersByTime(3_000);
    expect(drawn).toEqual([]);
  });

  it('draws one line that fits the terminal: newlines and control characters become spaces, a long message is cut, its clock kept', () => {
    const drawn: string[] = [];
    const line = new ProgressLine({ isTTY: true, columns: 30, write: (text: string) => drawn.push(text) > 0 });
    line.update({ ...progress('running', 12_000), message: 'Compiling\nscripts\r\x1b[31m for the WebGL player, which takes a while' });
    const shown = drawn.at(-1)!;
    expect(shown.startsWith('\r\x1b[2K')).toBe(true);
    const text = shown.slice('\r\x1b[2K'.length);
    // eslint-disable-next-line no-control-regex
    expect(text).not.toMatch(/[\x00-\x1f]/);
    // Less than the width: a line as wide as the terminal wraps, and the next erase clears only its end.
    expect([...text].length).toBeLessThanOrEqual(29);
    expect(text).toMatch(/^Compiling scripts .*… \(12 s\)$/);
    line.clear();
  });

  it('cuts nothing when the width is unknown', () => {
    const drawn: string[] = [];
    const line = new ProgressLine({ isTTY: true, write: (text: string) => drawn.push(text) > 0 });
    line.update({ ...progress('running', 0), message: 'x'.repeat(300) });
    expect(drawn.at(-1)).toBe(`\r\x1b[2K${'x'.repeat(300)} (0 s)`);
    line.clear();
  });
});
