import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { PoolFullError, SessionRegistry, type EndReason, type ManagedSession, type PoolOptions } from '../../src/http/session-registry.js';

type Mode = 'instant' | 'deferred' | 'throw' | 'reject';

/** A session whose shutdown the test controls: instant, deferred until finish(), or failing. */
class FakeSession implements ManagedSession {
  readonly reasons: EndReason[] = [];
  private settle: ((error?: Error) => void) | undefined;

  constructor(
    readonly name: string,
    readonly mode: Mode = 'instant',
  ) {}

  shutdown(reason: EndReason): Promise<void> {
    this.reasons.push(reason);
    if (this.mode === 'throw') throw new Error(`${this.name}: sync boom`);
    if (this.mode === 'reject') return Promise.reject(new Error(`${this.name}: async boom`));
    if (this.mode === 'instant') return Promise.resolve();
    return new Promise((resolve, reject) => {
      this.settle = (error) => (error ? reject(error) : resolve());
    });
  }

  /** True while a deferred shutdown has started and not been finished. */
  get waiting(): boolean {
    return this.settle !== undefined;
  }

  finish(error?: Error): void {
    const settle = this.settle;
    this.settle = undefined;
    settle?.(error);
  }
}

type Pools = 'interactive' | 'ephemeral';
interface Ended {
  id: string;
  session: FakeSession;
  reason: EndReason;
}

const POOLS: Record<Pools, PoolOptions> = {
  interactive: { capacity: 3, recencyFloorMs: 0, idleTtlMs: 60_000 },
  ephemeral: { capacity: 2, recencyFloorMs: 0, idleTtlMs: 5_000 },
};

/** A registry on a manual clock that records onEnd calls and log events. */
function setup(pools: Partial<Record<Pools, Partial<PoolOptions>>> = {}) {
  const clock = { t: 1_000 };
  const ended: Ended[] = [];
  const logs: { event: string; data: Record<string, unknown> }[] = [];
  const registry = new SessionRegistry<FakeSession, Pools>({
    pools: {
      interactive: { ...POOLS.interactive, ...pools.interactive },
      ephemeral: { ...POOLS.ephemeral, ...pools.ephemeral },
    },
    now: () => clock.t,
    onEnd: (id, session, reason) => ended.push({ id, session, reason }),
    log: (event, data) => logs.push({ event, data }),
  });
  const advance = (ms: number): void => {
    clock.t += ms;
  };
  const events = (name: string) => logs.filter((entry) => entry.event === name);
  return { registry, clock, advance, ended, logs, events };
}

/** Lets queued promise callbacks run. */
const flush = () => new Promise<void>((resolve) => setImmediate(resolve));

afterEach(() => {
  vi.useRealTimers();
});

describe('SessionRegistry basics', () => {
  it('puts, gets, peeks and counts per pool', () => {
    const { registry } = setup();
    const a = new FakeSession('a');
    const b = new FakeSession('b');
    expect(registry.put('a', 'interactive', a)).toEqual([]);
    expect(registry.put('b', 'ephemeral', b)).toEqual([]);
    expect(registry.get('a')).toBe(a);
    expect(registry.peek('b')).toBe(b);
    expect(registry.has('a')).toBe(true);
    expect(registry.get('nope')).toBeUndefined();
    expect(registry.peek('nope')).toBeUndefined();
    expect(registry.has('nope')).toBe(false);
    expect([registry.size(), registry.size('interactive'), registry.size('ephemeral')]).toEqual([2, 1, 1]);
    expect(registry.stats()).toEqual({
      interactive: { size: 1, capacity: 3, pinned: 0 },
      ephemeral: { size: 1, capacity: 2, pinned: 0 },
      evictions: 0,
      reaped: 0,
    });
  });

  it('rejects invalid options', () => {
    const ok: PoolOptions = { capacity: 1, recencyFloorMs: 0, idleTtlMs: 1 };
    expect(() => new SessionRegistry({ pools: {} })).toThrow(RangeError);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, capacity: 0 } } })).toThrow(/capacity/);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, capacity: 1.5 } } })).toThrow(/capacity/);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, recencyFloorMs: -1 } } })).toThrow(/recencyFloorMs/);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, idleTtlMs: 0 } } })).toThrow(/idleTtlMs/);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, idleTtlMs: Number.NaN } } })).toThrow(/idleTtlMs/);
    expect(() => new SessionRegistry({ pools: { a: { ...ok, capacity: 2, ceiling: 1 } } })).toThrow(/ceiling/);
    expect(() => new SessionRegistry({ pools: { evictions: ok } })).toThrow(/reserved/);
    expect(() => new SessionRegistry({ pools: { a: ok }, reapIntervalMs: 0 })).toThrow(/reapIntervalMs/);
    const registry = new SessionRegistry<FakeSession>({ pools: { a: ok } });
    expect(() => registry.put('x', 'b', new FakeSession('x'))).toThrow(/unknown pool/);
    expect(registry.size()).toBe(0);
  });

  it('putting the same session again touches it (and moves it between pools) without ending it', () => {
    const { registry, ended, advance } = setup({ interactive: { capacity: 2 } });
    const a = new FakeSession('a');
    registry.put('a', 'interactive', a);
    advance(1);
    registry.put('b', 'interactive', new FakeSession('b'));
    advance(1);
    registry.put('a', 'interactive', a); // a is now the most recent
    expect(registry.put('c', 'interactive', new FakeSession('c'))).toEqual(['b']);
    registry.put('a', 'ephemeral', a);
    expect([registry.size('interactive'), registry.size('ephemeral')]).toEqual([1, 1]);
    expect(ended.map((e) => e.id)).toEqual(['b']);
    expect(a.reasons).toEqual([]);
  });
});

