/**
 * One call through the link, as the fronts make it: the caller chooses the callId, and a
 * dropped connection (crash, reload, blip) never loses or repeats the call. After a drop the
 * call is re-attached by callId; only a tool that is safe to run again is ever sent to run
 * again, and a call whose fate cannot be learned (the host has no record of it, or it stays
 * away longer than the call may wait) is reported as "outcome unknown".
 */
import { METHODS, TetherError, type CallStartParams, type CallStartResult, type RpcConnection } from '../protocol/index.js';
import { callStartJson } from './call-start-json.js';
import type { CallListener, HostLink } from './host-link.js';
import { PerCall } from './per-call.js';

export interface HostCallOptions {
  /** How long to wait, each time, for the host to be reachable. */
  waitMs: number;
  signal?: AbortSignal;
  listener?: CallListener;
  /** Read-only or idempotent: if the host lost the call, it may simply run again. */
  rerunnable: boolean;
  /** The result may keep placeholders for lifted long strings (see protocol/lifted-strings.ts). */
  keepLiftedStrings?: boolean;
  /**
   * After `signal` aborts, how long to keep waiting for the host's own word on the call: its
   * CANCELLED, or the result of a tool that finished anyway. Unset, the caller is answered
   * CANCELLED at once, which only says the caller gave up (an MCP client that cancelled a
   * request reads no answer at all). Infinity waits as long as the call itself would.
   */
  confirmCancelMs?: number;
  /**
   * Where the cancel this call sends once aborted is kept while it is on its way to the host
   * (which may be reloading): a closing front waits for them (calls-in-flight.ts).
   */
  cancels?: Set<Promise<void>>;
  /**
   * Where the call puts, while it runs, the function that gives it up as its signal's abort
   * does: a closing front gives up every call in flight, each of which then cancels itself at
   * the host (calls-in-flight.ts). Given up on this way, a call whose cancel the editor has not
   * confirmed ends OUTCOME_UNKNOWN, whatever `confirmCancelMs` says: its caller is still
   * there to read the answer, and the call may still run.
   */
  giveUps?: Set<(reason: string) => void>;
  /**
   * Called once, as the call is first handed to the host: from then on it may run. A caller
   * that reports an interruption (`tether call` on Ctrl-C) says by it whether anything was sent.
   */
  onSent?: () => void;
}

/** One runHostCall of a callId, and whether (and why) its caller has given up on it. */
interface Attempt {
  abandoned: boolean;
  reason?: unknown;
  /** Given up on by its front's close, not by its caller: an unconfirmed cancel is said as such. */
  byClose?: boolean;
}

/**
 * The runHostCalls of each callId, per link, while they run. At the host a cancel names a
 * callId, not a request, and requests with the same idempotency key share it: a caller giving
 * up sends the cancel only when no other request still wants the call (at the host it would
 * cancel theirs too), and a cancel that waited for the link must not reach a later call that
 * reuses the callId.
 */
const liveAttempts = new WeakMap<HostLink, PerCall<Attempt>>();

