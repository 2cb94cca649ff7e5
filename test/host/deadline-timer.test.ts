/**
 * The one timer for every running call's deadline (src/host/deadline-timer.ts), on fake
 * timers and a clock the test moves, and through a real host: a call past its deadline is
 * cancelled while one beside it, with a later deadline, finishes.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { DeadlineTimer, MAX_TIMER_MS } from '../../src/host/deadline-timer.js';
import { Host } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS } from '../../src/protocol/index.js';
import { collected } from '../helpers/garbage.js';

afterEach(() => {
  // The spies first: restored after, they would put the fake setTimeout back.
  vi.restoreAllMocks();
  vi.useRealTimers();
});

/** A timer on fake timers, reading the fake clock, and the items it expired in order. */
function fakeTimer(): { timer: DeadlineTimer<string>; expired: string[]; armed: () => number } {
  vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
  const armed = vi.spyOn(globalThis, 'setTimeout');
  const expired: string[] = [];
  const timer = new DeadlineTimer<string>(
    (item) => expired.push(item),
    () => Date.now(),
  );
  return { timer, expired, armed: () => armed.mock.calls.length };
}

describe('DeadlineTimer', () => {
  it('expires each item once, at its deadline, in deadline order; a cleared one never', () => {
    const { timer, expired } = fakeTimer();
    timer.set('late', 300);
    timer.set('early', 100);
    timer.set('cleared', 200);
    timer.clear('cleared');
    vi.advanceTimersByTime(99);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(1);
    expect(expired).toEqual(['early']);
    vi.advanceTimersByTime(1_000);
    expect(expired).toEqual(['early', 'late']);
    expect(timer.size).toBe(0);
  });

  it('arms one timer for calls one after another, and again only for an earlier deadline', () => {
    const { timer, expired, armed } = fakeTimer();
    for (let i = 0; i < 100; i++) {
      timer.set(`call-${i}`, 60_000);
      vi.advanceTimersByTime(1);
      timer.clear(`call-${i}`);
    }
    expect(armed()).toBe(1);
    timer.set('sooner', 10);
    expect(armed()).toBe(2);
    vi.advanceTimersByTime(10);
    expect(expired).toEqual(['sooner']);
  });

  it('re-arms for the next deadline after firing, and finds nothing due when it fires early', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout'] });
    let now = 0;
    const expired: string[] = [];
    const timer = new DeadlineTimer<string>(
      (item) => expired.push(item),
      () => now,
    );
    timer.set('a', 100);
    timer.set('b', 250);
    // The timer fires, but the clock says 'a' is 5 ms away (Node reckons from a cached loop time).
    now = 95;
    vi.advanceTimersByTime(100);
    expect(expired).toEqual([]);
    now = 100;
    vi.advanceTimersByTime(5);
    expect(expired).toEqual(['a']);
    now = 250;
    vi.advanceTimersByTime(150);
    expect(expired).toEqual(['a', 'b']);
  });

  it('takes a deadline longer than a timer can wait as the longest one, not as an instant', () => {
    const { timer, expired } = fakeTimer();
    timer.set('long', 2 ** 31);
    vi.advanceTimersByTime(60_000);
    expect(expired).toEqual([]);
    vi.advanceTimersByTime(MAX_TIMER_MS);
    expect(expired).toEqual(['long']);
  });

  it('once disposed, lets go of its timer when nothing is due, and keeps it for a deadline still pending', () => {
    const { timer, expired } = fakeTimer();
    timer.set('ended', 60_000);
    timer.clear('ended');
    // Left armed while its owner serves (see the second case)...
    expect(vi.getTimerCount()).toBe(1);
    timer.set('running', 100);
    timer.dispose();
    // ...but a deadline still pending keeps it after dispose, and is still enforced.
    expect(vi.getTimerCount()).toBe(1);
    vi.advanceTimersByTime(100);
    expect(expired).toEqual(['running']);
    timer.set('last', 200);
    timer.clear('last');
    expect(vi.getTimerCount()).toBe(0);
    const idle = new DeadlineTimer<string>(() => undefined);
    idle.set('ended', 60_000);
    idle.clear('ended');
    idle.dispose();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('an expiry that throws keeps none of the others from theirs', () => {
    const { timer, expired } = fakeTimer();
    const thrown: unknown[] = [];
    vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((task) => {
      try {
        task();
      } catch (error) {
        thrown.push(error);
      }
    });
    const throwing = new DeadlineTimer<string>(
      (item) => {
        if (item === 'bad') throw new Error('expiry failed');
        expired.push(item);
      },
      () => Date.now(),
    );
    throwing.set('bad', 10);
    throwing.set('good', 10);
    timer.set('other', 10);
    vi.advanceTimersByTime(10);
    expect(expired.sort()).toEqual(['good', 'other']);
    expect(thrown).toEqual([new Error('expiry failed')]);
  });
});

describe('deadlines through a host', () => {
  it('lets go of a closed host: no timer armed by its calls or its connections holds it, or its journal', async () => {
    // A call arms the deadline timer for the default deadline (10 minutes) and leaves it armed
    // when it ends. Armed past the close, it held the host and its journal that long: a
    // sandbox editor reloading every minute or so kept ten old hosts, each with its finished
    // calls. The socket a closing host ends arms a timer to destroy it should it linger (2 s),
    // which held the host too until it ran, even once the socket had closed.
    const released = await (async () => {
      const home = mkdtempSync(join(tmpdir(), 'tether-deadline-'));
      const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
      host.tool({ name: 'echo', description: 'Answers at once', annotations: { readOnlyHint: true }, handler: () => 'pong' });
      await host.start();
      const { rpc } = await connectToHost({ port: host.port as number, token: host.token });
      await rpc.request(METHODS.callStart, { callId: 'c-1', tool: 'echo' });
      // The host closes first, so that it is the one ending the connection, as on a reload.
      await host.close();
      rpc.close();
      return new WeakRef(host);
    })();
    expect(await collected(released)).toBe(true);
  });

  it('cancels a call past its deadline with DEADLINE_EXCEEDED, while a call beside it with a later one finishes', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-deadline-'));
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
    const waits = (ms: number) => (_args: unknown, ctx: { signal: AbortSignal }) =>
      new Promise<string>((resolve, reject) => {
        const timer = setTimeout(() => resolve('done'), ms);
        ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
      });
    host.tool({ name: 'forever', description: 'Waits for its signal', execution: { mainThread: false }, handler: waits(60_000) });
    host.tool({ name: 'brief', description: 'Works for 200 ms', execution: { mainThread: false }, handler: waits(200) });
    await host.start();
    const { rpc } = await connectToHost({ port: host.port as number, token: host.token });
    try {
      const started = Date.now();
      const [cut, finished] = await Promise.allSettled([
        rpc.request(METHODS.callStart, { callId: 'cut', tool: 'forever', deadlineMs: 50 }),
        rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'fine', tool: 'brief', deadlineMs: 30_000 }),
      ]);
      expect(cut).toMatchObject({ status: 'rejected', reason: { code: 'DEADLINE_EXCEEDED' } });
      expect(finished).toMatchObject({ status: 'fulfilled', value: { result: { content: [{ text: 'done' }] } } });
      expect(Date.now() - started).toBeLessThan(20_000);
    } finally {
      rpc.close();
      await host.close();
    }
  });
});
