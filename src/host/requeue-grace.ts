/**
 * After a restart or a reload, the calls queued before it wait for their requesters
 * (protocol.md §8.5): a client that cancelled while the host was away sends its calls/cancel
 * once it reconnects, and it must find the call still queued. Nothing starts until a requester
 * of each is back (a calls/start with its callId), or the grace has passed.
 */
export class RequeueGrace<Call> {
  /** Requeued calls whose requesters have not come back yet. */
  private readonly awaiting = new Set<Call>();
  /** Requeued calls that would not have waited for the main thread: started when the grace ends. */
  private offThread: Call[] = [];
  private timer: ReturnType<typeof setTimeout> | undefined;
  private onEnd: ((offThread: Call[], unclaimed: Call[]) => void) | undefined;

  /**
   * Holds `calls` for at most `graceMs`; `onEnd` gets the off-thread calls held meanwhile, and
   * the calls none of whose requesters came back.
   */
  begin(calls: Iterable<Call>, graceMs: number, onEnd: (offThread: Call[], unclaimed: Call[]) => void): void {
    for (const call of calls) this.awaiting.add(call);
    this.onEnd = onEnd;
    this.timer = setTimeout(() => this.end(), graceMs);
    this.timer.unref();
  }

  /** True while this requeued call still waits for its requesters. */
  isHolding(call: Call): boolean {
    return this.awaiting.has(call);
  }

  /** Keeps an off-thread call (one isHolding) until the grace ends. */
  holdOffThread(call: Call): void {
    this.offThread.push(call);
  }

  /** Takes a held off-thread call out (it was cancelled); false when it was not held. */
  releaseOffThread(call: Call): boolean {
    const before = this.offThread.length;
    this.offThread = this.offThread.filter((held) => held !== call);
    return this.offThread.length < before;
  }

  /** A requester of a requeued call is back (or the call ended): the last one back ends the grace. */
  requesterBack(call: Call | undefined): void {
    if (call === undefined || !this.awaiting.delete(call)) return;
    if (this.awaiting.size === 0) this.end();
  }

  /** Stops the timer (the host is going away); the calls stay held. */
  dispose(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }

  /** The requeued calls may run: their requesters are back (or had their chance). */
  private end(): void {
    this.dispose();
    const unclaimed = [...this.awaiting];
    this.awaiting.clear();
    const offThread = this.offThread;
    this.offThread = [];
    this.onEnd?.(offThread, unclaimed);
  }
}
