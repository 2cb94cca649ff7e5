/**
 * What a link keeps per callId while calls run. Most callIds have one entry; requests with the
 * same idempotency key share their callId, so a few have more, each added and removed on its
 * own.
 */
export class PerCall<T> {
  private readonly entries = new Map<string, T[]>();

  add(callId: string, value: T): void {
    const present = this.entries.get(callId);
    if (present) present.push(value);
    else this.entries.set(callId, [value]);
  }

  /** Removes this one value (not one equal to it that another request added). */
  remove(callId: string, value: T): void {
    const present = this.entries.get(callId);
    const at = present ? present.indexOf(value) : -1;
    if (at < 0) return;
    if (present!.length === 1) this.entries.delete(callId);
    else present!.splice(at, 1);
  }

  /** The callId's values, oldest first; empty when it has none. */
  get(callId: string): readonly T[] {
    return this.entries.get(callId) ?? NONE;
  }
}

const NONE: readonly never[] = [];
