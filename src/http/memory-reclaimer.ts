/**
 * Gives the memory of sessions that fell asleep or ended back to the OS.
 *
 * A session's SDK server and transport live long enough to reach V8's old generation. When
 * the session sleeps or ends they become garbage there, but a server that is mostly idle
 * allocates too little for V8 to start a major collection, so for a long time the process
 * keeps that memory (measured on 1,000 sleeping sessions: ~31 KiB of RSS each uncollected,
 * ~8 KiB once collected). Once `threshold` sessions have been released, at a sweep with no
 * tool call in flight, the reclaimer runs one full collection; after it, it waits `pace`
 * times as long as that collection took, so it never takes more than 1/pace of a CPU.
 */
import { getHeapStatistics, setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

export interface ReclaimerOptions {
  /** Sessions released before a collection is worth its pause. */
  threshold: number;
  /** After a collection of d ms, the next waits at least pace × d ms. */
  pace: number;
  /** True while work is in flight that a pause would delay. */
  busy(): boolean;
  /** Finds the full collection to run, once (default: V8's, see fullCollection); undefined: none. */
  collector?: () => (() => void) | undefined;
  /** Milliseconds, monotonic. */
  now(): number;
  onCollected?(report: { sessions: number; ms: number; freedBytes: number }): void;
  /** No full collection could be had: the reclaimer stays idle from then on. */
  onUnavailable?(): void;
}

export class MemoryReclaimer {
  private released = 0;
  private notBefore = 0;
  /** Not looked up yet (undefined), unavailable (null), or the collection to run. */
  private collect: (() => void) | null | undefined;

  constructor(private readonly options: ReclaimerOptions) {}

  /** `count` sessions slept or ended: what they held is garbage now. */
  release(count = 1): void {
    this.released += count;
  }

  /** Collects if enough was released, nothing is in flight and the pace allows; says whether it did. */
  maybeCollect(): boolean {
    const { options } = this;
    if (this.collect === null || this.released < options.threshold || options.now() < this.notBefore || options.busy()) return false;
    if (this.collect === undefined) {
      this.collect = (options.collector ?? fullCollection)() ?? null;
      if (this.collect === null) {
        options.onUnavailable?.();
        return false;
      }
    }
    const heapBefore = getHeapStatistics().used_heap_size;
    const started = options.now();
    this.collect();
    const ended = options.now();
    this.notBefore = ended + (ended - started) * options.pace;
    const sessions = this.released;
    this.released = 0;
    options.onCollected?.({ sessions, ms: ended - started, freedBytes: heapBefore - getHeapStatistics().used_heap_size });
    return true;
  }
}

/**
 * V8's full garbage collection, also in a process not started with --expose-gc; undefined if
 * this runtime will not give one (the server then simply keeps the memory, as before).
 */
export function fullCollection(): (() => void) | undefined {
  const exposed = (globalThis as { gc?: unknown }).gc;
  if (typeof exposed === 'function') return exposed as () => void;
  // The flag only decides whether contexts created while it is on get a gc() function: create
  // one, keep its gc, and turn the flag off again (jest's leak detector does the same).
  try {
    setFlagsFromString('--expose-gc');
    const gc: unknown = runInNewContext('typeof gc === "function" ? gc : undefined');
    return typeof gc === 'function' ? (gc as () => void) : undefined;
  } catch {
    return undefined;
  } finally {
    setFlagsFromString('--no-expose-gc');
  }
}
