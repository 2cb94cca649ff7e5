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
    private readonly stream: Pick<NodeJS.WriteStream, 'isTTY' | 'write'> & { readonly columns?: number },
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
    this.stream.write(`\r\x1b[2K${fitted(`${bar}${oneLine(text)}`, ` (${seconds} s)`, this.stream.columns)}`);
    this.drawn = true;
    // The next draw is timed to the moment the shown clock turns, not a fixed interval from the
    // first update: an interval drifts against the editor's updates and, fired late, skips a second.
    // Unref'd: the line never keeps a finished command alive.
    clearTimeout(this.ticker);
    this.ticker = setTimeout(() => this.draw(), SECOND_MS - (elapsedMs % SECOND_MS) + TICK_SLACK_MS).unref();
  }
}

/**
 * The message on one line: `\r\x1b[2K` erases only the line the cursor is on, so a newline (or
 * any control character: a carriage return, an escape) in the editor's message would leave
 * lines behind that no redraw clears.
 */
function oneLine(text: string): string {
  // eslint-disable-next-line no-control-regex
  return text.replace(/[\x00-\x1f\x7f-\x9f]+/g, ' ');
}

/**
 * `text` then `clock`, cut to fit in `columns - 1`: a line as wide as the terminal wraps (or
 * leaves the cursor past its end), and the erase then clears only its last part. The clock is
 * kept, the text cut with an ellipsis. Counted in code points: a wide character (CJK) may
 * still take two columns.
 */
function fitted(text: string, clock: string, columns: number | undefined): string {
  if (!columns || columns <= 1) return `${text}${clock}`;
  const room = columns - 1;
  const chars = [...text];
  const clockChars = [...clock];
  if (chars.length + clockChars.length <= room) return `${text}${clock}`;
  if (clockChars.length >= room) return clockChars.slice(clockChars.length - room).join('');
  return `${chars.slice(0, Math.max(0, room - clockChars.length - 1)).join('')}…${clock}`;
}
