/**
 * Calls: the at-most-once engine of a host. Each callId is journaled before it is queued
 * and before it runs; a repeat of a known callId attaches to the live call or gets the
 * stored outcome; an identical call (same tool, same canonical arguments) arriving while one
 * is in flight shares that one execution when the tool's duplicate policy says "attach".
 * Calls can be queried and cancelled by callId; a shared call is cancelled only when every
 * requester has cancelled. While a call is queued or running, every attached connection
 * hears progress at least every heartbeat interval.
 */
import {
  LazyAbort,
  HOST_STATUS_MAX_ENTRIES,
  TetherError,
  clipped,
  type Abortable,
  type Agent,
  type CallProgress,
  type CallStartParams,
  type CallStartResult,
  type CallStatus,
  type DuplicatePolicy,
  type ElicitResult,
  type HostStatusCall,
  type LogLevel,
  type ToolResult,
} from '../protocol/index.js';
import { invalidArguments } from '../schema/tool-arguments.js';
import { CallJournal, hashArguments, isFinal, type JournalEntry, type JournalError } from './call-journal.js';
import { MainThreadExecutor } from './executor.js';
import { duplicatePolicyOf, toToolResult, unknownTool, type RegisteredTool, type ToolContext, type ToolReturn } from './tools.js';

/** The longest a timer waits (2^31 - 1 ms, 24.8 days): past it, Node fires at once. A longer deadline is this one. */
const MAX_TIMER_MS = 2_147_483_647;

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
  /**
   * After a restart or a reload, how long the calls queued before it wait for their
   * requesters to come back before they run (protocol.md §8.5): a cancel sent while the host
   * was away must still find them queued. 0 runs them at once.
   */
  requeueGraceMs?: number;
}

/** One callId that wants the outcome of a live execution (unless its entry says it withdrew). */
interface Requester {
  entry: JournalEntry;
  onWithdraw: Set<(error: TetherError) => void>;
}

/** Who hears about the call: each connection, under each callId it attached by. */
interface Listener {
  observer: CallObserver;
  callId: string;
  /** Requests of this connection waiting under this callId; at 0 it stops hearing about the call. */
  waiting: number;
}

interface LiveCall {
  /** The entry of the callId that actually executes. */
  entry: JournalEntry;
  requesters: Map<string, Requester>;
  listeners: Listener[];
  /** Called once when the call ends (see finish). */
  waiters: Set<() => void>;
  /** The running tool's cancellation; its AbortSignal is built only if the tool looks at it. */
  abort?: LazyAbort;
  lastSentAt: number;
  lastProgress: { progress?: number; total?: number; message?: string };
  /** Queued behind other work: its requesters are told when it starts running. */
  waited: boolean;
}

export class CallManager {
  /** Live calls by every callId that requests them (the executing one and its aliases). */
  private readonly live = new Map<string, LiveCall>();
  /** Every execution queued or running (what the heartbeat walks). */
  private readonly executions = new Set<LiveCall>();
  /** Executions that identical calls may share or be refused by, by tool and canonical arguments. */
  private readonly inFlight = new Map<string, LiveCall>();
  private readonly executor = new MainThreadExecutor<LiveCall>((call) => this.execute(call));
  private heartbeatTimer: NodeJS.Timeout | undefined;
  private readonly journal: CallJournal;
  /** Calls queued again at load whose requesters have not come back yet; nothing starts until they do or the grace ends. */
  private readonly awaitingRequesters = new Set<LiveCall>();
  /** Requeued calls that would not have waited for the main thread: started when the grace ends. */
  private heldOffThread: LiveCall[] = [];
  private graceTimer: NodeJS.Timeout | undefined;

  constructor(private readonly options: CallManagerOptions) {
    this.journal = options.journal;
  }