describe('eviction', () => {
  it('evicts the least recently used by last use, where get and pin touch and peek does not', () => {
    const { registry, advance, ended } = setup();
    for (const id of ['a', 'b', 'c']) {
      registry.put(id, 'interactive', new FakeSession(id));
      advance(10);
    }
    registry.get('a');
    advance(10);
    registry.peek('b');
    expect(registry.put('d', 'interactive', new FakeSession('d'))).toEqual(['b']);
    advance(10);
    registry.pin('c')();
    advance(10);
    expect(registry.put('e', 'interactive', new FakeSession('e'))).toEqual(['a']);
    expect(ended).toEqual([
      { id: 'b', session: expect.any(FakeSession), reason: 'evicted' },
      { id: 'a', session: expect.any(FakeSession), reason: 'evicted' },
    ]);
    expect(registry.stats().evictions).toBe(2);
  });

  it('never evicts a pinned session: skips it, or lets the pool exceed capacity (logged)', async () => {
    const { registry, advance, events } = setup({ interactive: { capacity: 2 } });
    const a = new FakeSession('a');
    registry.put('a', 'interactive', a);
    const releaseA = registry.pin('a');
    advance(10);
    registry.put('b', 'interactive', new FakeSession('b'));
    advance(10);
    expect(registry.put('c', 'interactive', new FakeSession('c'))).toEqual(['b']); // a is older but pinned
    const releaseC = registry.pin('c');
    advance(10);
    expect(registry.put('d', 'interactive', new FakeSession('d'))).toEqual([]);
    expect(registry.size('interactive')).toBe(3);
    expect(events('pool-over-capacity')).toEqual([{ event: 'pool-over-capacity', data: { pool: 'interactive', size: 3, capacity: 2 } }]);
    expect(registry.stats().interactive).toEqual({ size: 3, capacity: 2, pinned: 2 });
    // Once released, the next put brings the pool back to capacity, evicting several if needed.
    releaseA();
    advance(10);
    releaseC();
    advance(10);
    expect(registry.put('e', 'interactive', new FakeSession('e'))).toEqual(['d', 'a']);
    expect(registry.size('interactive')).toBe(2);
    await registry.settled();
    expect(a.reasons).toEqual(['evicted']);
  });

  it('never evicts the session being put, even when everything else is pinned', () => {
    const { registry } = setup({ ephemeral: { capacity: 1 } });
    registry.put('a', 'ephemeral', new FakeSession('a'));
    registry.pin('a');
    expect(registry.put('b', 'ephemeral', new FakeSession('b'))).toEqual([]);
    expect(registry.has('a') && registry.has('b')).toBe(true);
  });

  it('refuses a new session at the ceiling (twice the capacity) when nothing may be evicted, and says when to retry', () => {
    const { registry, advance } = setup({ interactive: { capacity: 2, recencyFloorMs: 1_000 } });
    for (const id of ['a', 'b', 'c', 'd']) {
      registry.put(id, 'interactive', new FakeSession(id));
      advance(100);
    }
    registry.pin('a');
    const refused = (() => {
      try {
        registry.put('e', 'interactive', new FakeSession('e'));
      } catch (error) {
        return error;
      }
    })();
    expect(refused).toBeInstanceOf(PoolFullError);
    // a is pinned; b was used 300 ms ago and may go once the 1 000 ms floor has passed.
    expect(refused).toMatchObject({ pool: 'interactive', ceiling: 4, retryAfterMs: 700 });
    expect([registry.size('interactive'), registry.has('e')]).toEqual([4, false]);
    // Putting one already there again is no new session.
    expect(registry.put('d', 'interactive', registry.peek('d')!)).toEqual([]);
    advance(700);
    expect(registry.put('e', 'interactive', new FakeSession('e'))).toEqual(['b']);
    expect(registry.size('interactive')).toBe(4);
  });

  it('admits a session that may yet be refused (trim: false) on room it could make, one at a time, and evicts for it only once it stays', async () => {
    const { registry, advance } = setup({ interactive: { capacity: 1, ceiling: 2, recencyFloorMs: 1_000 } });
    registry.put('a', 'interactive', new FakeSession('a'));
    registry.put('b', 'interactive', new FakeSession('b'));
    advance(1_000); // both may be evicted now: the pool sits at its ceiling
    expect(registry.put('c', 'interactive', new FakeSession('c'), { trim: false })).toEqual([]);
    expect(registry.size('interactive')).toBe(3);
    // A second newcomer meanwhile would count on the same room: refused, so the pool stays within one of its ceiling.
    expect(() => registry.put('d', 'interactive', new FakeSession('d'), { trim: false })).toThrow(PoolFullError);
    // c refused after all: it ends, and nobody was evicted for it; the next one may have the room.
    await registry.delete('c', 'refused');
    expect(registry.has('a') && registry.has('b')).toBe(true);
    expect(registry.put('d', 'interactive', new FakeSession('d'), { trim: false })).toEqual([]);
    // d stays: room is made now, down to the capacity.
    expect(registry.trimFor('d')).toEqual(['a', 'b']);
    expect(registry.size('interactive')).toBe(1);
  });

  it('never evicts a pinned session to stay under the ceiling: with all pinned, no retry time', () => {
    const { registry } = setup({ ephemeral: { capacity: 1, ceiling: 1 } });
    registry.put('a', 'ephemeral', new FakeSession('a'));
    registry.pin('a');
    expect(() => registry.put('b', 'ephemeral', new FakeSession('b'))).toThrow(expect.objectContaining({ retryAfterMs: undefined }));
    expect(registry.has('a')).toBe(true);
  });

  it('respects the recency floor, then evicts once the floor has passed', () => {
    const { registry, advance, events } = setup({ interactive: { capacity: 1, recencyFloorMs: 1_000 } });
    registry.put('a', 'interactive', new FakeSession('a'));
    advance(999);
    expect(registry.put('b', 'interactive', new FakeSession('b'))).toEqual([]);
    expect(events('pool-over-capacity')).toHaveLength(1);
    advance(1); // a is now exactly 1000 ms old: no longer "more recent than the floor"
    expect(registry.put('c', 'interactive', new FakeSession('c'))).toEqual(['a']);
    expect(registry.size('interactive')).toBe(2); // b is only 1 ms old
  });

  it('keeps pools independent', () => {
    const { registry, advance } = setup({ interactive: { capacity: 1 }, ephemeral: { capacity: 1 } });
    registry.put('i1', 'interactive', new FakeSession('i1'));
    advance(1);
    expect(registry.put('e1', 'ephemeral', new FakeSession('e1'))).toEqual([]);
    advance(1);
    expect(registry.put('e2', 'ephemeral', new FakeSession('e2'))).toEqual(['e1']);
    expect(registry.has('i1')).toBe(true);
    expect(registry.put('i2', 'interactive', new FakeSession('i2'))).toEqual(['i1']);
    expect(registry.has('e2')).toBe(true);
  });

  it('does not wait for an eviction’s shutdown, but tracks it', async () => {
    const { registry } = setup({ ephemeral: { capacity: 1 } });
    const a = new FakeSession('a', 'deferred');
    registry.put('a', 'ephemeral', a);
    expect(registry.put('b', 'ephemeral', new FakeSession('b'))).toEqual(['a']);
    expect(a.reasons).toEqual(['evicted']);
    let settled = false;
    void registry.settled().then(() => (settled = true));
    await flush();
    expect(settled).toBe(false);
    a.finish();
    await flush();
    expect(settled).toBe(true);
  });

  it('lets the eviction hook resolve pending elicitations as declined, leaving nothing behind', async () => {
    type Answer = { action: 'accept'; content: string } | { action: 'decline' };
    const pending = new Map<string, ((answer: Answer) => void)[]>();
    const registry = new SessionRegistry<FakeSession, 'p'>({
      pools: { p: { capacity: 1, recencyFloorMs: 0, idleTtlMs: 60_000 } },
      onEnd: (id) => {
        for (const resolve of pending.get(id) ?? []) resolve({ action: 'decline' });
        pending.delete(id);
      },
    });
    registry.put('a', 'p', new FakeSession('a'));
    const answer = new Promise<Answer>((resolve) => pending.set('a', [resolve]));
    registry.put('b', 'p', new FakeSession('b'));
    await expect(answer).resolves.toEqual({ action: 'decline' });
    expect(pending.size).toBe(0);
  });
});

