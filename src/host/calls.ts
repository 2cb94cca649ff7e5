/**
 * Calls: the at-most-once engine of a host. Each callId is journaled before it is queued
 * and before it runs; a repeat of a known callId attaches to the live call or gets the
 * stored outcome; calls can be queried and cancelled by callId; while a call is queued or
 * running, every attached connection hears progress at least every heartbeat interval.
 */
import {
  TetherError,
  type CallProgress,
  type CallStartParams,
  type CallStartResult,
  type CallStatus,
  type ElicitResult,
  type LogLevel,
  type ToolResult,
} from '../protocol/index.js';
import { CallJournal, hashArguments, isFinal, type JournalEntry } from './call-journal.js';
import { MainThreadExecutor } from './executor.js';
import { toToolResult, unknownTool, type RegisteredTool, type ToolContext } from './tools.js';

/** A connection's view of the calls it started or attached to. */
export interface CallObserver {
  readonly id: string;
  progress(update: CallProgress): void;
  log(callId: string, level: LogLevel, data: unknown, logger?: string): void;
  /** Present when the connection's client can answer questions. */
  elicit?(callId: string, message: string, requestedSchema: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult>;
  sample?(callId: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}

export interface CallManagerOptions {
  journal: CallJournal;
  tools(): ReadonlyMap<string, RegisteredTool>;
  /** Longest silence allowed while a call is queued or running. */
  heartbeatMs: number;
  /** Execution deadline when neither the call nor the tool sets one. */
  defaultDeadlineMs: number;
}

interface LiveCall {
  entry: JournalEntry;
  observers: Set<CallObserver>;
  settled: Promise<void>;
  settle(): void;
  controller?: AbortController;
  lastSentAt: number;
  lastProgress: { progress?: number; total?: number; message?: string };
}

export class CallManager {
  private readonly live = new Map<string, LiveCall>();
  private readonly executor = new MainThreadExecutor<LiveCall>((call) => this.execute(call));
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly journal: CallJournal;

  constructor(private readonly options: CallManagerOptions) {
    this.journal = options.journal;
  }

  /** Loads the journal a previous life left and queues again the calls that never started. */
  restore(): void {
    const { requeue } = this.journal.load();
    for (const entry of requeue) this.enqueue(entry);
  }

  /**
   * Starts (or attaches to, or replays) a call. `signal` is the request's own: when the
   * connection abandons the request it stops hearing about the call, which carries on;
   * cancelling the call itself is calls/cancel.
   */
  async start(params: CallStartParams, observer: CallObserver, signal?: AbortSignal): Promise<CallStartResult> {
    const args = params.arguments ?? {};
    const known = this.journal.get(params.callId);
    if (known) {
      if (known.tool !== params.tool || known.argsHash !== hashArguments(params.tool, args)) {
        throw new TetherError(
          'CALL_ID_CONFLICT',
          `callId "${params.callId}" was already used for a different call (tool "${known.tool}"). Use a fresh callId for a new call.`,
          { callId: params.callId, tool: known.tool },
        );
      }
      return this.await(known, observer, true, signal);
    }
    if (params.attachOnly) {
      throw new TetherError(
        'UNKNOWN_CALL',
        `The host has no record of call "${params.callId}": it was never received, or its result expired. Its outcome is unknown; check the editor's state before calling again.`,
        { callId: params.callId },
      );
    }
    const tool = this.options.tools().get(params.tool);
    if (!tool) throw unknownTool(params.tool, this.options.tools().keys());
    const validated = tool.validate(args);
    const deadlineMs = params.deadlineMs ?? tool.descriptor.execution.deadlineMs;
    const entry: JournalEntry = {
      callId: params.callId,
      tool: params.tool,
      arguments: validated,
      argsHash: hashArguments(params.tool, args),
      lane: observer.id,
      state: 'queued',
      queuedAt: Date.now(),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
    };
    this.journal.save(entry);
    // Attached before it is queued, so the starter hears even the first "running" progress.
    this.enqueue(entry, observer);
    return this.await(entry, observer, false, signal);
  }

  status(callId: string): CallStatus {
    const entry = this.journal.get(callId);
    if (!entry) {
      throw new TetherError('UNKNOWN_CALL', `The host has no record of call "${callId}" (never received, or expired after the retention).`, { callId });
    }
    const call = this.live.get(callId);
    return {
      callId,
      tool: entry.tool,
      state: entry.state,
      ...(call && entry.state === 'queued' ? { position: this.executor.position(call) } : {}),
      queuedAt: entry.queuedAt,
      ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }),
      ...(entry.finishedAt === undefined ? {} : { finishedAt: entry.finishedAt }),
      ...(entry.result ? { result: entry.result } : {}),
      ...(entry.error ? { error: entry.error } : {}),
    };
  }

