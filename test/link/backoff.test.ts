import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Backoff } from '../../src/link/backoff.js';

/** The ceiling of the n-th delay (0-based): initial · factor^n, capped at max. */
function ceiling(n: number, initialMs: number, factor: number, maxMs: number): number {
  return Math.min(maxMs, initialMs * factor ** n);
}

describe('Backoff', () => {
  it('grows exponentially, each delay within [ceiling/2, ceiling], capped at maxMs', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 1_000 }),
        fc.integer({ min: 2, max: 4 }),
        fc.integer({ min: 1_000, max: 60_000 }),
        fc.array(fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true }), { minLength: 1, maxLength: 25 }),
        (initialMs, factor, maxMs, draws) => {
          let i = 0;
          const backoff = new Backoff({ initialMs, factor, maxMs, random: () => draws[i++] as number });
          draws.forEach((_, n) => {
            const top = ceiling(n, initialMs, factor, maxMs);
            const delay = backoff.next();
            expect(delay).toBeGreaterThanOrEqual(Math.floor(top / 2));
            expect(delay).toBeLessThanOrEqual(Math.ceil(top));
            expect(delay).toBeLessThanOrEqual(maxMs);
          });
          expect(backoff.attempts).toBe(draws.length);
        },
      ),
    );
  });

  it('gives exactly the lower and upper bounds for random 0 and random → 1', () => {
    const low = new Backoff({ initialMs: 100, factor: 2, maxMs: 1_000, random: () => 0 });
    expect(Array.from({ length: 6 }, () => low.next())).toEqual([50, 100, 200, 400, 500, 500]);
    const high = new Backoff({ initialMs: 100, factor: 2, maxMs: 1_000, random: () => 0.999_999_9 });
    expect(Array.from({ length: 6 }, () => high.next())).toEqual([100, 200, 400, 800, 1_000, 1_000]);
  });

  it('uses the documented defaults (100 ms, ×2, 5 s cap)', () => {
    const backoff = new Backoff({ random: () => 0.999_999_9 });
    const delays = Array.from({ length: 9 }, () => backoff.next());
    expect(delays).toEqual([100, 200, 400, 800, 1_600, 3_200, 5_000, 5_000, 5_000]);
  });

  it('does not reset after a flap (connected, then dropped before healthyAfterMs)', () => {
    const backoff = new Backoff({ initialMs: 100, factor: 2, maxMs: 10_000, healthyAfterMs: 5_000, random: () => 0 });
    expect([backoff.next(), backoff.next(), backoff.next()]).toEqual([50, 100, 200]);
    backoff.connected(1_000);
    backoff.disconnected(1_000 + 4_999);
    expect(backoff.attempts).toBe(3);
    expect(backoff.next()).toBe(400);
    // Flapping repeatedly keeps growing the delay.
    backoff.connected(10_000);
    backoff.disconnected(10_050);
    expect(backoff.next()).toBe(800);
  });

  it('resets once a connection stayed up for healthyAfterMs', () => {
    const backoff = new Backoff({ initialMs: 100, factor: 2, maxMs: 10_000, healthyAfterMs: 5_000, random: () => 0 });
    for (let i = 0; i < 5; i++) backoff.next();
    backoff.connected(20_000);
    backoff.disconnected(25_000); // exactly healthyAfterMs: healthy
    expect(backoff.attempts).toBe(0);
    expect(backoff.next()).toBe(50);
  });

  it('a disconnect without a connect does not reset', () => {
    const backoff = new Backoff({ initialMs: 100, random: () => 0 });
    backoff.next();
    backoff.next();
    backoff.disconnected(1e12);
    expect(backoff.attempts).toBe(2);
    // A stale connectedAt is not reused by a later disconnect either.
    backoff.connected(0);
    backoff.disconnected(10);
    backoff.disconnected(1e12);
    expect(backoff.attempts).toBe(2);
  });
});