describe('pinning', () => {
  it('counts pins; a release is idempotent', () => {
    const { registry } = setup();
    registry.put('a', 'interactive', new FakeSession('a'));
    const first = registry.pin('a');
    const second = registry.pin('a');
    expect(registry.stats().interactive.pinned).toBe(1); // sessions pinned, not pins
    first();
    first();
    first();
    expect(registry.stats().interactive.pinned).toBe(1); // second is still in flight
    second();
    expect(registry.stats().interactive.pinned).toBe(0);
    second();
    expect(registry.stats().interactive.pinned).toBe(0);
  });

  it('gives a no-op release for an unknown id', () => {
    const { registry } = setup();
    const release = registry.pin('ghost');
    expect(() => release()).not.toThrow();
    expect(registry.has('ghost')).toBe(false);
  });

  it('release touches: the idle TTL counts from the end of the call', () => {
    const { registry, advance } = setup({ ephemeral: { idleTtlMs: 100 } });
    registry.put('a', 'ephemeral', new FakeSession('a'));
    const release = registry.pin('a');
    advance(1_000); // a long call
    expect(registry.reapIdle()).toEqual([]);
    release();
    advance(100);
    expect(registry.reapIdle()).toEqual([]);
    advance(1);
    expect(registry.reapIdle()).toEqual(['a']);
  });

  it('an explicit delete ends a pinned session (its shutdown decides about the call)', async () => {
    const { registry, ended } = setup();
    const a = new FakeSession('a');
    registry.put('a', 'interactive', a);
    const release = registry.pin('a');
    await expect(registry.delete('a')).resolves.toBe(true);
    expect(a.reasons).toEqual(['deleted']);
    expect(ended).toHaveLength(1);
    release(); // late release after the session left: harmless
    expect(registry.stats().interactive.pinned).toBe(0);
  });
});

