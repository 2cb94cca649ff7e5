/** The one heartbeat ticker for every live call (src/host/heartbeat.ts), on fake timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatTicker } from '../../src/host/heartbeat.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('HeartbeatTicker', () => {
  it('beats a call silent for the interval, keeps ticking across calls one after another, and stops at a tick with none live', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'Date'] });
    const started = vi.spyOn(globalThis, 'setInterval');
    const live = new Set<{ lastSentAt: number }>();
    const beats: number[] = [];
    const ticker = new HeartbeatTicker(
      1_000,
      () => live,
      (call) => {
        beats.push(Date.now());
        call.lastSentAt = Date.now();
      },
    );
    // Calls one after another, each ending before the next starts: one interval for all.
    for (let i = 0; i < 50; i++) {
      const call = { lastSentAt: Date.now() };
      live.add(call);
      ticker.ensure();
      vi.advanceTimersByTime(1);
      live.delete(call);
    }
    expect(started).toHaveBeenCalledTimes(1);
    const silent = { lastSentAt: Date.now() };
    live.add(silent);
    vi.advanceTimersByTime(1_000);
    expect(beats).toHaveLength(1);
    live.delete(silent);
    vi.advanceTimersByTime(200); // a tick with nothing live stops it
    expect(vi.getTimerCount()).toBe(0);
    ticker.ensure();
    expect(started).toHaveBeenCalledTimes(2);
    ticker.stop();
  });
});
