/**
 * The host calls a front has in flight: each one's callId (fresh, or derived from the
 * client's idempotency key so a repeat replays), what it is doing as the host last said, and
 * the promise a closing front waits on. Once closing, no call is sent.
 */
import { randomFillSync } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { TetherError, type Agent, type ToolDescriptor } from '../protocol/index.js';
import { runHostCall, type HostCallOptions } from '../link/host-call.js';
import type { CallListener, HostLink } from '../link/host-link.js';
import type { Logger } from 'pino';
import { contentBytes, outcomeOfCode, writeCallLine, type CallLogFields } from './call-log.js';
import { callIdForKey, type CallRequestOptions } from './request-meta.js';
import { isRerunnable } from './tool-results.js';

export interface PendingCall {
  callId: string;
  tool: string;
  startedAt: number;
  state: 'waiting' | 'queued' | 'running';
  message?: string;
  /** The MCP client that asked for it. */
  agent?: Agent;
}

/** What a caller may ask of one call: its key and deadline, who asks, and how to hear of it. */
export type CallOptions = CallRequestOptions & Pick<HostCallOptions, 'signal' | 'listener' | 'confirmCancelMs'> & { agent?: Agent };

export type CallOutcome = Awaited<ReturnType<typeof runHostCall>>;

export interface CallsInFlightOptions {
  /** How long a call waits for the editor when it is starting or reloading. */
  waitMs: number;
  /** Long strings in results stay as the host sent them (see FrontOptions.liftLongStrings). */
  keepLiftedStrings: boolean;
  /** Told about every finished call (for metrics). */
  onCallFinished?(tool: string, outcome: 'ok' | 'error', seconds: number): void;
  /** Where each finished call gets its line (call-log.ts; `tether logs` reads them). */
  log?: Logger;
}

export class CallsInFlight {
  /** The calls by callId (a test may fill it to stand for calls in flight). */
  readonly pending = new Map<string, PendingCall>();
  /**
   * How many requests share each pending callId beyond the first: requests with the same
   * idempotency key make one call at the host, which stays pending until the last of them ends.
   */
  private readonly sharers = new Map<string, number>();
  /** The host calls of `pending`, for a close to wait on. */
  private readonly running = new Set<Promise<unknown>>();
  /** Cancels of calls that ended here (their clients gave up) still on their way to the host. */
  private readonly cancels = new Set<Promise<void>>();
  /** How to give up each host call in flight, as its client's cancel would (see close). */
  private readonly giveUps = new Set<(reason: string) => void>();
  private closing = false;

  constructor(
    private readonly link: HostLink,
    private readonly options: CallsInFlightOptions,
  ) {}