export async function runHostCall(link: HostLink, params: CallStartParams, options: HostCallOptions): Promise<CallStartResult> {
  const { callId } = params;
  const attempt: Attempt = { abandoned: false };
  let attempts = liveAttempts.get(link);
  if (!attempts) liveAttempts.set(link, (attempts = new PerCall()));
  attempts.add(callId, attempt);
  const unlisten = options.listener ? link.listen(callId, options.listener) : () => undefined;
  /** Once true, the host may have the call: never start it afresh unless it may rerun. */
  let maybeSent = false;
  /** Ends the loop's wait for the link, while it waits. */
  let stopWaiting: AbortController | undefined;
  const giveUp = (reason: unknown, byClose = false): void => {
    if (attempt.abandoned) return;
    attempt.abandoned = true;
    attempt.reason = reason;
    attempt.byClose = byClose;
    // Never sent, nothing to cancel: the call ends now, its wait for the link with it.
    if (!maybeSent) {
      stopWaiting?.abort(reason);
      return;
    }
    const sending = cancelAtHost(link, callId, reason, options.waitMs);
    const { cancels } = options;
    if (!cancels) return;
    cancels.add(sending);
    void sending.finally(() => cancels.delete(sending));
  };
  const onAbort = (): void => giveUp(options.signal?.reason);
  const onClose = (reason: string): void => giveUp(reason, true);
  options.signal?.addEventListener('abort', onAbort, { once: true });
  // Aborted already, its event gone: given up on now, so that the call is never sent.
  if (options.signal?.aborted) onAbort();
  options.giveUps?.add(onClose);
  const patience = waitsFor(options);
  try {
    for (;;) {
      // Connected already, as for almost every call: no wait, and no promise to wait on.
      let rpc = link.openConnection();
      if (!rpc) {
        stopWaiting = new AbortController();
        const waiting = stopWaiting;
        const stop = (): void => waiting.abort(patience.signal?.reason);
        patience.signal?.addEventListener('abort', stop, { once: true });
        if (patience.signal?.aborted) stop();
        // Given up on before it ever waited (a front closing as the call came): no wait at all.
        if (attempt.abandoned && !maybeSent) waiting.abort(attempt.reason);
        try {
          rpc = await link.connection(options.waitMs, waiting.signal);
        } catch (error) {
          throw unreachable(params, options, attempt, maybeSent, error);
        } finally {
          patience.signal?.removeEventListener('abort', stop);
          stopWaiting = undefined;
        }
      }
      // Cancelled before it was ever sent (while waiting for the link): it must never start.
      if (attempt.abandoned && !maybeSent) throw gaveUp(params, options, attempt, false);
      // A call the caller cancelled is never started afresh: only its outcome is asked for.
      const attachOnly = maybeSent && (!options.rerunnable || attempt.abandoned);
      if (!maybeSent) options.onSent?.();
      maybeSent = true;
      // Back after the caller cancelled: the cancel may have been lost with the old connection,
      // so it goes again on this one, before the re-attach (the host takes them in order): a
      // call still queued there never starts. Unless another request with the callId still wants it.
      if (attachOnly && attempt.abandoned && !anyoneWants(link, callId)) void cancelOn(rpc, callId, attempt.reason);
      try {
        // Written out, not spread: it carries the AbortSignal (see src/mcp/mcp-server.ts).
        const answer = rpc.request<CallStartResult>(METHODS.callStart, callStartJson(attachOnly ? { ...params, attachOnly: true } : params), {
          signal: patience.signal,
          keepLiftedStrings: options.keepLiftedStrings === true,
        });
        return await answer;
      } catch (error) {
        const failure = TetherError.from(error);
        if (patience.signal?.aborted) throw anyoneWants(link, callId) ? leftToOthers(params, attempt) : gaveUp(params, options, attempt, maybeSent);
        // Displaced by another client: say so at once, typed; reconnecting would displace it in turn.
        if (link.lastFailure?.code === 'EVICTED') throw evicted(link.lastFailure, params);
        // Re-attach once the link is back, if the connection dropped. A host that answered on a
        // connection still open answered with the call's own outcome: a tool may fail with
        // CONNECTION_CLOSED (its question to the client lost with a dropped link), and asking
        // again would replay that answer for ever.
        if (failure.code === 'CONNECTION_CLOSED' && !rpc.isOpen) continue;
        if (failure.code === 'UNKNOWN_CALL' && attachOnly) throw outcomeUnknown(params);
        if (failure.code === 'FRAME_TOO_LARGE' && failure.data.handled === true) throw undeliverable(params, failure);
        throw failure;
      }
    }
  } finally {
    patience.dispose();
    options.signal?.removeEventListener('abort', onAbort);
    options.giveUps?.delete(onClose);
    unlisten();
    attempts.remove(callId, attempt);
  }
}