describe('delete', () => {
  it('removes at once, runs onEnd synchronously, and resolves only when the shutdown has finished', async () => {
    const { registry, ended } = setup();
    const a = new FakeSession('a', 'deferred');
    registry.put('a', 'interactive', a);
    let done: boolean | undefined;
    void registry.delete('a').then((result) => (done = result));
    expect(registry.has('a')).toBe(false);
    expect(registry.get('a')).toBeUndefined();
    expect(ended).toEqual([{ id: 'a', session: a, reason: 'deleted' }]);
    expect(a.reasons).toEqual(['deleted']);
    await expect(registry.delete('a')).resolves.toBe(false); // already shutting down
    await flush();
    expect(done).toBeUndefined();
    a.finish();
    await flush();
    expect(done).toBe(true);
  });

  it('resolves false for an unknown id and passes a custom reason', async () => {
    const { registry, ended } = setup();
    await expect(registry.delete('nope')).resolves.toBe(false);
    const a = new FakeSession('a');
    registry.put('a', 'interactive', a);
    await registry.delete('a', 'shutdown');
    expect(a.reasons).toEqual(['shutdown']);
    expect(ended[0]?.reason).toBe('shutdown');
  });
});

describe('id reuse while the old session is still shutting down', () => {
  it('after delete: the new session is registered and usable, and the old shutdown finishing touches nothing', async () => {
    const { registry, ended } = setup();
    const s1 = new FakeSession('s1', 'deferred');
    const s2 = new FakeSession('s2', 'deferred');
    registry.put('x', 'interactive', s1);
    const deleting = registry.delete('x');
    expect(registry.put('x', 'interactive', s2)).toEqual([]);
    expect(registry.get('x')).toBe(s2);
    const release = registry.pin('x');
    s1.finish();
    await expect(deleting).resolves.toBe(true);
    await registry.settled();
    expect(registry.get('x')).toBe(s2);
    expect(registry.stats().interactive).toEqual({ size: 1, capacity: 3, pinned: 1 });
    expect(ended).toEqual([{ id: 'x', session: s1, reason: 'deleted' }]);
    expect(s2.reasons).toEqual([]);
    release();
  });

  it('after eviction: re-registering the evicted id during its shutdown is safe', async () => {
    const { registry, advance, ended } = setup({ ephemeral: { capacity: 2 } });
    const s1 = new FakeSession('s1', 'deferred');
    registry.put('x', 'ephemeral', s1);
    advance(1);
    registry.put('y', 'ephemeral', new FakeSession('y'));
    advance(1);
    expect(registry.put('z', 'ephemeral', new FakeSession('z'))).toEqual(['x']);
    advance(1);
    const s2 = new FakeSession('s2');
    expect(registry.put('x', 'ephemeral', s2)).toEqual(['y']);
    s1.finish();
    await registry.settled();
    expect(registry.peek('x')).toBe(s2);
    expect(ended.map((e) => [e.id, e.session.name, e.reason])).toEqual([
      ['x', 's1', 'evicted'],
      ['y', 'y', 'evicted'],
    ]);
    expect(s1.reasons).toEqual(['evicted']);
    expect(s2.reasons).toEqual([]);
  });

  it('after idle reaping: the same holds', async () => {
    const { registry, advance, ended } = setup();
    const s1 = new FakeSession('s1', 'deferred');
    registry.put('x', 'ephemeral', s1);
    advance(5_001);
    expect(registry.reapIdle()).toEqual(['x']);
    const s2 = new FakeSession('s2');
    registry.put('x', 'ephemeral', s2);
    s1.finish();
    await registry.settled();
    expect(registry.get('x')).toBe(s2);
    expect(ended).toEqual([{ id: 'x', session: s1, reason: 'idle' }]);
  });

  it('replacing a live session ends the old one as replaced, before the new one is inserted', async () => {
    const seen: (FakeSession | undefined)[] = [];
    const registry: SessionRegistry<FakeSession, 'p'> = new SessionRegistry<FakeSession, 'p'>({
      pools: { p: { capacity: 2, recencyFloorMs: 0, idleTtlMs: 60_000 } },
      onEnd: (id) => seen.push(registry.peek(id)),
    });
    const s1 = new FakeSession('s1', 'deferred');
    const s2 = new FakeSession('s2');
    registry.put('x', 'p', s1);
    const staleRelease = registry.pin('x');
    expect(registry.put('x', 'p', s2)).toEqual([]);
    expect(seen).toEqual([undefined]); // the hook cannot see (and so cannot clean) the new session
    expect(s1.reasons).toEqual(['replaced']);
    expect(registry.size('p')).toBe(1);
    const release = registry.pin('x');
    staleRelease(); // s1's in-flight call ends: must not unpin s2
    expect(registry.stats().p.pinned).toBe(1);
    s1.finish();
    await registry.settled();
    expect(registry.get('x')).toBe(s2);
    release();
    expect(registry.stats().p.pinned).toBe(0);
  });
});

