/**
 * The host calls a front has in flight: each one's callId (fresh, or derived from the
 * client's idempotency key so a repeat replays), what it is doing as the host last said, and
 * the promise a closing front waits on. Once closing, no call is sent.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import { METHODS, TetherError, type Agent, type ToolDescriptor } from '../protocol/index.js';
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
  /** The host calls of `pending`, for a close to wait on. */
  private readonly running = new Set<Promise<unknown>>();
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
    const callId = options.idempotencyKey ? callIdForKey(options.idempotencyKey) : randomUUID();
    const pending: PendingCall = { callId, tool: tool.name, startedAt: Date.now(), state: 'waiting', ...(options.agent ? { agent: options.agent } : {}) };
    this.pending.set(callId, pending);
    const listener: CallListener = {
      ...options.listener,
      progress: (update) => {
        pending.state = update.state;
        if (update.message) pending.message = update.message;
        options.listener?.progress?.(update);
      },
    };
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
      this.pending.delete(callId);
      const durationMs = Date.now() - pending.startedAt;
      this.options.onCallFinished?.(tool.name, outcome, durationMs / 1000);
      const { log } = this.options;
      if (log) {
        const agent = options.agent ? `${options.agent.name}${options.agent.version ? ` ${options.agent.version}` : ''}` : undefined;
        // One shape for every call (an undefined field is left out of the line).
        writeCallLine(log, { callId, tool: tool.name, agent: agent || undefined, durationMs, outcome: logged.outcome, code: logged.code, bytes: logged.bytes });
      }
    }
  }

  /**
   * From now on no call is sent (call() refuses): one sent after this would escape the cancel
   * and be cut by the link's close, its outcome unknown. Each call in flight is cancelled at
   * the host with `reason` and, with `settleMs`, given up to that long to end with the host's
   * own word (cancelled, or finished anyway) rather than a lost link's. Undefined when there
   * is nothing to wait for, so that the front closes its link at once (a pool retiring an
   * unused front expects it closed when the call returns).
   */
  close(reason: string, settleMs?: number): Promise<void> | undefined {
    this.closing = true;
    const inFlight = [...this.pending.keys()];
    if (this.link.state !== 'authenticated' || inFlight.length === 0) return undefined;
    return (async () => {
      const rpc = await this.link.connection(0);
      await Promise.allSettled(inFlight.map((callId) => rpc.request(METHODS.callCancel, { callId, reason }, { timeoutMs: 1_000 })));
      if (settleMs) await Promise.race([Promise.allSettled(this.running), delay(settleMs, undefined, { ref: false })]);
    })();
  }
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