  /**
   * Loads the journal a previous life left and queues again the calls that never started.
   * Every execution has its aliases back before the first is queued: one may start at once,
   * and its aliases must go "running" with it. Withdrawals are journaled, so they still
   * hold: an execution whose requesters had all withdrawn is cancelled and never runs, and a
   * withdrawn alias cut off while running ends cancelled, as its requests were told.
   */
  restore(): void {
    const { requeue, interrupted } = this.journal.load();
    for (const alias of interrupted.filter((e) => e.aliasOf && e.withdrawn)) this.copyOutcome(alias, undefined);
    const calls = requeue.filter((e) => !e.aliasOf).map((entry) => this.track(entry));
    for (const alias of requeue.filter((e) => e.aliasOf)) {
      const call = this.live.get(alias.aliasOf as string);
      if (call) this.addRequester(call, alias);
      else this.copyOutcome(alias, this.journal.get(alias.aliasOf as string));
    }
    const graceMs = this.options.requeueGraceMs ?? 0;
    const wanted = calls.filter((call) => [...call.requesters.values()].some((r) => !r.entry.withdrawn));
    if (wanted.length > 0 && graceMs > 0) {
      // Their requesters may have cancelled while the host was away: the cancel arrives once
      // they reconnect. Until every one of them is back, or the grace ends, nothing starts.
      this.executor.hold();
      for (const call of wanted) this.awaitingRequesters.add(call);
      this.graceTimer = setTimeout(() => this.endGrace(), graceMs);
      this.graceTimer.unref();
    }
    for (const call of calls) {
      if (wanted.includes(call)) this.schedule(call);
      else this.finish(call, undefined, new TetherError('CANCELLED', `Call "${call.entry.callId}" was cancelled before it started: every requester had cancelled.`, { callId: call.entry.callId, started: false }));
    }
  }