describe('failures', () => {
  it.each(['throw', 'reject'] as const)('a shutdown that %ss is logged and counts as ended', async (mode) => {
    const { registry, events } = setup();
    const bad = new FakeSession('bad', mode);
    registry.put('bad', 'interactive', bad);
    await expect(registry.delete('bad')).resolves.toBe(true);
    expect(events('shutdown-failed')).toEqual([{ event: 'shutdown-failed', data: { id: 'bad', reason: 'deleted', error: expect.stringContaining('boom') } }]);
    // The registry still works, evictions included.
    const broken = new FakeSession('broken', mode);
    registry.put('b', 'ephemeral', broken);
    registry.put('c', 'ephemeral', new FakeSession('c'));
    expect(registry.put('d', 'ephemeral', new FakeSession('d'))).toEqual(['b']);
    await registry.settled();
    expect(events('shutdown-failed')).toHaveLength(2);
    registry.put('e', 'interactive', new FakeSession('e', mode));
    await expect(registry.close()).resolves.toBeUndefined();
  });

  it('an onEnd that throws is logged; the session is still shut down and the registry consistent', async () => {
    const logs: string[] = [];
    const registry = new SessionRegistry<FakeSession, 'p'>({
      pools: { p: { capacity: 1, recencyFloorMs: 0, idleTtlMs: 60_000 } },
      onEnd: () => {
        throw new Error('hook broke');
      },
      log: (event) => logs.push(event),
    });
    const a = new FakeSession('a');
    registry.put('a', 'p', a);
    expect(registry.put('b', 'p', new FakeSession('b'))).toEqual(['a']);
    await registry.settled();
    expect(a.reasons).toEqual(['evicted']);
    expect(logs).toContain('on-end-failed');
    expect([registry.has('a'), registry.has('b')]).toEqual([false, true]);
  });

  it('a logger that throws does not break anything', async () => {
    const registry = new SessionRegistry<FakeSession, 'p'>({
      pools: { p: { capacity: 1, recencyFloorMs: 0, idleTtlMs: 60_000 } },
      log: () => {
        throw new Error('logger broke');
      },
    });
    registry.put('a', 'p', new FakeSession('a', 'reject'));
    expect(registry.put('b', 'p', new FakeSession('b'))).toEqual(['a']);
    await registry.settled();
    expect(registry.has('b')).toBe(true);
  });
});

