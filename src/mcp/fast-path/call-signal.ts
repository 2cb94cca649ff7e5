/**
 * The abort signal of a fast-path call: what the SDK's AbortController gives each request it
 * runs, without Node's AbortSignal. On Node 20, building one AbortSignal costs ~15k
 * instructions (~4 µs): each is an EventTarget given AbortSignal's prototype after it was
 * built, so each has a hidden class of its own, and every property it gets and every listener
 * added to it takes V8's slow paths. A call that is never cancelled, almost every call, paid
 * that for nothing.
 *
 * What reads a call's signal (the host call, the link's waits, the connection's request, the
 * result splicer, Node's own timers) uses only what is here: `aborted`, `reason`,
 * `throwIfAborted`, and `abort` listeners added and removed, `once` or not. It is not an
 * AbortSignal (`instanceof` and AbortSignal.any would not take it); the fast path's signal goes
 * nowhere that needs one.
 */

type AbortEventListener = ((event: Event) => void) | { handleEvent(event: Event): void };

export class CallSignal {
  aborted = false;
  reason: unknown = undefined;
  onabort: ((event: Event) => void) | null = null;
  /**
   * In the order they were added, as an EventTarget calls them; none until one is added.
   * `once` needs no keeping: a signal aborts once, and lets every listener go then.
   */
  private listeners: AbortEventListener[] | undefined;

  throwIfAborted(): void {
    if (this.aborted) throw this.reason;
  }

  /** `options` (once, …) change nothing: every listener is let go at the abort anyway. */
  addEventListener(type: string, listener: AbortEventListener | null, _options?: boolean | { once?: boolean }): void {
    if (type !== 'abort' || !listener || this.aborted) return;
    const listeners = (this.listeners ??= []);
    // As an EventTarget: the same listener added twice is one listener.
    if (!listeners.includes(listener)) listeners.push(listener);
  }

  removeEventListener(type: string, listener: AbortEventListener | null): void {
    const at = type === 'abort' && this.listeners && listener ? this.listeners.indexOf(listener) : -1;
    if (at >= 0) this.listeners?.splice(at, 1);
  }

  /**
   * Aborts once, as AbortController.abort: no reason is the same DOMException as Node's, and a
   * listener that throws stops neither the others nor the caller (its error is rethrown on its own).
   */
  abort(reason: unknown): void {
    if (this.aborted) return;
    this.aborted = true;
    this.reason = reason === undefined ? new DOMException('This operation was aborted', 'AbortError') : reason;
    const handlers = [...(this.onabort ? [this.onabort] : []), ...(this.listeners ?? [])];
    this.listeners = undefined;
    const event = new Event('abort');
    for (const handler of handlers) {
      try {
        if (typeof handler === 'function') handler.call(this, event);
        else handler.handleEvent(event);
      } catch (error) {
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }

  /** What the call's context carries (typed as the SDK's context wants it). */
  asAbortSignal(): AbortSignal {
    return this as unknown as AbortSignal;
  }
}
