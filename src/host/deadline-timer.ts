/**
 * One timer for every running call's deadline. A setTimeout per call cost a Timeout object,
 * its insertion in Node's timer lists and a clearTimeout, on every call, for a deadline that
 * almost never passes. Here a deadline is a Map entry, and one timer is armed for the
 * earliest. It is left armed when calls end before their deadline (disarming and arming
 * again would cost, for calls one after another, what one timer per call cost): it fires
 * about once per deadline period, finds what is due, and is armed again for the next one.
 * Once its owner is disposed (the host closed), it is released as soon as nothing is due:
 * armed, it would hold the owner, and a closed host's whole journal, until it fired.
 */
import { performance } from 'node:perf_hooks';

/** The longest a timer waits (2^31 - 1 ms, 24.8 days): past it, Node fires at once. A longer deadline is this one. */
export const MAX_TIMER_MS = 2_147_483_647;

export class DeadlineTimer<Item> {
  /** When each item's deadline passes, on the monotonic clock (ms). */
  private readonly due = new Map<Item, number>();
  private timer: ReturnType<typeof setTimeout> | undefined;
  /** When the armed timer fires; +Infinity while none is armed. */
  private armedFor = Number.POSITIVE_INFINITY;
  private disposed = false;

  constructor(
    /** Called once for an item whose deadline passed before it was cleared. */
    private readonly expire: (item: Item) => void,
    /** The monotonic clock: a wall clock set forward must not cut calls short. */
    private readonly now: () => number = () => performance.now(),
  ) {}

  /** How many deadlines are pending. */
  get size(): number {
    return this.due.size;
  }

  /** `item` expires in `ms` (at most MAX_TIMER_MS), unless cleared first. Setting it again replaces its deadline. */
  set(item: Item, ms: number): void {
    const at = this.now() + Math.min(Math.max(ms, 0), MAX_TIMER_MS);
    this.due.set(item, at);
    if (at < this.armedFor) this.arm(at);
  }

  /** The item ended before its deadline. */
  clear(item: Item): void {
    this.due.delete(item);
    if (this.disposed && this.due.size === 0) this.disarm();
  }

  /**
   * The owner is done: the timer is disarmed now if nothing is due, else once the last item
   * is cleared. Deadlines still pending keep their timer: a call still running keeps its own.
   */
  dispose(): void {
    this.disposed = true;
    if (this.due.size === 0) this.disarm();
  }

  private arm(at: number): void {
    this.disarm();
    this.armedFor = at;
    // At least 1 ms: a timer armed for "now" would spin; one that fires a little early
    // (Node reckons from its cached loop time) finds nothing due and is armed again.
    this.timer = setTimeout(() => this.fire(), Math.min(Math.max(at - this.now(), 1), MAX_TIMER_MS));
    this.timer.unref();
  }

  private disarm(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
  }

  private fire(): void {
    this.timer = undefined;
    this.armedFor = Number.POSITIVE_INFINITY;
    const now = this.now();
    const expired: Item[] = [];
    let next = Number.POSITIVE_INFINITY;
    for (const [item, at] of this.due) {
      if (at <= now) expired.push(item);
      else if (at < next) next = at;
    }
    for (const item of expired) this.due.delete(item);
    if (next < Number.POSITIVE_INFINITY) this.arm(next);
    // After re-arming: an expiry that sets or clears deadlines finds the timer consistent.
    for (const item of expired) {
      try {
        this.expire(item);
      } catch (error) {
        // One failing expiry must not keep the others from theirs (as separate timers would not).
        queueMicrotask(() => {
          throw error;
        });
      }
    }
  }
}
