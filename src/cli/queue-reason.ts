/**
 * Why a `tether call` on a terminal is queued: "queued behind 2 calls (build_player running)".
 * How many calls are ahead comes from calls/status (`position`: the queued calls that run
 * first, plus the one running); which tool runs, from host/status when the host has it. Asked
 * when the call is reported queued, and again at most every few seconds while it stays so.
 */
import type { HostLink } from '../link/host-link.js';
import { METHODS, type CallProgress, type CallStatus } from '../protocol/index.js';
import type { ProgressLine } from './progress-line.js';

const ASK_EVERY_MS = 2_000;
/** A status question must not wait for an editor that is away: the wait notice covers that. */
const ASK_WAIT_MS = 500;

/** The call's progress listener, with the queue's reason added to the line while it is queued. */
export function progressWithQueueReason(link: HostLink, callId: string, progress: ProgressLine, stream: NodeJS.WriteStream = process.stderr): (update: CallProgress) => void {
  let askedAt = 0;
  let asking = false;
  const ask = async (): Promise<void> => {
    asking = true;
    askedAt = Date.now();
    try {
      const status = await link.request<CallStatus>(METHODS.callStatus, { callId }, ASK_WAIT_MS);
      if (status.state !== 'queued' || status.position === undefined) return;
      // host/status (protocol.md §7.16) is newer than calls/status: a host without it just says fewer words.
      const host = await link.request<{ calls?: Array<{ tool?: unknown; state?: unknown }> }>('host/status', undefined, ASK_WAIT_MS).catch(() => undefined);
      const running = [...new Set((host?.calls ?? []).filter((c) => c.state === 'running' && typeof c.tool === 'string').map((c) => c.tool as string))];
      const ahead = status.position + 1;
      progress.queuedBehind(`queued behind ${ahead} call${ahead === 1 ? '' : 's'}${running.length > 0 ? ` (${running.join(', ')} running)` : ''}`);
    } catch {
      // The line keeps saying "queued"; the call's own outcome says what went wrong, if anything did.
    } finally {
      asking = false;
    }
  };
  return (update) => {
    progress.update(update);
    if (!stream.isTTY || update.state !== 'queued' || asking || Date.now() - askedAt < ASK_EVERY_MS) return;
    void ask();
  };
}
