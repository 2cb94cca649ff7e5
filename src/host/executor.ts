/**
 * The main-thread executor: runs one call at a time, like an editor's main thread, and is
 * fair across connections: each connection has its own lane and lanes take turns, so one
 * client queueing fifty calls cannot starve another that queued one.
 */
export class MainThreadExecutor<T> {
  private readonly lanes = new Map<string, T[]>();
  /** Lanes with work, in the order they get their next turn. */
  private turnOrder: string[] = [];
  private running = false;
  private paused = false;
  private held = false;

  /**
   * `run` may call `release` before its promise settles: the item no longer holds the main
   * thread (a tool given up past its deadline), and the next one may start.
   */
  constructor(private readonly run: (item: T, release: () => void) => Promise<void>) {}

  get queued(): number {
    let count = 0;
    for (const items of this.lanes.values()) count += items.length;
    return count;
  }

  get busy(): boolean {
    return this.running;
  }

  enqueue(lane: string, item: T): void {
    const items = this.lanes.get(lane);
    if (items) items.push(item);
    else {
      this.lanes.set(lane, [item]);
      this.turnOrder.push(lane);
    }
    this.pump();
  }

  /** Removes a queued item; false when it is not queued (running already, or unknown). */
  remove(item: T): boolean {
    for (const [lane, items] of this.lanes) {
      const index = items.indexOf(item);
      if (index < 0) continue;
      items.splice(index, 1);
      if (items.length === 0) this.dropLane(lane);
      return true;
    }
    return false;
  }

  /** How many queued items run before this one, or -1 when it is not queued. */
  position(item: T): number {
    const queues = this.turnOrder.map((lane) => [...(this.lanes.get(lane) ?? [])]);
    let ahead = 0;
    while (queues.some((q) => q.length > 0)) {
      for (const queue of queues) {
        const next = queue.shift();
        if (next === undefined) continue;
        if (next === item) return ahead;
        ahead++;
      }
    }
    return -1;
  }

  /** The queued items in the order they would run (lanes taking turns), at most `max` of them. */
  inOrder(max = Number.POSITIVE_INFINITY): T[] {
    const queues = this.turnOrder.map((lane) => [...(this.lanes.get(lane) ?? [])]);
    const order: T[] = [];
    while (order.length < max && queues.some((q) => q.length > 0)) {
      for (const queue of queues) {
        const next = queue.shift();
        if (next === undefined) continue;
        order.push(next);
        if (order.length >= max) break;
      }
    }
    return order;
  }

  /** Stops starting new items for good (the running one finishes): the host is going away. */
  pause(): void {
    this.paused = true;
  }

  /** Takes items without starting any until release(). */
  hold(): void {
    this.held = true;
  }

  release(): void {
    if (!this.held) return;
    this.held = false;
    this.pump();
  }

  private dropLane(lane: string): void {
    this.lanes.delete(lane);
    this.turnOrder = this.turnOrder.filter((l) => l !== lane);
  }

  private pump(): void {
    if (this.running || this.paused || this.held) return;
    const lane = this.turnOrder.shift();
    if (lane === undefined) return;
    const items = this.lanes.get(lane) as T[];
    const item = items.shift() as T;
    if (items.length > 0) this.turnOrder.push(lane);
    else this.lanes.delete(lane);
    this.running = true;
    let done = false;
    const next = (): void => {
      if (done) return;
      done = true;
      this.running = false;
      this.pump();
    };
    this.run(item, next).then(next, next);
  }
}