/** Whether a request still wants the call: one running that its caller has not given up on. */
function anyoneWants(link: HostLink, callId: string): boolean {
  return (
    liveAttempts
      .get(link)
      ?.get(callId)
      .some((attempt) => !attempt.abandoned) === true
  );
}

/**
 * What the call's own waits listen to: the caller's signal, or, when a cancel is to be
 * confirmed, a signal that fires `confirmCancelMs` after the caller's.
 */
function waitsFor(options: HostCallOptions): { signal: AbortSignal | undefined; dispose(): void } {
  const { signal, confirmCancelMs } = options;
  if (!signal || confirmCancelMs === undefined) return { signal, dispose: () => undefined };
  // No deadline of its own: the call ends when the host answers or the link is lost for good.
  if (!Number.isFinite(confirmCancelMs)) return { signal: undefined, dispose: () => undefined };
  const patience = new AbortController();
  let timer: ReturnType<typeof setTimeout> | undefined;
  const startTimer = (): void => {
    timer = setTimeout(() => patience.abort(signal.reason), confirmCancelMs);
  };
  if (signal.aborted) startTimer();
  else signal.addEventListener('abort', startTimer, { once: true });
  return {
    signal: patience.signal,
    dispose: () => {
      clearTimeout(timer);
      signal.removeEventListener('abort', startTimer);
    },
  };
}

/**
 * Best effort, but as patient as the call: a link that dropped (a reload, an editor busy for a
 * moment) gets the cancel once it is back, within the time the call itself would have waited
 * for it. The cancel goes again on each new connection until one carries it: the abort may
 * come before the link has noticed that its connection is dead, and a call still queued in a
 * journal runs once its editor is back unless the cancel gets there. A host that stays away
 * longer learns nothing, and the call may finish.
 */
async function cancelAtHost(link: HostLink, callId: string, reason: unknown, waitMs: number): Promise<void> {
  const deadline = performance.now() + waitMs;
  for (;;) {
    let rpc: RpcConnection;
    try {
      rpc = await link.connection(deadline - performance.now());
    } catch {
      return; // the host is away; if it comes back with the call, the call runs to its end
    }
    if (anyoneWants(link, callId)) return; // another request wants the call (or wants it again since)
    // Sent again only on a new connection, and only within the wait: an editor that keeps
    // dropping its connections before it answers is not asked for ever.
    if ((await cancelOn(rpc, callId, reason)) || performance.now() >= deadline) return;
  }
}

/**
 * Sends calls/cancel on this connection. True once the host has it (what it answers matters
 * less than that it was heard); false if the connection closed first, so the cancel is lost.
 */
async function cancelOn(rpc: RpcConnection, callId: string, reason: unknown): Promise<boolean> {
  try {
    await rpc.request(METHODS.callCancel, { callId, reason: reasonText(reason) ?? 'The client cancelled the request.' });
    return true;
  } catch {
    // The connection's own state, not the error's code: a host may answer with any code.
    return rpc.isOpen;
  }
}

/** The link could not be had for the call: what that means depends on whether the host may have it. */
function unreachable(params: CallStartParams, options: HostCallOptions, attempt: Attempt, maybeSent: boolean, error: unknown): TetherError {
  if (attempt.abandoned) return gaveUp(params, options, attempt, maybeSent);
  const failure = TetherError.from(error, 'HOST_UNAVAILABLE');
  if (failure.code === 'EVICTED') return maybeSent ? evicted(failure, params) : failure;
  // Not sent, or safe to run again: the editor's absence is all there is to say, and a retry is safe.
  if (!maybeSent || options.rerunnable) return failure;
  return new TetherError(
    'OUTCOME_UNKNOWN',
    `The connection to the editor dropped while "${params.tool}" was in flight, and the editor did not come back in time (${failure.message}), so whether the call ran, or will still run once the editor is back, is unknown. It was not run again, because it is not idempotent. Check the editor's state (for example with a read-only tool) before deciding to call it again.`,
    { callId: params.callId, tool: params.tool, cause: failure.toJSON() },
  );
}