  /** The requeued calls may run: their requesters are back (or had their chance). */
  private endGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    this.awaitingRequesters.clear();
    const offThread = this.heldOffThread;
    this.heldOffThread = [];
    this.executor.release();
    for (const call of offThread) if (call.entry.state === 'queued') void this.execute(call);
  }

  /** A requester of a requeued call is back (or the call ended): the last one back ends the grace. */
  private requesterBack(call: LiveCall | undefined): void {
    if (!call || !this.awaitingRequesters.delete(call)) return;
    if (this.awaitingRequesters.size === 0) this.endGrace();
  }

  /**
   * Starts (or attaches to, or replays) a call. `abandoned` is the request's own: when the
   * connection abandons the request it stops hearing about the call, which carries on;
   * cancelling the call itself is calls/cancel.
   */
  async start(params: CallStartParams, observer: CallObserver, abandoned?: Abortable): Promise<CallStartResult> {
    const args = params.arguments ?? {};
    const argsHash = readableArgumentsHash(params.tool, args);
    const known = this.journal.get(params.callId);
    if (known) {
      if (known.tool !== params.tool || known.argsHash !== argsHash) {
        throw new TetherError(
          'CALL_ID_CONFLICT',
          `callId "${params.callId}" was already used for a different call (tool "${known.tool}"). Use a fresh callId for a new call.`,
          { callId: params.callId, tool: known.tool },
        );
      }
      const waiting = this.await(params.callId, observer, abandoned, params.attachOnly === true);
      this.requesterBack(this.live.get(params.callId));
      return waiting;
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
      argsHash,
      lane: observer.id,
      state: 'queued',
      queuedAt: Date.now(),
      ...(deadlineMs === undefined ? {} : { deadlineMs }),
      ...(tool.descriptor.annotations.readOnlyHint ? { volatile: true as const } : {}),
      ...(params.agent ? { agent: agentOf(params.agent) } : {}),
    };
    const twin = this.inFlight.get(argsHash);
    const policy = duplicatePolicyOf(tool.descriptor);
    if (twin && policy === 'reject') {
      throw new TetherError(
        'DUPLICATE_CALL',
        `An identical "${params.tool}" call is already ${twin.entry.state} (callId "${twin.entry.callId}"). Wait for it (calls/start with that callId attaches) instead of starting another.`,
        { callId: params.callId, inFlight: twin.entry.callId },
      );
    }
    if (twin && policy === 'attach') {
      // The incident-1 shape: a re-sent build must not queue a second build behind the first.
      entry.aliasOf = twin.entry.callId;
      entry.state = twin.entry.state;
      if (twin.entry.startedAt !== undefined) entry.startedAt = twin.entry.startedAt;
      this.accept(entry);
      this.addRequester(twin, entry);
      return this.await(params.callId, observer, abandoned);
    }
    this.accept(entry);
    // Its listener attached (so the starter hears even the first "running" progress) and its
    // requester waiting before it is scheduled: a tool that fails at once, as it is called,
    // ends the call right there, and must find its requester there, or the answer would
    // read as a replay.
    const call = this.track(entry, { observer, callId: entry.callId, waiting: 0 });
    const outcome = this.await(params.callId, observer, abandoned);
    this.schedule(call);
    return outcome;
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
      ...(entry.aliasOf ? { attachedTo: entry.aliasOf } : {}),
      ...(entry.agent ? { agent: entry.agent } : {}),
    };
  }

  /**
   * What host/status says of calls (protocol.md §7.16): every queued or running callId
   * (aliases right after the execution they share), running first, then in the order the
   * queue would run them, each with its last progress; and the calls that ended interrupted
   * within the retention, newest first. Each list holds at most `max`; the rest are counted.
   */
  overview(max = HOST_STATUS_MAX_ENTRIES, now = Date.now()): { calls: HostStatusCall[]; unknownOutcomes: HostStatusCall[]; omitted: { calls: number; unknownOutcomes: number } } {
    const running = [...this.executions].filter((call) => call.entry.state === 'running');
    const queued = this.executor.inOrder(max);
    const inQueue = new Set(queued);
    // Requeued calls held for their requesters, or off-thread ones waiting for the grace: queued, after the rest.
    const waiting = [...this.executions].filter((call) => call.entry.state === 'queued' && !inQueue.has(call));
    let total = 0;
    const calls: HostStatusCall[] = [];
    for (const call of [...running, ...queued, ...waiting]) {
      for (const { entry } of call.requesters.values()) {
        total++;
        if (calls.length >= max) continue;
        const { progress, total: of, message } = call.lastProgress;
        const last = { ...(progress === undefined ? {} : { progress }), ...(of === undefined ? {} : { total: of }), ...(message === undefined ? {} : { message }) };
        calls.push({ ...this.status(entry.callId), ...(Object.keys(last).length > 0 ? { lastProgress: last } : {}) });
      }
    }
    // The queue holds more than was walked: count them too.
    if (queued.length >= max) total += Math.max(0, this.executor.queued - queued.length);
    const interrupted = [...this.journal.values()]
      .filter((entry) => entry.state === 'interrupted' && (entry.finishedAt === undefined || now - entry.finishedAt <= this.journal.retentionMs))
      .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0));
    return {
      calls,
      unknownOutcomes: interrupted.slice(0, max).map((entry) => this.status(entry.callId)),
      omitted: { calls: total - calls.length, unknownOutcomes: Math.max(0, interrupted.length - max) },
    };
  }

  /**
   * Cancels for this requester. While other requesters still want a shared call, only this
   * one withdraws (its request ends as cancelled; the call goes on). Otherwise: queued, the
   * call is removed and never runs; running, its signal fires and the tool decides.
   */
  cancel(callId: string, reason = 'Cancelled by the client.'): CallStatus {
    const call = this.live.get(callId);
    const requester = call?.requesters.get(callId);
    if (!call || !requester) return this.status(callId);
    const started = call.entry.state === 'running';
    const others = [...call.requesters.entries()].filter(([id, r]) => id !== callId && !r.entry.withdrawn).length;
    if (others > 0) {
      const error = new TetherError('CANCELLED', `Call "${callId}" was cancelled for this requester: ${reason} The shared execution continues for ${others} other requester(s).`, {
        callId,
        started,
        shared: true,
      });
      // Journaled before anyone hears of it: a reload must not make this requester want the call again.
      requester.entry.withdrawn = wireError(error);
      try {
        this.journal.save(requester.entry);
      } catch (failure) {
        delete requester.entry.withdrawn;
        throw new TetherError(
          'INTERNAL_ERROR',
          `The host could not write the cancellation of call "${callId}" to its journal (${TetherError.from(failure).message}), so nothing was cancelled. ${journalRemedy(failure)} and cancel again.`,
          { callId },
        );
      }
      for (const notify of requester.onWithdraw) notify(error);
      return this.status(callId);
    }
    if (call.entry.state === 'queued' && (this.executor.remove(call) || this.unholdOffThread(call))) {
      this.finish(call, undefined, new TetherError('CANCELLED', `Call "${callId}" was cancelled before it started: ${reason}`, { callId, started: false }));
    } else if (started) {
      call.abort?.abort(new TetherError('CANCELLED', `Call "${callId}" was cancelled while running: ${reason}`, { callId, started: true }));
    }
    return this.status(callId);
  }

  /** The connection is gone: it stops hearing about calls, which carry on for whoever re-attaches. */
  detach(observer: CallObserver): void {
    for (const call of new Set(this.live.values())) call.listeners = call.listeners.filter((l) => l.observer !== observer);
  }

  private policyOf(toolName: string): DuplicatePolicy {
    const tool = this.options.tools().get(toolName);
    return tool ? duplicatePolicyOf(tool.descriptor) : 'allow';
  }

  /** Takes a requeued off-thread call out of those waiting for the grace to end. */
  private unholdOffThread(call: LiveCall): boolean {
    const before = this.heldOffThread.length;
    this.heldOffThread = this.heldOffThread.filter((held) => held !== call);
    return this.heldOffThread.length < before;
  }

  /** Stops the heartbeat timer; live calls stay journaled as they are. */
  dispose(): void {
    this.executor.pause();
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = undefined;
    if (this.heartbeatTimer) clearInterval(this.heartbeatTimer);
    this.heartbeatTimer = undefined;
  }

  /** Makes a queued entry a live execution that requesters can attach to; schedule runs it. */
  private track(entry: JournalEntry, listener?: Listener): LiveCall {
    const call: LiveCall = {
      entry,
      requesters: new Map(),
      listeners: listener ? [listener] : [],
      waiters: new Set(),
      lastSentAt: Date.now(),
      lastProgress: {},
      waited: false,
    };
    this.addRequester(call, entry);
    this.executions.add(call);
    // An 'allow' twin runs on its own and must not take the place of the one others share.
    if (!this.inFlight.has(entry.argsHash) && this.policyOf(entry.tool) !== 'allow') this.inFlight.set(entry.argsHash, call);
    return call;
  }

  private schedule(call: LiveCall): void {
    call.waited = this.executor.busy || this.executor.queued > 0;
    // A tool that says it does not need the main thread does not wait for it (unless held for its requesters).
    if (this.options.tools().get(call.entry.tool)?.descriptor.execution.mainThread !== false) this.executor.enqueue(call.entry.lane, call);
    else if (this.awaitingRequesters.has(call)) this.heldOffThread.push(call);
    else void this.execute(call);
    // Queued behind other work: said at once, not at the first heartbeat (a call that starts
    // at once has already said "running", or needs to say nothing before its result).
    if (call.entry.state === 'queued' && call.waited) this.sendProgress(call, false);
    this.ensureHeartbeat();
  }

  /** Journals a new callId; one the journal cannot take is not accepted, and nothing ran. */
  private accept(entry: JournalEntry): void {
    try {
      this.journal.save(entry);
    } catch (failure) {
      this.journal.forget(entry.callId);
      throw new TetherError(
        'INTERNAL_ERROR',
        `The host could not write call "${entry.callId}" to its journal (${TetherError.from(failure).message}), so it did not accept it: nothing ran. ${journalRemedy(failure)} and send it again.`,
        { callId: entry.callId, tool: entry.tool, started: false },
      );
    }
  }

  private addRequester(call: LiveCall, entry: JournalEntry): void {
    call.requesters.set(entry.callId, { entry, onWithdraw: new Set() });
    this.live.set(entry.callId, call);
  }

  /** Waits for the outcome under `callId`: the call settling, this requester withdrawing, or the request being abandoned. */
  private async await(callId: string, observer: CallObserver, abandoned?: Abortable, attachOnly = false): Promise<CallStartResult> {
    const call = this.live.get(callId);
    const requester = call?.requesters.get(callId);
    if (!call || !requester) return outcomeOf(this.journal.get(callId) as JournalEntry, true);
    // Re-attaching (a client back after a dropped connection) asks how its call stands, and a
    // requester that withdrew stands withdrawn: only a new calls/start wants the call again.
    if (requester.entry.withdrawn && attachOnly) {
      const { code, message, data } = requester.entry.withdrawn;
      throw new TetherError(code as TetherError['code'], message, { ...data, callId });
    }
    if (requester.entry.withdrawn) {
      // Asking again is wanting it again. Should the journal not take that, it still says
      // withdrawn, which can only get the call cancelled, and that is what this request hears.
      delete requester.entry.withdrawn;
      try {
        this.journal.save(requester.entry);
      } catch {
        // As above.
      }
    }
    // The starter's listener was attached when the call was queued; a repeat shares it.
    let listener = call.listeners.find((l) => l.observer === observer && l.callId === callId);
    if (!listener) call.listeners.push((listener = { observer, callId, waiting: 0 }));
    listener.waiting++;
    // One promise, ended by whichever comes first: the call ending, this requester withdrawing,
    // or the request being abandoned (a race would build four promises on every call).
    let end!: (error?: TetherError) => void;
    const ended = new Promise<TetherError | undefined>((resolve) => (end = resolve));
    call.waiters.add(end);
    requester.onWithdraw.add(end);
    abandoned?.onAbort(end);
    try {
      const how = await ended;
      if (how) throw how;
    } finally {
      call.waiters.delete(end);
      requester.onWithdraw.delete(end);
      abandoned?.offAbort(end);
      if (--listener.waiting === 0) call.listeners = call.listeners.filter((l) => l !== listener);
    }
    // The requester's own entry: the journal may already have forgotten a read-only one.
    return outcomeOf(requester.entry, false);
  }

  private async execute(call: LiveCall): Promise<void> {
    const { entry } = call;
    const tool = this.options.tools().get(entry.tool);
    if (!tool) {
      this.finish(call, undefined, unknownTool(entry.tool, this.options.tools().keys()));
      return;
    }
    const now = Date.now();
    // Written before the tool runs: a crash from here on is "interrupted", for every requester.
    // A tool whose start cannot be journaled does not run: a crash would run it again.
    try {
      for (const requester of call.requesters.values()) {
        requester.entry.state = 'running';
        requester.entry.startedAt = now;
        this.journal.save(requester.entry);
      }
    } catch (failure) {
      for (const { entry: requester } of call.requesters.values()) {
        requester.state = 'queued';
        delete requester.startedAt;
      }
      this.finish(
        call,
        undefined,
        new TetherError(
          'INTERNAL_ERROR',
          `The host could not write to its journal that "${entry.tool}" was starting (${TetherError.from(failure).message}), so it did not run it. ${journalRemedy(failure)}, then call again with a fresh callId.`,
          { callId: entry.callId, tool: entry.tool, started: false },
        ),
      );
      return;
    }
    const abort = new LazyAbort();
    call.abort = abort;
    // A call that started at once needs no "running" notice (one frame less per call);
    // one that waited in the queue does, and heartbeats follow either way.
    if (call.waited) this.sendProgress(call, false);

    const deadlineMs = entry.deadlineMs ?? this.options.defaultDeadlineMs;
    const deadline = setTimeout(() => {
      abort.abort(
        new TetherError('DEADLINE_EXCEEDED', `"${entry.tool}" ran past its ${deadlineMs} ms deadline and was cancelled. Raise the deadline for longer work.`, {
          callId: entry.callId,
          deadlineMs,
        }),
      );
    }, Math.min(deadlineMs, MAX_TIMER_MS));
    deadline.unref();

    let value: ToolReturn;
    try {
      value = await tool.handler(entry.arguments, this.contextFor(call, abort));
    } catch (error) {
      this.finish(call, undefined, abort.reason ?? toolFailure(entry.tool, error));
      return;
    } finally {
      clearTimeout(deadline);
    }
    let result: ToolResult;
    try {
      result = toToolResult(value, entry.tool, tool.checkOutput);
    } catch (error) {
      // The tool ran to its end, cancelled or not: its result is what is wrong, and says so.
      this.finish(call, undefined, TetherError.from(error));
      return;
    }
    this.finish(call, result, undefined);
  }

  private contextFor(call: LiveCall, abort: LazyAbort): ToolContext {
    const { callId } = call.entry;
    const asker = <K extends 'elicit' | 'sample'>(kind: K): Listener => {
      const chosen = call.listeners.filter((l) => l.observer[kind] !== undefined).at(-1);
      if (!chosen) {
        throw new TetherError('NO_CLIENT', `No connected client can answer a ${kind === 'elicit' ? 'question (elicitation)' : 'sampling request'} for call "${callId}".`, {
          callId,
        });
      }
      return chosen;
    };
    const { agent } = call.entry;
    return {
      callId,
      ...(agent ? { agent } : {}),
      get signal() {
        return abort.signal;
      },
      progress: (update) => {
        call.lastProgress = { ...update };
        this.sendProgress(call, false);
      },
      log: (level, data, logger) => {
        for (const l of call.listeners) l.observer.log(l.callId, level, data, logger);
      },
      elicit: async (message, requestedSchema) => {
        const l = asker('elicit');
        return l.observer.elicit!(l.callId, message, requestedSchema, abort.signal);
      },
      sample: async (params) => {
        const l = asker('sample');
        return l.observer.sample!(l.callId, params, abort.signal);
      },
    };
  }

  private finish(call: LiveCall, result: ToolResult | undefined, error: TetherError | undefined): void {
    const { entry } = call;
    if (isFinal(entry)) return;
    if (error) this.finalize(entry, stateFor(error), undefined, wireError(error));
    else this.finalize(entry, 'completed', result ?? { content: [] }, undefined);
    for (const [callId, requester] of call.requesters) {
      this.live.delete(callId);
      if (requester.entry !== entry) this.copyOutcome(requester.entry, entry);
    }
    if (this.inFlight.get(entry.argsHash) === call) this.inFlight.delete(entry.argsHash);
    this.executions.delete(call);
    this.requesterBack(call);
    for (const waiter of call.waiters) waiter();
    if (this.executions.size === 0 && this.heartbeatTimer) {
      clearInterval(this.heartbeatTimer);
      this.heartbeatTimer = undefined;
    }
    this.journal.prune();
  }

  /** An alias ends as the execution it shared ended, or cancelled if it withdrew. */
  private copyOutcome(alias: JournalEntry, source: JournalEntry | undefined): void {
    if (alias.withdrawn) this.finalize(alias, 'cancelled', undefined, alias.withdrawn);
    else if (source && isFinal(source)) this.finalize(alias, source.state, source.result, source.error);
    else this.finalize(alias, 'interrupted', undefined, wireError(new TetherError('OUTCOME_UNKNOWN', `The call "${alias.callId}" shared an execution whose outcome is unknown.`)));
  }

  /**
   * Records a final state. If the journal cannot take it, memory keeps it (and the next
   * compaction writes it) and the call's outcome stands, except for a call that never ran:
   * the journal still says "queued", which runs on the next load, so no one may be told
   * that it will not run.
   */
  private finalize(target: JournalEntry, state: JournalEntry['state'], result: ToolResult | undefined, error: JournalError | undefined): void {
    const neverRan = target.state === 'queued';
    target.state = state;
    target.finishedAt = Date.now();
    if (result) target.result = result;
    if (error) target.error = { ...error, data: { ...error.data, callId: target.callId } };
    try {
      this.journal.save(target);
    } catch (failure) {
      if (!neverRan) return;
      target.state = 'interrupted';
      delete target.result;
      target.error = {
        code: 'OUTCOME_UNKNOWN',
        message: `The host could not write the outcome of call "${target.callId}" to its journal (${TetherError.from(failure).message}). "${target.tool}" has not run, but the journal still shows it queued, so it may run if the host restarts before it can write its journal again. Check the editor's state before running it again.`,
        data: { callId: target.callId, tool: target.tool },
      };
    }
  }

  private sendProgress(call: LiveCall, heartbeat: boolean): void {
    const { entry } = call;
    if (entry.state !== 'queued' && entry.state !== 'running') return;
    call.lastSentAt = Date.now();
    const base = {
      state: entry.state,
      heartbeat,
      elapsedMs: call.lastSentAt - (entry.startedAt ?? entry.queuedAt),
      ...call.lastProgress,
    };
    for (const l of call.listeners) l.observer.progress({ callId: l.callId, ...base });
  }

  /** One ticker for all live calls; a call hears a heartbeat when nothing was sent for it lately. */
  private ensureHeartbeat(): void {
    if (this.heartbeatTimer) return;
    const tick = Math.max(20, Math.floor(this.options.heartbeatMs / 5));
    this.heartbeatTimer = setInterval(() => {
      const now = Date.now();
      for (const call of this.executions) {
        if (now - call.lastSentAt + tick >= this.options.heartbeatMs) this.sendProgress(call, true);
      }
    }, tick);
    this.heartbeatTimer.unref();
  }
}

