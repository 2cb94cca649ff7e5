/**
 * A one-line progress bar for long calls, drawn only on a TTY (scripts get clean output). The
 * elapsed time ticks every second between the editor's updates (a queued call may hear
 * nothing for a heartbeat, 5 s), and a queued call says what it waits behind.
 */
import type { CallProgress } from '../protocol/index.js';

const WIDTH = 24;
const SECOND_MS = 1_000;
/** A tick lands this long after the clock turns, so a timer that fires a little early never shows the old second. */
const TICK_SLACK_MS = 20;

export class ProgressLine {
  private drawn = false;
  private last: { update: CallProgress; at: number } | undefined;
  private ticker: NodeJS.Timeout | undefined;
  /** Why a queued call waits ("queued behind 2 calls (build_player running)"), once known. */
  private queuedBecause: string | undefined;

  /** `now` is the clock the line reads; tests pass one that runs late, as a loaded machine's timers do. */
  constructor(
    private readonly stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'>,
    private readonly now: () => number = Date.now,
  ) {}

  update(update: CallProgress): void {
    if (!this.stream.isTTY) return;
    if (update.state !== 'queued') this.queuedBecause = undefined;
    this.last = { update, at: this.now() };
    this.draw();
  }

  /** Says why the call is queued, until it runs. */
  queuedBehind(reason: string): void {
    if (this.last?.update.state !== 'queued') return;
    this.queuedBecause = reason;
    this.draw();
  }

  clear(): void {
    clearTimeout(this.ticker);
    this.ticker = undefined;
    this.last = undefined;
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }

  private draw(): void {
    if (!this.last) return;
    const { update, at } = this.last;
    const elapsedMs = update.elapsedMs + this.now() - at;
    const seconds = Math.floor(elapsedMs / SECOND_MS);
    const fraction = update.total ? Math.min(1, (update.progress ?? 0) / update.total) : undefined;
    const bar = fraction === undefined ? '' : `[${'#'.repeat(Math.round(fraction * WIDTH)).padEnd(WIDTH, '.')}] ${Math.round(fraction * 100)}% `;
    const text = update.message ?? (update.state === 'queued' ? (this.queuedBecause ?? 'queued') : 'running');
    this.stream.write(`\r\x1b[2K${bar}${text} (${seconds} s)`);
    this.drawn = true;
    // The next draw is timed to the moment the shown clock turns, not a fixed interval from the
    // first update: an interval drifts against the editor's updates and, fired late, skips a second.
    // Unref'd: the line never keeps a finished command alive.
    clearTimeout(this.ticker);
    this.ticker = setTimeout(() => this.draw(), SECOND_MS - (elapsedMs % SECOND_MS) + TICK_SLACK_MS).unref();
  }
}