describe('idle reaping', () => {
  it('reaps unpinned sessions idle for more than their pool’s TTL', async () => {
    const { registry, advance, ended } = setup();
    registry.put('i', 'interactive', new FakeSession('i'));
    registry.put('e1', 'ephemeral', new FakeSession('e1'));
    registry.put('e2', 'ephemeral', new FakeSession('e2'));
    registry.pin('e2');
    advance(5_000);
    expect(registry.reapIdle()).toEqual([]); // exactly the TTL is not more than it
    advance(1);
    expect(registry.reapIdle()).toEqual(['e1']); // e2 is pinned; interactive has a longer TTL
    registry.get('i');
    advance(59_999);
    expect(registry.reapIdle()).toEqual([]);
    advance(2);
    expect(registry.reapIdle()).toEqual(['i']);
    expect(registry.stats().reaped).toBe(2);
    expect(ended.map((e) => e.reason)).toEqual(['idle', 'idle']);
    await registry.settled();
  });

  it('start() runs the reaper on a timer (default: min TTL / 4) that close() stops', async () => {
    vi.useFakeTimers();
    const ended: string[] = [];
    const registry = new SessionRegistry<FakeSession, Pools>({ pools: POOLS, onEnd: (id) => ended.push(id) });
    expect(registry.start()).toBe(registry);
    registry.start(); // idempotent: still one timer
    expect(vi.getTimerCount()).toBe(1);
    registry.put('e', 'ephemeral', new FakeSession('e'));
    registry.put('i', 'interactive', new FakeSession('i'));
    vi.advanceTimersByTime(5_000);
    expect(ended).toEqual([]);
    vi.advanceTimersByTime(1_250); // next tick at 6 250 ms: e is idle for more than 5 000 ms
    expect(ended).toEqual(['e']);
    await registry.close();
    expect(vi.getTimerCount()).toBe(0);
    expect(ended).toEqual(['e', 'i']);
  });

  it('starts no timer when every TTL is infinite', () => {
    vi.useFakeTimers();
    const registry = new SessionRegistry({ pools: { p: { capacity: 1, recencyFloorMs: 0, idleTtlMs: Infinity } } }).start();
    expect(vi.getTimerCount()).toBe(0);
    void registry.close();
  });
});

describe('close', () => {
  it('ends every session as shutdown and awaits in-flight evictions too', async () => {
    const { registry, ended } = setup({ ephemeral: { capacity: 1 } });
    const evicted = new FakeSession('evicted', 'deferred');
    const live = new FakeSession('live', 'deferred');
    registry.put('a', 'ephemeral', evicted);
    registry.put('b', 'ephemeral', new FakeSession('b'));
    registry.put('c', 'interactive', live);
    let closed = false;
    const closing = registry.close().then(() => (closed = true));
    expect(registry.close()).toBe(registry.close()); // idempotent
    expect(registry.size()).toBe(0);
    expect(ended.map((e) => [e.id, e.reason])).toEqual([
      ['a', 'evicted'],
      ['b', 'shutdown'],
      ['c', 'shutdown'],
    ]);
    live.finish();
    await flush();
    expect(closed).toBe(false); // the eviction is still running
    evicted.finish();
    await closing;
    expect(closed).toBe(true);
    expect(() => registry.put('d', 'interactive', new FakeSession('d'))).toThrow(/closed/);
    await expect(registry.delete('c')).resolves.toBe(false);
  });
});

// ---------------------------------------------------------------------------------------------
// Model-based: random operation sequences against a plain model of the intended behaviour.

type Op =
  | { kind: 'put'; id: number; pool: Pools; mode: Mode }
  | { kind: 'get'; id: number }
  | { kind: 'pin'; id: number }
  | { kind: 'unpin'; index: number }
  | { kind: 'delete'; id: number }
  | { kind: 'reap' }
  | { kind: 'advance'; ms: number }
  | { kind: 'finish'; index: number; fail: boolean };

