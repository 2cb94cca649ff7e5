/**
 * One call through the link, as the fronts make it: the caller chooses the callId, and a
 * dropped connection (crash, reload, blip) never loses or repeats the call. After a drop the
 * call is re-attached by callId; only a tool that is safe to run again is ever sent to run
 * again, and a call the host has no record of is reported as "outcome unknown".
 */
import { METHODS, TetherError, type CallStartParams, type CallStartResult } from '../protocol/index.js';
import type { CallListener, HostLink } from './host-link.js';

export interface HostCallOptions {
  /** How long to wait, each time, for the host to be reachable. */
  waitMs: number;
  signal?: AbortSignal;
  listener?: CallListener;
  /** Read-only or idempotent: if the host lost the call, it may simply run again. */
  rerunnable: boolean;
  /** The result may keep placeholders for lifted long strings (see protocol/lifted-strings.ts). */
  keepLiftedStrings?: boolean;
}

/**
 * The newest runHostCall of each callId, per link, while it runs. At the host a cancel names a
 * callId, not an attempt: a cancel that waited for the link must not reach a later call that
 * reuses the callId (a retry with the same idempotency key).
 */
const latestAttempts = new WeakMap<HostLink, Map<string, object>>();

export async function runHostCall(link: HostLink, params: CallStartParams, options: HostCallOptions): Promise<CallStartResult> {
  const { callId } = params;
  const attempt = {};
  let attempts = latestAttempts.get(link);
  if (!attempts) latestAttempts.set(link, (attempts = new Map()));
  attempts.set(callId, attempt);
  const unlisten = options.listener ? link.listen(callId, options.listener) : () => undefined;
  const onAbort = (): void => void cancelAtHost(link, callId, attempt, options.signal?.reason, options.waitMs);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  /** Once true, the host may have the call: never start it afresh unless it may rerun. */
  let maybeSent = false;
  try {
    for (;;) {
      const rpc = await link.connection(options.waitMs, options.signal);
      const attachOnly = maybeSent && !options.rerunnable;
      maybeSent = true;
      try {
        return await rpc.request<CallStartResult>(METHODS.callStart, attachOnly ? { ...params, attachOnly: true } : params, {
          ...(options.signal ? { signal: options.signal } : {}),
          keepLiftedStrings: options.keepLiftedStrings === true,
        });
      } catch (error) {
        const failure = TetherError.from(error);
        if (options.signal?.aborted) throw cancelled(callId, options.signal.reason);
        // Displaced by another client: say so at once, typed; reconnecting would displace it in turn.
        if (link.lastFailure?.code === 'EVICTED') {
          const evicted = link.lastFailure;
          throw new TetherError('EVICTED', `${evicted.message} This call ("${params.tool}") was already with the editor, which may still finish it: check its state before calling again.`, {
            ...evicted.data,
            callId,
          });
        }
        if (failure.code === 'CONNECTION_CLOSED') continue; // re-attach once the link is back
        if (failure.code === 'UNKNOWN_CALL' && attachOnly) throw outcomeUnknown(params);
        throw failure;
      }
    }
  } finally {
    options.signal?.removeEventListener('abort', onAbort);
    unlisten();
    if (attempts.get(callId) === attempt) attempts.delete(callId);
  }
}

/**
 * Best effort, but as patient as the call: a link that dropped (a reload, an editor busy for a
 * moment) gets the cancel once it is back, within the time the call itself would have waited
 * for it. A host that stays away longer learns nothing, and the call may finish.
 */
async function cancelAtHost(link: HostLink, callId: string, attempt: object, reason: unknown, waitMs: number): Promise<void> {
  try {
    const text = reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : 'The client cancelled the request.';
    const rpc = await link.connection(waitMs);
    const latest = latestAttempts.get(link)?.get(callId);
    if (latest !== undefined && latest !== attempt) return; // the callId was started again since
    await rpc.request(METHODS.callCancel, { callId, reason: text });
  } catch {
    // The host is away; if it comes back with the call, the call runs to its end.
  }
}

function cancelled(callId: string, reason: unknown): TetherError {
  return new TetherError('CANCELLED', `Call "${callId}" was cancelled by the client${reason instanceof Error ? `: ${reason.message}` : ''}.`, { callId });
}

function outcomeUnknown(params: CallStartParams): TetherError {
  return new TetherError(
    'OUTCOME_UNKNOWN',
    `The connection to the editor dropped while "${params.tool}" was in flight, and the editor came back with no record of the call, so whether it ran is unknown. It was not run again, because it is not idempotent. Check the editor's state (for example with a read-only tool) before deciding to call it again.`,
    { callId: params.callId, tool: params.tool },
  );
}
