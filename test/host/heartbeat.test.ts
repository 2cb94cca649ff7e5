/** The one heartbeat ticker for every live call (src/host/heartbeat.ts), on fake timers. */
import { afterEach, describe, expect, it, vi } from 'vitest';
import { HeartbeatTicker } from '../../src/host/heartbeat.js';

afterEach(() => {
  vi.restoreAllMocks();
  vi.useRealTimers();
});

describe('HeartbeatTicker', () => {
  it('beats a call silent for the interval, keeps ticking across calls one after another, and stops at a tick with none live', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance'] });
    const started = vi.spyOn(globalThis, 'setInterval');
    const live = new Set<{ lastSentAt: number }>();
    const beats: number[] = [];
    const ticker = new HeartbeatTicker(
      1_000,
      () => live,
      (call) => {
        beats.push(performance.now());
        call.lastSentAt = performance.now();
      },
    );
    // Calls one after another, each ending before the next starts: one interval for all.
    for (let i = 0; i < 50; i++) {
      const call = { lastSentAt: performance.now() };
      live.add(call);
      ticker.ensure();
      vi.advanceTimersByTime(1);
      live.delete(call);
    }
    expect(started).toHaveBeenCalledTimes(1);
    const silent = { lastSentAt: performance.now() };
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

  it('beats on time when the wall clock is stepped back (NTP, a virtual machine resumed)', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance', 'Date'] });
    const live = new Set([{ lastSentAt: performance.now() }]);
    let beats = 0;
    const ticker = new HeartbeatTicker(
      1_000,
      () => live,
      (call) => {
        beats++;
        call.lastSentAt = performance.now();
      },
    );
    ticker.ensure();
    vi.setSystemTime(Date.now() - 60_000);
    vi.advanceTimersByTime(1_000);
    expect(beats).toBe(1);
    ticker.stop();
  });
});