/** What to do about a journal the system would not let the host write, from the system's reason. */
export function journalRemedy(failure: unknown): string {
  switch ((failure as NodeJS.ErrnoException | undefined)?.code) {
    case 'ENOSPC':
    case 'EDQUOT':
      return 'Free disk space';
    case 'EACCES':
    case 'EPERM':
    case 'EROFS':
      return "Let the editor write its project's Library folder (permissions, or a read-only disk)";
    case 'ENOTDIR':
    case 'EEXIST': // a file where a folder of the path should be
    case 'ENOENT':
      return 'Open the editor on a project folder it can write';
    case 'EISDIR':
      return "Give the journal a file's path, not a folder's";
    default:
      return 'Fix the disk or the project folder';
  }
}

/** The agent as journaled: its name and version only, whatever else the client sent. */
function agentOf(agent: Agent): Agent {
  return { name: agent.name, ...(agent.version === undefined ? {} : { version: agent.version }) };
}

function wireError(error: TetherError): JournalError {
  return { code: error.code, message: error.message, data: { ...error.data } };
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
    return {
      callId: entry.callId,
      result: entry.result,
      replayed,
      ...(entry.aliasOf ? { attachedTo: entry.aliasOf } : {}),
      startedAt: entry.startedAt ?? entry.queuedAt,
      finishedAt: entry.finishedAt ?? Date.now(),
    };
  }
  const error = entry.error ?? { code: 'INTERNAL_ERROR', message: `Call "${entry.callId}" ended without a result.` };
  throw new TetherError(error.code as TetherError['code'], error.message, { ...error.data, callId: entry.callId, state: entry.state, replayed });
}

/** The arguments' hash, or INVALID_ARGUMENTS for arguments nested too deeply to walk (thousands of levels). */
function readableArgumentsHash(tool: string, args: unknown): string {
  try {
    return hashArguments(tool, args);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw invalidArguments(clipped(tool), '', 'are nested too deeply to be read (thousands of levels); send them flatter');
  }
}
