/** A one-line progress bar for long calls, drawn only on a TTY (scripts get clean output). */
import type { CallProgress } from '../protocol/index.js';

const WIDTH = 24;

export class ProgressLine {
  private drawn = false;

  constructor(private readonly stream: NodeJS.WriteStream) {}

  update(update: CallProgress): void {
    if (!this.stream.isTTY) return;
    const seconds = Math.round(update.elapsedMs / 1000);
    const fraction = update.total ? Math.min(1, (update.progress ?? 0) / update.total) : undefined;
    const bar = fraction === undefined ? '' : `[${'#'.repeat(Math.round(fraction * WIDTH)).padEnd(WIDTH, '.')}] ${Math.round(fraction * 100)}% `;
    const text = update.message ?? (update.state === 'queued' ? 'queued' : 'running');
    this.stream.write(`\r\x1b[2K${bar}${text} (${seconds} s)`);
    this.drawn = true;
  }

  clear(): void {
    if (this.drawn) this.stream.write('\r\x1b[2K');
    this.drawn = false;
  }
}
