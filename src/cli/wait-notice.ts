/**
 * On a terminal, says what `tether call` (or `tether tools`) waits for when the editor stays
 * away for more than a moment (not started yet, reloading its scripts, frozen), instead of a
 * silent wait of up to --wait-ms (--reload-wait-ms for a reload). Once per absence; scripts
 * (no TTY) get clean output, and the error if the wait runs out.
 */
import type { HostLink, LinkState } from '../link/host-link.js';
import type { ProgressLine } from './progress-line.js';

/** Connecting to a running editor takes milliseconds: only a longer absence is worth a line. */
const NOTICE_AFTER_MS = 1_000;

export interface Waits {
  /** How long a request waits for an editor that is away. */
  waitMs: number;
  /** How long, in all, it waits for one away for a domain reload whose process runs. */
  reloadWaitMs?: number;
}

/** Starts watching the link; returns the stop. */
export function noticeWaits(link: HostLink, waits: Waits, progress: ProgressLine, stream: NodeJS.WriteStream = process.stderr): () => void {
  if (!stream.isTTY) return () => undefined;
  let timer: NodeJS.Timeout | undefined;
  let away = false;
  const tell = (): void => {
    const reloading = link.awayForReload();
    const waitMs = reloading ? Math.max(waits.waitMs, waits.reloadWaitMs ?? 0) : waits.waitMs;
    progress.clear();
    stream.write(`tether: waiting up to ${Math.ceil(waitMs / 1000)} s for the editor: ${whyAway(link)}\n`);
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

/**
 * Why the editor is away. A reload it announced comes first: the link's last failure is then
 * only the connection it closed to reload ("The host closed the connection."), which says
 * nothing of what the editor is doing.
 */
function whyAway(link: HostLink): string {
  // Past the announcement, trying again: the failure is still the closed connection until an attempt fails.
  const announced = link.state === 'reloading' || (link.awayForReload() && link.lastFailure?.data.reloading !== true);
  if (announced) return 'it announced a domain reload, and is reloading its scripts.';
  return link.lastFailure?.message ?? 'it has not answered yet.';
}