/**
 * The caller aborted and stopped waiting (at once, or after `confirmCancelMs`), or the front
 * closed with the call in flight.
 */
function gaveUp(params: CallStartParams, options: HostCallOptions, attempt: Attempt, maybeSent: boolean): TetherError {
  const reason = clauseOf(attempt.reason);
  const why = reason === undefined ? '' : `: ${reason}`;
  if (!maybeSent) {
    const what = attempt.byClose ? `"${params.tool}" was not sent to the editor${why}; it did not run.` : `Call "${params.callId}" was cancelled by the client${why}.`;
    return new TetherError('CANCELLED', what, { callId: params.callId, started: false });
  }
  // Nobody asked for the editor's word (an MCP client that cancelled reads no answer at all).
  if (options.confirmCancelMs === undefined && !attempt.byClose) {
    return new TetherError('CANCELLED', `Call "${params.callId}" was cancelled by the client${why}.`, { callId: params.callId });
  }
  const cancelled = attempt.byClose
    ? `"${params.tool}" was given up on while the editor had it${why}. A cancel was sent, or waits for the editor to be back, and the editor has not confirmed it: the call may still run, or have run.`
    : `"${params.tool}" was cancelled${why}, and the editor was asked to stop it, but it has not confirmed that it did: the call may still finish.`;
  return new TetherError('OUTCOME_UNKNOWN', `${cancelled} Check the editor's state before calling it again.`, { callId: params.callId, tool: params.tool, cancelRequested: true });
}

/**
 * The caller gave up, and stopped waiting, on a call that other requests with its callId (the
 * same idempotency key) still want: it was not cancelled at the host, where it goes on for them.
 */
function leftToOthers(params: CallStartParams, attempt: Attempt): TetherError {
  const reason = clauseOf(attempt.reason);
  return new TetherError(
    'CANCELLED',
    `Call "${params.callId}" was cancelled for this request${reason === undefined ? '' : ` (${reason})`}, but another request with the same idempotency key still waits on it, so the editor was not asked to stop it: it goes on, and that request gets its result.`,
    { callId: params.callId, tool: params.tool, shared: true },
  );
}

/** What an abort reason says, when it says anything. */
function reasonText(reason: unknown): string | undefined {
  return reason instanceof Error ? reason.message : typeof reason === 'string' ? reason : undefined;
}

/** A reason, to go inside a sentence: without its own closing period. */
function clauseOf(reason: unknown): string | undefined {
  return reasonText(reason)?.replace(/\.$/, '');
}

function evicted(failure: TetherError, params: CallStartParams): TetherError {
  return new TetherError('EVICTED', `${failure.message} This call ("${params.tool}") was already with the editor, which may still finish it: check its state before calling again.`, {
    ...failure.data,
    callId: params.callId,
  });
}

/** The host ran the call and has its result, which is too large to come over the link. */
function undeliverable(params: CallStartParams, failure: TetherError): TetherError {
  return new TetherError(
    'FRAME_TOO_LARGE',
    `"${params.tool}" completed in the editor, but its result (${String(failure.data.length)} bytes) is larger than the ${String(failure.data.maxFrameBytes)} bytes the link reads, so it cannot be delivered. Its effects have happened: do not call it again to get the result; ask for less (a smaller image, fewer items) or for a file path instead.`,
    { ...failure.data, callId: params.callId, tool: params.tool, state: 'completed' },
  );
}

function outcomeUnknown(params: CallStartParams): TetherError {
  return new TetherError(
    'OUTCOME_UNKNOWN',
    `The connection to the editor dropped while "${params.tool}" was in flight, and the editor came back with no record of the call, so whether it ran is unknown. It was not run again, because it is not idempotent. Check the editor's state (for example with a read-only tool) before deciding to call it again.`,
    { callId: params.callId, tool: params.tool },
  );
}
