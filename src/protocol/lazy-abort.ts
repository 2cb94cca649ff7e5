/**
 * An abort that builds its AbortSignal only when someone asks for it.
 *
 * Every request a peer sends, and every call a host runs, can be abandoned; almost none is.
 * An AbortController and its signal cost microseconds to build, listen to and unlisten from,
 * which a host answering thousands of quick calls pays on each. Here a listener is an array
 * entry, and the signal exists only for code that wants a real one (a tool that watches its
 * signal). An array, not a Set: nearly every abort has one listener, added and removed once
 * per request, and a Set cost a hash table to build and, emptied, a smaller one to shrink into.
 */
import type { TetherError } from './errors.js';

export type AbortListener = (reason: TetherError) => void;

/** What a listener needs of an abort: the reason once it happened, and a way to hear it. */
export interface Abortable {
  readonly reason: TetherError | undefined;
  /** Calls `listener` once when aborted (at once if it already was). */
  onAbort(listener: AbortListener): void;
  offAbort(listener: AbortListener): void;
}

export class LazyAbort implements Abortable {
  private controller: AbortController | undefined;
  /** In the order added, each once (as a Set would keep them). */
  private listeners: AbortListener[] | undefined;
  private abortedWith: TetherError | undefined;

  /** Why it was aborted, once it has been. */
  get reason(): TetherError | undefined {
    return this.abortedWith;
  }

  get signal(): AbortSignal {
    if (!this.controller) {
      this.controller = new AbortController();
      if (this.abortedWith) this.controller.abort(this.abortedWith);
    }
    return this.controller.signal;
  }

  onAbort(listener: AbortListener): void {
    const { listeners } = this;
    if (this.abortedWith) listener(this.abortedWith);
    else if (!listeners) this.listeners = [listener];
    else if (!listeners.includes(listener)) listeners.push(listener);
  }

  offAbort(listener: AbortListener): void {
    const { listeners } = this;
    if (!listeners) return;
    if (listeners.length === 1 && listeners[0] === listener) this.listeners = undefined;
    else {
      const at = listeners.indexOf(listener);
      if (at >= 0) listeners.splice(at, 1);
    }
  }

  /**
   * Aborts once; later calls keep the first reason. As with an AbortSignal, a listener that
   * throws stops neither the others nor the caller (a connection closing aborts every request
   * it runs): its error is rethrown on its own, as an uncaught exception.
   */
  abort(reason: TetherError): void {
    if (this.abortedWith) return;
    this.abortedWith = reason;
    const listeners = this.listeners;
    this.listeners = undefined;
    this.controller?.abort(reason);
    if (!listeners) return;
    for (const listener of listeners) {
      try {
        listener(reason);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
