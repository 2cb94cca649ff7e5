/**
 * Who the session registry evicts to make room when one client opens sessions in a flood:
 * sessions never used since their handshake first, then the client holding the most, never a
 * client holding fewer than the newcomer's (session-registry.ts); and what one client holds
 * that nobody may evict, which its share of a full pool is counted in. The same over HTTP:
 * session-flood.test.ts.
 */
import { describe, expect, it } from 'vitest';
import { PoolFullError, SessionRegistry, type EndReason, type ManagedSession, type PoolOptions } from '../../src/http/session-registry.js';

class Session implements ManagedSession {
  ended: EndReason | undefined;
  shutdown(reason: EndReason): Promise<void> {
    this.ended = reason;
    return Promise.resolve();
  }
}

/** One pool on a manual clock; `open` puts a session of a source, `use` proves and touches it. */
function setup(pool: Partial<PoolOptions> = {}) {
  const clock = { t: 0 };
  const registry = new SessionRegistry<Session, 'p'>({ pools: { p: { capacity: 3, recencyFloorMs: 1_000, unprovenFloorMs: 100, idleTtlMs: 3_600_000, ...pool } }, now: () => clock.t });
  const open = (id: string, source: string) => registry.put(id, 'p', new Session(), { source });
  const use = (id: string) => {
    registry.prove(id);
    registry.get(id);
  };
  const ids = () => [...['a1', 'a2', 'b1', 'c1', 'f1', 'f2', 'f3', 'f4', 'f5', 'f6']].filter((id) => registry.has(id));
  return { clock, registry, open, use, ids };
}

describe('eviction under a flood of new sessions', () => {
  it('takes sessions never used since their handshake first, however recently proven ones were used', () => {
    const { clock, open, use, ids } = setup();
    open('a1', 'agent');
    use('a1');
    clock.t += 5_000; // a1 idle for 5 s: first in line under LRU
    open('f1', 'flood');
    open('f2', 'flood');
    clock.t += 200; // past the unproven floor, not the recency floor
    expect(open('f3', 'flood')).toEqual(['f1']);
    expect(ids()).toEqual(['a1', 'f2', 'f3']);
  });

  it('gives a session not yet used only the short floor: a burst displaces itself after it, not before', () => {
    const { clock, open, ids } = setup({ ceiling: 4 });
    open('f1', 'flood');
    open('f2', 'flood');
    open('f3', 'flood');
    open('f4', 'flood'); // over capacity, nothing evictable yet
    expect(() => open('f5', 'flood')).toThrow(PoolFullError);
    try {
      open('f5', 'flood');
    } catch (error) {
      expect((error as PoolFullError).retryAfterMs).toBe(100);
    }
    clock.t += 100;
    expect(open('f5', 'flood')).toEqual(['f1', 'f2']);
    expect(ids()).toEqual(['f3', 'f4', 'f5']);
  });

  it('takes proven sessions from the client holding the most, and never from one holding fewer than the newcomer', () => {
    const { clock, open, use, ids, registry } = setup({ capacity: 4, ceiling: 6 });
    open('b1', 'other');
    use('b1');
    open('a1', 'agent');
    use('a1');
    clock.t += 10_000; // both idle long past the floor
    open('f1', 'flood');
    use('f1');
    open('f2', 'flood');
    use('f2');
    clock.t += 1_000;
    // The flood's third: the pool is over capacity; b1 and a1 are the least recently used, but
    // their clients hold one each and the flood three: the flood gives up its own.
    expect(open('f3', 'flood')).toEqual(['f1']);
    use('f3');
    clock.t += 1_000;
    expect(open('f4', 'flood')).toEqual(['f2']);
    expect(ids()).toEqual(['a1', 'b1', 'f3', 'f4']);
    // A newcomer of a client holding nothing: the flood holds the most, so it pays.
    use('f4');
    clock.t += 1_000;
    expect(open('c1', 'newcomer')).toEqual(['f3']);
    // When the flood's own are all too recent, it gets nothing from the others: past the ceiling it is refused.
    use('f4');
    open('f5', 'flood');
    use('f5');
    open('f6', 'flood');
    expect(() => open('f7', 'flood')).toThrow(PoolFullError);
    expect(registry.size('p')).toBe(6);
    expect(ids()).toEqual(['a1', 'b1', 'c1', 'f4', 'f5', 'f6']);
  });

  it('is plain LRU among sessions of one source, as before sources existed', () => {
    const { clock, open, use, ids } = setup();
    for (const id of ['a1', 'a2', 'b1']) {
      open(id, '');
      use(id);
      clock.t += 2_000;
    }
    use('a1');
    clock.t += 2_000;
    expect(open('c1', '')).toEqual(['a2']);
    expect(ids()).toEqual(['a1', 'b1', 'c1']);
  });
});

describe("a client's protected sessions", () => {
  it('counts those pinned or used within their floor, and says when the first can be evicted', () => {
    const { clock, open, use, registry } = setup({ capacity: 10 });
    open('f1', 'flood'); // unproven: 100 ms
    open('f2', 'flood');
    use('f2'); // proven: 1,000 ms
    open('f3', 'flood');
    const release = registry.pin('f3');
    open('a1', 'agent');
    clock.t += 50;
    expect(registry.protectedOf('p', 'flood')).toEqual({ count: 3, nextEvictableInMs: 50 });
    clock.t += 50;
    expect(registry.protectedOf('p', 'flood')).toEqual({ count: 2, nextEvictableInMs: 900 });
    clock.t += 900;
    expect(registry.protectedOf('p', 'flood')).toEqual({ count: 1, nextEvictableInMs: undefined });
    release();
    expect(registry.protectedOf('p', 'flood').count).toBe(1); // the release touched it
    expect(registry.protectedOf('p', 'agent').count).toBe(0);
    expect(registry.protectedOf('p', 'nobody')).toEqual({ count: 0, nextEvictableInMs: undefined });
  });
});
