/**
 * Reconnection timing: the delay before the next try and its timer. The backoff is exponential
 * with full jitter, and its state survives a flap: a host that accepts and then drops the
 * connection quickly does not reset the delay, so it is not hammered; only a connection that
 * stayed up for `healthyAfterMs` starts over.
 */
export interface BackoffOptions {
  initialMs?: number;
  maxMs?: number;
  factor?: number;
  healthyAfterMs?: number;
  random?: () => number;
}

export class Backoff {
  private attempt = 0;
  private connectedAt: number | undefined;
  private readonly initialMs: number;
  private readonly maxMs: number;
  private readonly factor: number;
  private readonly healthyAfterMs: number;
  private readonly random: () => number;

  constructor(options: BackoffOptions = {}) {
    this.initialMs = options.initialMs ?? 100;
    this.maxMs = options.maxMs ?? 5_000;
    this.factor = options.factor ?? 2;
    this.healthyAfterMs = options.healthyAfterMs ?? 5_000;
    this.random = options.random ?? Math.random;
  }

  /** The delay before the next attempt; each call grows the next one. */
  next(): number {
    const ceiling = Math.min(this.maxMs, this.initialMs * this.factor ** this.attempt);
    this.attempt++;
    // Half fixed, half jitter: spreads reconnecting clients without ever retrying at once.
    return Math.round(ceiling / 2 + (ceiling / 2) * this.random());
  }

  get attempts(): number {
    return this.attempt;
  }

  connected(now = Date.now()): void {
    this.connectedAt = now;
  }

  /** The connection ended: start over only if it had been healthy for long enough. */
  disconnected(now = Date.now()): void {
    if (this.connectedAt !== undefined && now - this.connectedAt >= this.healthyAfterMs) this.attempt = 0;
    this.connectedAt = undefined;
  }
}

/** The one retry a link has pending: scheduling another replaces it; it never keeps the process alive. */
export class RetryTimer {
  private timer: NodeJS.Timeout | undefined;

  constructor(private readonly run: () => void) {}

  after(delayMs: number): void {
    this.cancel();
    this.timer = setTimeout(this.run, delayMs);
    this.timer.unref();
  }

  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = undefined;
  }
}