  /** Runs a host tool; the caller chooses nothing but gets progress, logs and questions. */
  async call(tool: ToolDescriptor, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome> {
    if (this.closing) {
      throw new TetherError('HOST_UNAVAILABLE', `Tether is shutting down, so "${tool.name}" was not sent to the editor. Send it again once Tether is back.`, {
        state: 'closed',
        started: false,
      });
    }
    const callId = options.idempotencyKey ? callIdForKey(options.idempotencyKey) : freshCallId();
    const pending = this.track(callId, tool, options.agent);
    const listener: CallListener = {
      ...options.listener,
      progress: (update) => {
        pending.state = update.state;
        if (update.message) pending.message = update.message;
        options.listener?.progress?.(update);
      },
    };
    const startedAt = Date.now();
    let outcome: 'ok' | 'error' = 'error';
    const logged: Pick<CallLogFields, 'outcome' | 'code' | 'bytes'> = { outcome: 'failed', code: undefined, bytes: undefined };
    // Written out, not spread: it carries the AbortSignal (see tool-call.ts).
    const params = {
      callId,
      tool: tool.name,
      arguments: args,
      ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
    };
    const running = runHostCall(this.link, params, {
      waitMs: this.options.waitMs,
      rerunnable: isRerunnable(tool),
      keepLiftedStrings: this.options.keepLiftedStrings,
      listener,
      signal: options.signal,
      confirmCancelMs: options.confirmCancelMs,
      cancels: this.cancels,
      giveUps: this.giveUps,
    });
    this.running.add(running);
    try {
      const result = await running;
      if (!result.result.isError) outcome = 'ok';
      logged.outcome = result.result.isError ? 'tool_error' : 'success';
      logged.bytes = contentBytes(result.result);
      return result;
    } catch (error) {
      const code = TetherError.from(error).code;
      logged.outcome = outcomeOfCode(code);
      logged.code = code;
      throw options.idempotencyKey ? inTermsOfKey(error, options.idempotencyKey) : error;
    } finally {
      this.running.delete(running);
      this.untrack(callId);
      const durationMs = Date.now() - startedAt;
      this.options.onCallFinished?.(tool.name, outcome, durationMs / 1000);
      const { log } = this.options;
      if (log) {
        // One shape for every call (an undefined field is left out of the line).
        writeCallLine(log, { callId, tool: tool.name, agent: agentLabel(options.agent), durationMs, outcome: logged.outcome, code: logged.code, bytes: logged.bytes });
      }
    }
  }

  /** The pending call for a new request: its own, or the one it shares by callId. */
  private track(callId: string, tool: ToolDescriptor, agent: Agent | undefined): PendingCall {
    const shared = this.pending.get(callId);
    if (shared) {
      this.sharers.set(callId, (this.sharers.get(callId) ?? 0) + 1);
      return shared;
    }
    const pending: PendingCall = { callId, tool: tool.name, startedAt: Date.now(), state: 'waiting', ...(agent ? { agent } : {}) };
    this.pending.set(callId, pending);
    return pending;
  }

  /** A request ended: its call is no longer pending once no other request shares it. */
  private untrack(callId: string): void {
    const sharers = this.sharers.get(callId);
    if (sharers === undefined) this.pending.delete(callId);
    else if (sharers === 1) this.sharers.delete(callId);
    else this.sharers.set(callId, sharers - 1);
  }

  /**
   * From now on no call is sent (call() refuses): one sent after this would escape the cancel
   * and be cut by the link's close, its outcome unknown. Every call in flight is given up on with
   * `reason`, as its client's cancel would: one never sent ends at once, and each other sends
   * its cancel to the host, waiting up to `cancelWithinMs` for the editor to take it. An editor
   * away for a reload keeps its calls, queued or running on, and takes them up again when a
   * client re-attaches: a call given up on here must be cancelled there first, or it would run
   * with no one to answer. A reload longer than the wait gets no cancel, and such a call ends
   * OUTCOME_UNKNOWN. With `settleMs`, each call then gets up to that long to end with the
   * host's own word (cancelled, or finished anyway) rather than a lost link's.
   * Undefined when there is nothing to wait for, so that the front closes its link at once (a
   * pool retiring an unused front expects it closed when the call returns, and an editor that
   * is gone, not reloading, will take no cancel).
   */
  close(reason: string, { settleMs, cancelWithinMs }: { settleMs?: number; cancelWithinMs: number }): Promise<void> | undefined {
    this.closing = true;
    for (const giveUp of [...this.giveUps]) giveUp(reason);
    const cancelling = [...this.cancels];
    if (!this.editorMayTakeCancels() || (this.running.size === 0 && cancelling.length === 0)) return undefined;
    return (async () => {
      await Promise.race([Promise.allSettled(cancelling), delay(cancelWithinMs, undefined, { ref: false })]);
      if (settleMs) await Promise.race([Promise.allSettled(this.running), delay(settleMs, undefined, { ref: false })]);
    })();
  }

  /**
   * Connected, or away for a domain reload: announced, or its port refusing while its record
   * stays (the link then says `lost`, backing off, with a failure that says `reloading`).
   */
  private editorMayTakeCancels(): boolean {
    const { state } = this.link;
    return state === 'authenticated' || state === 'reloading' || state === 'connecting' || (state === 'lost' && this.link.lastFailure?.data.reloading === true);
  }
}

/** The last agent labelled, and what it was labelled from. */
const lastLabelled: { agent: Agent | undefined; name: string; version: string | undefined; label: string | undefined } = { agent: undefined, name: '', version: undefined, label: undefined };

/**
 * An agent as the call log names it: its name and version. The front gives the same agent
 * object call after call (agentOf keeps it per client info), and the label made for it is
 * kept while its name and version are the ones it was made from: no new string a call, and
 * the log line's check of it (call-log.ts) finds the very string it found plain before.
 */
export function agentLabel(agent: Agent | undefined): string | undefined {
  if (!agent) return undefined;
  const { name, version } = agent;
  if (agent === lastLabelled.agent && name === lastLabelled.name && version === lastLabelled.version) return lastLabelled.label;
  lastLabelled.agent = agent;
  lastLabelled.name = name;
  lastLabelled.version = version;
  lastLabelled.label = `${name}${version ? ` ${version}` : ''}` || undefined;
  return lastLabelled.label;
}

/** Random bytes read ahead for callIds, as randomUUID reads them ahead (128 ids at a time). */
const idBytes = Buffer.alloc(16 * 128);
let idBytesUsed = idBytes.length;
/** The text of the callId being written. */
const idText = Buffer.alloc(36);
const HEX_DIGITS = Buffer.from('0123456789abcdef', 'latin1');

/**
 * A fresh callId: a version 4 UUID (122 random bits from the system's CSPRNG, as randomUUID
 * makes one), unguessable and unique across processes and restarts (protocol.md §7.4 asks for
 * an id unique per intended execution). randomUUID joins its text from 20 pieces; this is one
 * flat string, which the Map, the link's frame, the log line and the socket read without
 * first copying it together (~2k instructions a call with randomUUID's).
 */
export function freshCallId(): string {
  if (idBytesUsed === idBytes.length) {
    randomFillSync(idBytes);
    idBytesUsed = 0;
  }
  const at = idBytesUsed;
  idBytesUsed += 16;
  idBytes[at + 6] = (idBytes[at + 6]! & 0x0f) | 0x40; // version 4
  idBytes[at + 8] = (idBytes[at + 8]! & 0x3f) | 0x80; // variant 10xx (RFC 9562)
  let out = 0;
  for (let i = 0; i < 16; i++) {
    if (i === 4 || i === 6 || i === 8 || i === 10) idText[out++] = 0x2d; // '-'
    const byte = idBytes[at + i]!;
    idText[out++] = HEX_DIGITS[byte >> 4]!;
    idText[out++] = HEX_DIGITS[byte & 15]!;
  }
  return idText.toString('latin1', 0, 36);
}

/**
 * The client chose a key, not a callId: a conflict is said in its terms (the callId the key
 * maps to is the front's business, though it stays in the data).
 */
function inTermsOfKey(error: unknown, key: string): unknown {
  const failure = TetherError.from(error);
  if (failure.code !== 'CALL_ID_CONFLICT') return error;
  const tool = typeof failure.data.tool === 'string' ? ` (tool "${failure.data.tool}")` : '';
  return new TetherError(
    'CALL_ID_CONFLICT',
    `The idempotency key "${key}" was already used for a different call${tool}. Use a fresh key for a new operation; the same key with the same arguments, written the same way (defaults are not filled in before comparing), returns the first call's result.`,
    { ...failure.data, idempotencyKey: key },
  );
}
