import { describe, expect, it, vi } from 'vitest';
import { TetherError } from '../../src/protocol/errors.js';
import { LazyAbort } from '../../src/protocol/lazy-abort.js';

const cancelled = (message = 'stop'): TetherError => new TetherError('CANCELLED', message);

describe('LazyAbort', () => {
  it('tells each listener once, with the first reason, and keeps that reason', () => {
    const abort = new LazyAbort();
    const heard: string[] = [];
    abort.onAbort((reason) => heard.push(`a:${reason.message}`));
    abort.onAbort((reason) => heard.push(`b:${reason.message}`));
    expect(abort.reason).toBeUndefined();
    const first = cancelled('first');
    abort.abort(first);
    abort.abort(cancelled('second'));
    expect(heard).toEqual(['a:first', 'b:first']);
    expect(abort.reason).toBe(first);
  });

  it('calls a listener added after the abort at once, and never one that was removed', () => {
    const abort = new LazyAbort();
    const removed: unknown[] = [];
    const listener = (reason: TetherError): void => void removed.push(reason);
    abort.onAbort(listener);
    abort.offAbort(listener);
    abort.abort(cancelled());
    expect(removed).toEqual([]);
    const late: TetherError[] = [];
    abort.onAbort((reason) => late.push(reason));
    expect(late).toEqual([abort.reason]);
  });

  it('builds one signal, only when asked; a signal built after the abort is already aborted', () => {
    const before = new LazyAbort();
    const signal = before.signal;
    expect(before.signal).toBe(signal);
    expect(signal.aborted).toBe(false);
    const reason = cancelled();
    before.abort(reason);
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);

    const after = new LazyAbort();
    after.abort(reason);
    expect(after.signal.aborted).toBe(true);
    expect(after.signal.reason).toBe(reason);
  });

  it('runs every listener even when one throws, and rethrows that error on its own', () => {
    const rethrown: Array<() => void> = [];
    const spy = vi.spyOn(globalThis, 'queueMicrotask').mockImplementation((callback) => void rethrown.push(callback));
    try {
      const abort = new LazyAbort();
      const heard: string[] = [];
      abort.onAbort(() => heard.push('first'));
      abort.onAbort(() => {
        throw new Error('faulty listener');
      });
      abort.onAbort(() => heard.push('third'));
      expect(() => abort.abort(cancelled())).not.toThrow();
      expect(heard).toEqual(['first', 'third']);
      expect(rethrown).toHaveLength(1);
      expect(() => rethrown[0]!()).toThrow('faulty listener');
    } finally {
      spy.mockRestore();
    }
  });
});