interface ModelEntry {
  id: string;
  session: FakeSession;
  pool: Pools;
  lastUsed: number;
  pins: number;
}

const ID_COUNT = 5;
const opArb: fc.Arbitrary<Op> = fc.oneof(
  {
    arbitrary: fc.record({
      kind: fc.constant('put' as const),
      id: fc.nat(ID_COUNT - 1),
      pool: fc.constantFrom<Pools>('interactive', 'ephemeral'),
      mode: fc.constantFrom<Mode>('instant', 'deferred', 'deferred', 'throw', 'reject'),
    }),
    weight: 5,
  },
  { arbitrary: fc.record({ kind: fc.constant('get' as const), id: fc.nat(ID_COUNT - 1) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('pin' as const), id: fc.nat(ID_COUNT - 1) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('unpin' as const), index: fc.nat(20) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('delete' as const), id: fc.nat(ID_COUNT - 1) }), weight: 2 },
  { arbitrary: fc.record({ kind: fc.constant('reap' as const) }), weight: 1 },
  { arbitrary: fc.record({ kind: fc.constant('advance' as const), ms: fc.integer({ min: 0, max: 3_000 }) }), weight: 3 },
  { arbitrary: fc.record({ kind: fc.constant('finish' as const), index: fc.nat(20), fail: fc.boolean() }), weight: 2 },
);
const poolArb = fc
  .record({
    capacity: fc.integer({ min: 1, max: 3 }),
    recencyFloorMs: fc.integer({ min: 0, max: 2_000 }),
    idleTtlMs: fc.integer({ min: 500, max: 6_000 }),
    aboveCapacity: fc.option(fc.integer({ min: 0, max: 2 }), { nil: undefined }),
  })
  .map(({ aboveCapacity, ...pool }): PoolOptions => (aboveCapacity === undefined ? pool : { ...pool, ceiling: pool.capacity + aboveCapacity }));

