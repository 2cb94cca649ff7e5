/**
 * A session's event store keeps what a client may resume, and no more: the newest events up
 * to its capacity, none older than the retention. The hostile soak found the old store (a
 * capacity only) holding 180 MB with 500 busy sessions after an hour.
 */
import { describe, expect, it } from 'vitest';
import { SessionEventStore } from '../../src/http/event-store.js';

const message = (id: number) => ({ jsonrpc: '2.0' as const, id, result: { content: [] } });

function storeOnClock(capacity = 200, retainMs = 1_000) {
  const clock = { now: 0 };
  return { clock, store: new SessionEventStore(capacity, retainMs, () => clock.now) };
}

async function replayed(store: SessionEventStore, after: string): Promise<string[]> {
  const sent: string[] = [];
  await store.replayEventsAfter(after, { send: async (id) => void sent.push(id) });
  return sent;
}

describe('SessionEventStore', () => {
  it('replays the events of the same stream after the one named', async () => {
    const { store } = storeOnClock();
    const first = await store.storeEvent('a', message(1));
    await store.storeEvent('b', message(2));
    const third = await store.storeEvent('a', message(3));
    expect(await replayed(store, first)).toEqual([third]);
    expect(await store.getStreamIdForEventId(third)).toBe('a');
  });

  it('forgets events older than the retention, at the next event and when asked', async () => {
    const { clock, store } = storeOnClock(200, 1_000);
    const old = await store.storeEvent('a', message(1));
    clock.now = 600;
    const recent = await store.storeEvent('a', message(2));
    clock.now = 1_001; // the first is past the retention, the second not yet
    const newest = await store.storeEvent('a', message(3));
    expect(store.size).toBe(2);
    await expect(replayed(store, old)).rejects.toThrow(/no longer kept; initialize a new session/);
    expect(await replayed(store, recent)).toEqual([newest]);
    // A session that falls asleep gets no more events: prune() alone lets them go.
    clock.now = 1_601;
    store.prune();
    expect(store.size).toBe(1);
    expect(await store.getStreamIdForEventId(recent)).toBeUndefined();
  });

  it('keeps no more than its capacity, the newest', async () => {
    const { store } = storeOnClock(3, 60_000);
    const ids: string[] = [];
    for (let i = 0; i < 5; i++) ids.push(await store.storeEvent('a', message(i)));
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(ids[1]!)).toBeUndefined();
    expect(await replayed(store, ids[2]!)).toEqual(ids.slice(3));
  });

  // A call without a progress token has one event with an id until its answer: its stream's
  // priming event (the SDK stores it as {}). Expired with the rest, a stream that dropped in the
  // third minute of a build could never be resumed, and its result was lost.
  it('keeps the newest event of a stream still waiting for its answer past the retention and the capacity, until the answer', async () => {
    const { clock, store } = storeOnClock(3, 1_000);
    const priming = await store.storeEvent('build', {} as never);
    for (let i = 0; i < 5; i++) await store.storeEvent('other', message(i));
    clock.now = 125_000;
    store.prune();
    expect(await store.getStreamIdForEventId(priming)).toBe('build');
    expect(store.size).toBe(1);

    // The client resumes from it: what came after on the stream is replayed, and the answer, once it comes.
    const answer = await store.storeEvent('build', message(9));
    expect(await replayed(store, priming)).toEqual([answer]);
    // Answered, the stream is like any other: its events expire.
    clock.now = 127_000;
    store.prune();
    expect(store.size).toBe(0);
    await expect(replayed(store, priming)).rejects.toThrow(/no longer kept/);
  });

  it('holds only the newest event of a waiting stream: a newer one (progress) lets the older go', async () => {
    const { clock, store } = storeOnClock(200, 1_000);
    const priming = await store.storeEvent('build', {} as never);
    clock.now = 2_000;
    const progress = await store.storeEvent('build', { jsonrpc: '2.0', method: 'notifications/progress', params: { progressToken: 1, progress: 1 } });
    clock.now = 5_000;
    store.prune();
    expect(await store.getStreamIdForEventId(priming)).toBeUndefined();
    expect(await store.getStreamIdForEventId(progress)).toBe('build');
    expect(store.size).toBe(1);
  });

  // The SDK sends no answer for a request its client cancelled: such a stream waits for ever,
  // and a store holding one event for each would grow without bound.
  it('holds for no more streams than its capacity, the newest', async () => {
    const { clock, store } = storeOnClock(3, 1_000);
    const primings: string[] = [];
    for (let i = 0; i < 50; i++) primings.push(await store.storeEvent(`cancelled-${i}`, {} as never));
    clock.now = 10_000;
    store.prune();
    expect(store.size).toBe(3);
    expect(await store.getStreamIdForEventId(primings[49]!)).toBe('cancelled-49');
    expect(await store.getStreamIdForEventId(primings[0]!)).toBeUndefined();
  });

  it('keeps nothing while muted, and numbers on', async () => {
    const { store } = storeOnClock();
    store.muted = true;
    const muted = await store.storeEvent('a', message(1));
    store.muted = false;
    const kept = await store.storeEvent('a', message(2));
    expect(store.size).toBe(1);
    expect(muted).not.toBe(kept);
  });
});
