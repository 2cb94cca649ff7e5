/**
 * One ticker for every live call: a call hears a heartbeat when nothing was sent for it for
 * about heartbeatMs. It runs on the event loop, never waiting for the main thread, so a build
 * that blocks the editor for an hour still says "alive" every few seconds. It ticks five
 * times per interval while some call is live, and stops at the first tick that finds none:
 * stopped as each call ended, it was started again by the next, a setInterval and a
 * clearInterval on every call of a client calling one call after another.
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
      const now = performance.now();
      let idle = true;
      for (const call of this.live()) {
        idle = false;
        if (now - call.lastSentAt + tick >= this.heartbeatMs) this.beat(call);
      }
      if (idle) this.stop();
    }, tick);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
