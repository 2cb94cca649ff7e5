/**
 * Progress for one MCP request. Host progress and heartbeats are forwarded; when the host is
 * silent (it is reloading, restarting, or the link is down) the relay sends its own keepalive,
 * so a client that resets its timeout on progress never gives up on a live call.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import type { CallProgress } from '../protocol/index.js';

/**
 * What a notification that carries no new figure (a heartbeat, a keepalive) adds: MCP wants
 * every progress value higher than the last, and a whole step would shift the figures the
 * editor reports after it ("3 of 6" shown as "4 of 6").
 */
const TICK = 0.001;

export class ProgressRelay {
  private last: number | undefined;
  /** On the monotonic clock: a wall clock stepped back (NTP, a VM's resume) must not silence the keepalives. */
  private lastSentAt = performance.now();
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly token: string | number | undefined;

  constructor(
    private readonly ctx: ServerContext,
    keepaliveMs: number,
    private readonly describeWait: () => string,
  ) {
    this.token = ctx.mcpReq._meta?.progressToken;
    if (this.token === undefined) return;
    const tick = Math.max(50, Math.floor(keepaliveMs / 4));
    this.timer = setInterval(() => {
      if (performance.now() - this.lastSentAt + tick >= keepaliveMs) this.send(undefined, undefined, this.describeWait());
    }, tick);
    this.timer.unref();
  }

  forward(update: CallProgress): void {
    this.send(update.progress, update.total, progressMessage(update));
  }

  close(): void {
    if (this.timer) clearInterval(this.timer);
  }

  private send(progress: number | undefined, total: number | undefined, message: string): void {
    if (this.token === undefined) return;
    // MCP progress must increase: the host's own figure when it moves forward, else a tick.
    const value = progress !== undefined && (this.last === undefined || progress > this.last) ? progress : (this.last ?? -TICK) + TICK;
    this.last = value;
    this.lastSentAt = performance.now();
    const params = { progressToken: this.token, progress: value, ...(total !== undefined && value <= total ? { total } : {}), message };
    void this.ctx.mcpReq.notify({ method: 'notifications/progress', params }).catch(() => undefined);
  }
}

function progressMessage(update: CallProgress): string {
  if (update.message && !update.heartbeat) return update.message;
  const seconds = Math.round(update.elapsedMs / 1000);
  const base = update.state === 'queued' ? `Queued behind other editor work (${seconds} s)` : `Still running (${seconds} s)`;
  return update.message ? `${update.message} (${base.toLowerCase()})` : base;
}
