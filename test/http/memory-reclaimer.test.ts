import { runInNewContext } from 'node:vm';
import { describe, expect, it } from 'vitest';
import { MemoryReclaimer, fullCollection } from '../../src/http/memory-reclaimer.js';

/** A reclaimer on a hand-driven clock whose collection takes `collectMs`. */
function reclaimer(options: { threshold?: number; pace?: number; collectMs?: number } = {}) {
  const state = { now: 0, busy: false, collections: 0, reports: [] as Array<{ sessions: number; ms: number }> };
  const subject = new MemoryReclaimer({
    threshold: options.threshold ?? 3,
    pace: options.pace ?? 10,
    busy: () => state.busy,
    now: () => state.now,
    collector: () => () => {
      state.collections++;
      state.now += options.collectMs ?? 20;
    },
    onCollected: ({ sessions, ms }) => void state.reports.push({ sessions, ms }),
  });
  return { subject, state };
}

describe('MemoryReclaimer', () => {
  it('collects once enough sessions were released, and reports how many and how long', () => {
    const { subject, state } = reclaimer({ threshold: 3 });
    subject.release(2);
    expect(subject.maybeCollect()).toBe(false);
    subject.release();
    expect(subject.maybeCollect()).toBe(true);
    expect(state.reports).toEqual([{ sessions: 3, ms: 20 }]);
    // What was collected is not counted again.
    state.now += 10_000;
    expect(subject.maybeCollect()).toBe(false);
    expect(state.collections).toBe(1);
  });

  it('waits while work is in flight, and collects at the first quiet chance', () => {
    const { subject, state } = reclaimer();
    subject.release(5);
    state.busy = true;
    expect(subject.maybeCollect()).toBe(false);
    state.busy = false;
    expect(subject.maybeCollect()).toBe(true);
    expect(state.reports).toEqual([{ sessions: 5, ms: 20 }]);
  });

  it('after a collection of d ms waits pace × d ms before the next', () => {
    const { subject, state } = reclaimer({ pace: 10, collectMs: 20 });
    subject.release(3);
    subject.maybeCollect();
    subject.release(3);
    state.now += 199;
    expect(subject.maybeCollect()).toBe(false);
    state.now += 1;
    expect(subject.maybeCollect()).toBe(true);
    expect(state.collections).toBe(2);
  });
});

describe('MemoryReclaimer without a full collection', () => {
  it('says so once and stays idle, never throwing into the sweep', () => {
    let lookups = 0;
    let told = 0;
    const subject = new MemoryReclaimer({
      threshold: 1,
      pace: 10,
      busy: () => false,
      now: () => 0,
      collector: () => void lookups++,
      onUnavailable: () => void told++,
    });
    subject.release(5);
    expect(subject.maybeCollect()).toBe(false);
    subject.release(5);
    expect(subject.maybeCollect()).toBe(false);
    expect({ lookups, told }).toEqual({ lookups: 1, told: 1 });
  });
});

describe('fullCollection', () => {
  it('collects garbage in a process started without --expose-gc, and leaves gc() off for later contexts', async () => {
    const ref = (() => new WeakRef({ big: new Array(1000).fill('x') }))();
    // A WeakRef's target lives at least until the current job ends.
    await new Promise((resolve) => setImmediate(resolve));
    fullCollection()!();
    expect(ref.deref()).toBeUndefined();
    expect(runInNewContext('typeof gc')).toBe('undefined');
  });
});