  /** Queued: removed, never runs. Running: its signal fires and the tool decides. Final: unchanged. */
  cancel(callId: string, reason = 'Cancelled by the client.'): CallStatus {
    const call = this.live.get(callId);
    if (call?.entry.state === 'queued' && this.executor.remove(call)) {
      this.finish(call, undefined, new TetherError('CANCELLED', `Call "${callId}" was cancelled before it started: ${reason}`, { callId, started: false }));
    } else if (call?.entry.state === 'running') {
      call.controller?.abort(new TetherError('CANCELLED', `Call "${callId}" was cancelled while running: ${reason}`, { callId, started: true }));
    }
    return this.status(callId);
  }

  /** The connection is gone: it stops hearing about calls, which carry on for whoever re-attaches. */
  detach(observer: CallObserver): void {
    for (const call of this.live.values()) call.observers.delete(observer);
  }

  get activeCount(): number {
    return this.live.size;
  }

  /** Stops the heartbeat timer; live calls stay journaled as they are. */
  dispose(): void {
    this.executor.pause();
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  private enqueue(entry: JournalEntry, observer?: CallObserver): void {
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const call: LiveCall = { entry, observers: new Set(observer ? [observer] : []), settled, settle, lastSentAt: Date.now(), lastProgress: {} };
    this.live.set(entry.callId, call);
    this.executor.enqueue(entry.lane, call);
    this.ensureHeartbeat();
  }

  private async await(entry: JournalEntry, observer: CallObserver, replay: boolean, signal?: AbortSignal): Promise<CallStartResult> {
    const call = this.live.get(entry.callId);
    if (call && !isFinal(entry)) {
      call.observers.add(observer);
      const abandoned = new Promise<'abandoned'>((resolve) => signal?.addEventListener('abort', () => resolve('abandoned'), { once: true }));
      const how = await Promise.race([call.settled, abandoned]);
      call.observers.delete(observer);
      if (how === 'abandoned') throw TetherError.from(signal?.reason, 'CANCELLED');
      replay = false;
    }
    return outcomeOf(this.journal.get(entry.callId) ?? entry, replay);
  }

  private async execute(call: LiveCall): Promise<void> {
    const { entry } = call;
    const tool = this.options.tools().get(entry.tool);
    if (!tool) {
      this.finish(call, undefined, unknownTool(entry.tool, this.options.tools().keys()));
      return;
    }
    const controller = new AbortController();
    call.controller = controller;
    entry.state = 'running';
    entry.startedAt = Date.now();
    this.journal.save(entry); // written before the tool runs: a crash from here on is "interrupted"
    this.sendProgress(call, false);

    const deadlineMs = entry.deadlineMs ?? this.options.defaultDeadlineMs;
    const deadline = setTimeout(() => {
      controller.abort(
        new TetherError('DEADLINE_EXCEEDED', `"${entry.tool}" ran past its ${deadlineMs} ms deadline and was cancelled. Raise the deadline for longer work.`, {
          callId: entry.callId,
          deadlineMs,
        }),
      );
    }, deadlineMs);
    deadline.unref();

    try {
      const value = await tool.handler(entry.arguments, this.contextFor(call, controller.signal));
      this.finish(call, toToolResult(value), undefined);
    } catch (error) {
      const reason = controller.signal.aborted ? TetherError.from(controller.signal.reason, 'CANCELLED') : undefined;
      this.finish(call, undefined, reason ?? toolFailure(entry.tool, error));
    } finally {
      clearTimeout(deadline);
    }
  }

  private contextFor(call: LiveCall, signal: AbortSignal): ToolContext {
    const { callId } = call.entry;
    const asker = <K extends 'elicit' | 'sample'>(kind: K): CallObserver => {
      const candidates = [...call.observers].filter((o) => o[kind] !== undefined);
      const chosen = candidates.at(-1);
      if (!chosen) {
        throw new TetherError('NO_CLIENT', `No connected client can answer a ${kind === 'elicit' ? 'question (elicitation)' : 'sampling request'} for call "${callId}".`, {
          callId,
        });
      }
      return chosen;
    };
    return {
      callId,
      signal,
      progress: (update) => {
        call.lastProgress = { ...update };
        this.sendProgress(call, false);
      },
      log: (level, data, logger) => {
        for (const observer of call.observers) observer.log(callId, level, data, logger);
      },
      elicit: async (message, requestedSchema) => asker('elicit').elicit!(callId, message, requestedSchema, signal),
      sample: async (params) => asker('sample').sample!(callId, params, signal),
    };
  }

  private finish(call: LiveCall, result: ToolResult | undefined, error: TetherError | undefined): void {
    const { entry } = call;
    if (isFinal(entry)) return;
    entry.finishedAt = Date.now();
    if (error) {
      entry.state = stateFor(error);
      entry.error = { code: error.code, message: error.message, data: { ...error.data, callId: entry.callId } };
    } else {
      entry.state = 'completed';
      entry.result = result ?? { content: [] };
    }
    this.journal.save(entry);
    this.live.delete(entry.callId);
    call.settle();
    if (this.live.size === 0 && this.heartbeatTimer) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
    this.journal.prune();
  }

  private sendProgress(call: LiveCall, heartbeat: boolean): void {
    const { entry } = call;
    if (entry.state !== 'queued' && entry.state !== 'running') return;
    call.lastSentAt = Date.now();
    const update: CallProgress = {
      callId: entry.callId,
      state: entry.state,
      heartbeat,
      elapsedMs: call.lastSentAt - (entry.startedAt ?? entry.queuedAt),
      ...call.lastProgress,
    };
    for (const observer of call.observers) observer.progress(update);
  }

  /** One ticker for all live calls; a call hears a heartbeat when nothing was sent for it lately. */
  private ensureHeartbeat(): void {
    if (this.heartbeatTimer) return;
    const tick = Math.max(20, Math.floor(this.options.heartbeatMs / 5));
    this.heartbeatTimer = setInterval(() => {
      const now = Date.now();
      for (const call of this.live.values()) {
        if (now - call.lastSentAt + tick >= this.options.heartbeatMs) this.sendProgress(call, true);
      }
    }, tick);
    this.heartbeatTimer.unref();
  }
}

function stateFor(error: TetherError): JournalEntry['state'] {
  if (error.code === 'CANCELLED' || error.code === 'DEADLINE_EXCEEDED') return 'cancelled';
  return error.code === 'OUTCOME_UNKNOWN' ? 'interrupted' : 'failed';
}

function toolFailure(tool: string, error: unknown): TetherError {
  if (error instanceof TetherError) return error;
  const message = error instanceof Error ? error.message : String(error);
  return new TetherError('TOOL_FAILED', `Tool "${tool}" failed: ${message}`, { tool });
}

/** The answer to calls/start for a finished call: its result, or its error rebuilt. */
function outcomeOf(entry: JournalEntry, replayed: boolean): CallStartResult {
  if (entry.state === 'completed' && entry.result) {
    return { callId: entry.callId, result: entry.result, replayed, startedAt: entry.startedAt ?? entry.queuedAt, finishedAt: entry.finishedAt ?? Date.now() };
  }
  const error = entry.error ?? { code: 'INTERNAL_ERROR', message: `Call "${entry.callId}" ended without a result.` };
  throw new TetherError(error.code as TetherError['code'], error.message, { ...error.data, callId: entry.callId, state: entry.state, replayed });
}
