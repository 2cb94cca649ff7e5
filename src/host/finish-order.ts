/**
 * Finished calls, oldest first: the journal's queue of what expires (and, for read-only
 * calls, of what the memory budget evicts) first. An array and a head index: taking the
 * oldest moves the index instead of every item (Array.prototype.shift is O(n)), releases what
 * it hands out at once, and drops the spent front once it is most of the array (amortized
 * O(1) an item). Calls finish in time order, so a new one goes at the end; one that finished
 * earlier by the clock (a clock set back) goes before those that finished later, so that
 * nothing older waits behind it.
 */
export interface Finished {
  callId: string;
  finishedAt: number;
}

export class FinishOrder<T extends Finished> {
  private items: Array<T | undefined> = [];
  private head = 0;

  /** How many are queued. */
  get length(): number {
    return this.items.length - this.head;
  }

  /** Queues `item` in finish order. */
  push(item: T): void {
    let at = this.items.length;
    while (at > this.head && (this.items[at - 1] as T).finishedAt > item.finishedAt) at--;
    if (at === this.items.length) this.items.push(item);
    else this.items.splice(at, 0, item);
  }

  /** The oldest, left in the queue. */
  peek(): T | undefined {
    return this.items[this.head];
  }

  /** Takes the oldest out. */
  shift(): T | undefined {
    if (this.head >= this.items.length) return undefined;
    const item = this.items[this.head];
    this.items[this.head++] = undefined;
    if (this.head > 1_024 && this.head * 2 > this.items.length) {
      this.items = this.items.slice(this.head);
      this.head = 0;
    }
    return item;
  }
}
