/**
 * Liveness of a link's connection: a ping on an interval, one at a time. A host whose main
 * thread is blocked still answers (its network side does), so a ping that goes unanswered
 * means a half-open socket or a dead host, detected within about 2 s by default.
 */
import { METHODS, TetherError, type RpcConnection } from '../protocol/index.js';

export class Pinger {
  private timer: NodeJS.Timeout | undefined;

  constructor(
    private readonly intervalMs = 700,
    private readonly timeoutMs = 1_000,
  ) {}

  /** Pings `rpc` until stopped; `onSilent` hears of the first ping left unanswered. */
  start(rpc: RpcConnection, onSilent: (error: TetherError) => void): void {
    this.stop();
    let inFlight = false;
    this.timer = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      rpc
        .request(METHODS.ping, undefined, { timeoutMs: this.timeoutMs })
        .catch((error: unknown) => {
          onSilent(new TetherError('CONNECTION_CLOSED', `The host stopped answering pings (${(error as Error).message}); treating it as gone.`));
        })
        .finally(() => {
          inFlight = false;
        });
    }, this.intervalMs);
    this.timer.unref();
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = undefined;
  }
}
