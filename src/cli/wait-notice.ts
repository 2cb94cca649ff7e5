/**
 * On a terminal, says what `tether call` (or `tether tools`) waits for when the editor stays
 * away for more than a moment (not started yet, reloading its scripts, frozen), instead of a
 * silent wait of up to --wait-ms. Once per absence; scripts (no TTY) get clean output, and
 * the error if the wait runs out.
 */
import type { HostLink, LinkState } from '../link/host-link.js';
import type { ProgressLine } from './progress-line.js';

/** Connecting to a running editor takes milliseconds: only a longer absence is worth a line. */
const NOTICE_AFTER_MS = 1_000;

/** Starts watching the link; returns the stop. */
export function noticeWaits(link: HostLink, waitMs: number, progress: ProgressLine, stream: NodeJS.WriteStream = process.stderr): () => void {
  if (!stream.isTTY) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let away = false;
  const tell = (): void => {
    const why = link.lastFailure?.message ?? (link.state === 'reloading' ? 'it is reloading its scripts.' : 'it has not answered yet.');
    progress.clear();
    stream.write(`tether: waiting up to ${Math.ceil(waitMs / 1000)} s for the editor: ${why}\n`);
  };
  const onState = (state: LinkState): void => {
    if (state === 'authenticated') {
      clearTimeout(timer);
      away = false;
      return;
    }
    // A link that cannot connect cycles between connecting and lost: one absence, one timer.
    if (away || state === 'closed') return;
    away = true;
    timer = setTimeout(tell, NOTICE_AFTER_MS);
  };
  link.on('state', onState);
  onState(link.state);
  return () => {
    clearTimeout(timer);
    link.off('state', onState);
  };
}
