/**
 * A fast-path call's signal stands in for an AbortSignal (call-signal.ts): what reads it must
 * see what an AbortSignal would show, the same reason, listeners called as an EventTarget
 * calls them, and Node's own APIs that take a signal must accept it.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { describe, expect, it, vi } from 'vitest';
import { CallSignal } from '../../src/mcp/fast-path/call-signal.js';

describe('CallSignal', () => {
  it('aborts once, with the reason given, as an AbortController would', () => {
    const signal = new CallSignal();
    const controller = new AbortController();
    expect(signal.aborted).toBe(controller.signal.aborted);
    expect(() => signal.throwIfAborted()).not.toThrow();
    const reason = new Error('Connection closed');
    signal.abort(reason);
    signal.abort(new Error('later'));
    expect(signal.aborted).toBe(true);
    expect(signal.reason).toBe(reason);
    expect(() => signal.throwIfAborted()).toThrow(reason);
  });

  it('without a reason, aborts with the DOMException Node gives', () => {
    const signal = new CallSignal();
    const controller = new AbortController();
    signal.abort(undefined);
    controller.abort(undefined);
    expect(signal.reason).toBeInstanceOf(DOMException);
    expect({ name: (signal.reason as DOMException).name, message: (signal.reason as DOMException).message }).toEqual({
      name: (controller.signal.reason as DOMException).name,
      message: (controller.signal.reason as DOMException).message,
    });
  });

  it('calls its abort listeners once, in order, without duplicates or removed ones, and none added after', () => {
    const signal = new CallSignal();
    const calls: string[] = [];
    const first = (event: Event): void => void calls.push(`first ${event.type}`);
    const removed = (): void => void calls.push('removed');
    const handler = { handleEvent: (): void => void calls.push('handler') };
    signal.addEventListener('abort', first, { once: true });
    signal.addEventListener('abort', first);
    signal.addEventListener('abort', removed);
    signal.addEventListener('other', removed);
    signal.addEventListener('abort', handler);
    signal.removeEventListener('abort', removed);
    signal.abort('why');
    signal.addEventListener('abort', removed);
    signal.abort('again');
    expect(calls).toEqual(['first abort', 'handler']);
  });

  it('a listener that throws stops neither the others nor the abort; its error is thrown on its own', async () => {
    const signal = new CallSignal();
    const after = vi.fn();
    const failure = new Error('listener failed');
    const uncaught = new Promise<unknown>((resolve) => {
      const listeners = process.listeners('uncaughtException');
      process.removeAllListeners('uncaughtException');
      process.once('uncaughtException', (error) => {
        for (const listener of listeners) process.on('uncaughtException', listener);
        resolve(error);
      });
    });
    signal.addEventListener('abort', () => {
      throw failure;
    });
    signal.addEventListener('abort', after);
    expect(() => signal.abort('why')).not.toThrow();
    expect(after).toHaveBeenCalledOnce();
    expect(await uncaught).toBe(failure);
  });

  it("is taken by Node's own APIs that take a signal", async () => {
    const signal = new CallSignal();
    const waiting = delay(60_000, undefined, { signal: signal.asAbortSignal() });
    signal.abort(new Error('cancelled'));
    await expect(waiting).rejects.toMatchObject({ name: 'AbortError' });
  });
});