describe('SessionRegistry against a model', () => {
  it('matches the model and keeps its invariants over random operation sequences', async () => {
    await fc.assert(
      fc.asyncProperty(fc.record({ interactive: poolArb, ephemeral: poolArb }), fc.array(opArb, { minLength: 5, maxLength: 120, size: 'max' }), async (pools, ops) => {
        let t = 0;
        const ended: Ended[] = [];
        const registry: SessionRegistry<FakeSession, Pools> = new SessionRegistry<FakeSession, Pools>({
          pools,
          now: () => t,
          onEnd: (id, session, reason) => {
            // The hook runs with the session already gone, never for a live one.
            expect(registry.peek(id)).not.toBe(session);
            ended.push({ id, session, reason });
          },
        });
        const model: Record<Pools, ModelEntry[]> = { interactive: [], ephemeral: [] };
        const expectedEnds: Ended[] = [];
        const sessions: FakeSession[] = [];
        const releases: { release: () => void; entry: ModelEntry | undefined; released: boolean }[] = [];
        const deletions: { promise: Promise<boolean>; expected: boolean }[] = [];
        const find = (id: string) => (Object.keys(model) as Pools[]).map((pool) => model[pool].find((e) => e.id === id)).find((e) => e !== undefined);
        const isLive = (entry: ModelEntry) => model[entry.pool].includes(entry);
        const touch = (entry: ModelEntry) => {
          entry.lastUsed = t;
          model[entry.pool].splice(model[entry.pool].indexOf(entry), 1);
          model[entry.pool].push(entry);
        };
        const leave = (entry: ModelEntry, reason: EndReason) => {
          model[entry.pool].splice(model[entry.pool].indexOf(entry), 1);
          expectedEnds.push({ id: entry.id, session: entry.session, reason });
        };
        const evictable = (pool: Pools, keep: ModelEntry | undefined) => model[pool].find((e) => e !== keep && e.pins === 0 && t - e.lastUsed >= pools[pool].recencyFloorMs);

        for (const op of ops) {
          switch (op.kind) {
            case 'put': {
              const id = `s${op.id}`;
              const session = new FakeSession(`${id}#${sessions.length}`, op.mode);
              const old = find(id);
              // At the ceiling, room is made first (the one it replaces keeps its place), or the put is refused.
              const ceiling = pools[op.pool].ceiling ?? 2 * pools[op.pool].capacity;
              const limit = ceiling - 1 + (old?.pool === op.pool ? 1 : 0);
              const expectedEvicted: string[] = [];
              for (let victim = evictable(op.pool, old); model[op.pool].length > limit && victim; victim = evictable(op.pool, old)) {
                leave(victim, 'evicted');
                expectedEvicted.push(victim.id);
              }
              if (model[op.pool].length > limit) {
                expect(() => registry.put(id, op.pool, session)).toThrow(PoolFullError);
                break;
              }
              sessions.push(session);
              if (old) leave(old, 'replaced');
              const entry: ModelEntry = { id, session, pool: op.pool, lastUsed: t, pins: 0 };
              model[op.pool].push(entry);
              for (let victim = evictable(op.pool, entry); model[op.pool].length > pools[op.pool].capacity && victim; victim = evictable(op.pool, entry)) {
                expect(victim.pins).toBe(0);
                leave(victim, 'evicted');
                expectedEvicted.push(victim.id);
              }
              expect(registry.put(id, op.pool, session)).toEqual(expectedEvicted);
              // Over capacity only while nothing but the new session is evictable.
              expect(registry.size(op.pool) <= pools[op.pool].capacity || evictable(op.pool, entry) === undefined).toBe(true);
              expect(registry.size(op.pool)).toBeLessThanOrEqual(ceiling);
              break;
            }
            case 'get': {
              const entry = find(`s${op.id}`);
              if (entry) touch(entry);
              expect(registry.get(`s${op.id}`)).toBe(entry?.session);
              break;
            }
            case 'pin': {
              const entry = find(`s${op.id}`);
              if (entry) {
                entry.pins++;
                touch(entry);
              }
              releases.push({ release: registry.pin(`s${op.id}`), entry, released: false });
              break;
            }
            case 'unpin': {
              const pin = releases[op.index % Math.max(1, releases.length)];
              if (!pin) break;
              if (!pin.released && pin.entry) {
                pin.entry.pins--;
                if (isLive(pin.entry)) touch(pin.entry);
              }
              pin.released = true;
              pin.release();
              break;
            }
            case 'delete': {
              const entry = find(`s${op.id}`);
              if (entry) leave(entry, 'deleted');
              deletions.push({ promise: registry.delete(`s${op.id}`), expected: entry !== undefined });
              expect(registry.get(`s${op.id}`)).toBeUndefined();
              break;
            }
            case 'reap': {
              const expected: string[] = [];
              for (const pool of ['interactive', 'ephemeral'] as const) {
                for (const entry of [...model[pool]]) {
                  if (entry.pins > 0 || t - entry.lastUsed <= pools[pool].idleTtlMs) continue;
                  leave(entry, 'idle');
                  expected.push(entry.id);
                }
              }
              expect(registry.reapIdle()).toEqual(expected);
              break;
            }
            case 'advance':
              t += op.ms;
              break;
            case 'finish': {
              const waiting = sessions.filter((s) => s.waiting);
              waiting[op.index % Math.max(1, waiting.length)]?.finish(op.fail ? new Error('late boom') : undefined);
              await flush();
              break;
            }
          }

          // The registry holds exactly the model's sessions, and onEnd ran exactly as expected.
          expect(ended).toEqual(expectedEnds);
          for (let i = 0; i < ID_COUNT; i++) expect(registry.peek(`s${i}`)).toBe(find(`s${i}`)?.session);
          const stats = registry.stats();
          for (const pool of ['interactive', 'ephemeral'] as const) {
            expect(stats[pool].size).toBe(model[pool].length);
            expect(stats[pool].pinned).toBe(model[pool].filter((e) => e.pins > 0).length);
          }
        }

        // Finish every shutdown and close: each registered session ended exactly once.
        for (const session of sessions) session.finish();
        const live = [...model.interactive, ...model.ephemeral];
        const closing = registry.close();
        for (const session of sessions) session.finish();
        await closing;
        // close() ends the rest in no promised order.
        expect(ended.slice(0, expectedEnds.length)).toEqual(expectedEnds);
        const closedEnds = ended.slice(expectedEnds.length);
        expect(closedEnds).toHaveLength(live.length);
        for (const entry of live) expect(closedEnds).toContainEqual({ id: entry.id, session: entry.session, reason: 'shutdown' });
        for (const session of sessions) {
          const ends = ended.filter((e) => e.session === session);
          expect(ends).toHaveLength(1);
          expect(session.reasons).toEqual([ends[0]!.reason]);
        }
        for (const { promise, expected } of deletions) await expect(promise).resolves.toBe(expected);
      }),
      { numRuns: 200 },
    );
  });
});
