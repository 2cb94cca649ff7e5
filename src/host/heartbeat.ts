/**
 * One ticker for every live call: a call hears a heartbeat when nothing was sent for it for
 * about heartbeatMs. It runs on the event loop, never waiting for the main thread, so a build
 * that blocks the editor for an hour still says "alive" every few seconds. It ticks five
 * times per interval, and only while some call is live.
 */
export class HeartbeatTicker<Call extends { lastSentAt: number }> {
  private timer: ReturnType<typeof setInterval> | undefined;

  constructor(
    private readonly heartbeatMs: number,
    /** The calls queued or running. */
    private readonly live: () => Iterable<Call>,
    private readonly beat: (call: Call) => void,
  ) {}

  /** Starts ticking, if it is not already. */
  ensure(): void {
    if (this.timer) return;
    const tick = Math.max(20, Math.floor(this.heartbeatMs / 5));
    this.timer = setInterval(() => {
      const now = Date.now();
      for (const call of this.live()) {
        if (now - call.lastSentAt + tick >= this.heartbeatMs) this.beat(call);
      }
    }, tick);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
