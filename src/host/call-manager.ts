/**
 * The call engine's coordinator: the at-most-once rules of a host. Each callId is journaled
 * before it is queued and before it runs; a repeat of a known callId attaches to the live
 * call or gets the stored outcome; an identical call (same tool, same canonical arguments)
 * arriving while one is in flight shares that one execution when the tool's duplicate policy
 * says "attach". Calls can be queried and cancelled by callId; a shared call is cancelled only
 * when every requester has cancelled. The rooms it coordinates: admission (call-admission.ts),
 * the journal (call-journal.ts), live calls (live-call.ts), the fair main-thread executor
 * (executor.ts), the runner of a tool (call-runner.ts), outcomes (call-outcomes.ts), the
 * requeue grace (requeue-grace.ts) and the heartbeat (heartbeat.ts).
 */
import { HOST_STATUS_MAX_ENTRIES, TetherError, type Abortable, type CallStartParams, type CallStartResult, type CallStatus, type DuplicatePolicy, type ToolResult } from '../protocol/index.js';
import type { CallJournal } from './call-journal.js';
import { argsHashOf, executionToShare, queuedEntry, readableArgumentsHash } from './call-admission.js';
import { callErrors } from './call-errors.js';
import type { CallObserver } from './call-observer.js';
import { callOverview, type CallOverview } from './call-overview.js';
import { copyOutcome, outcomeOf, recordFinal, stateFor, statusOf, wireError } from './call-outcomes.js';
import { CallRunner } from './call-runner.js';
import { MainThreadExecutor } from './executor.js';
import { HeartbeatTicker } from './heartbeat.js';
import { isFinal, type JournalEntry } from './journal-entry.js';
import { LiveCall, type CallListener } from './live-call.js';
import { RequeueGrace } from './requeue-grace.js';
import { duplicatePolicyOf, unknownTool, type RegisteredTool } from './tools.js';

export interface CallManagerOptions {
  journal: CallJournal;
  tools(): ReadonlyMap<string, RegisteredTool>;
  /** Longest silence allowed while a call is queued or running. */
  heartbeatMs: number;
  /** Execution deadline when neither the call nor the tool sets one. */
  defaultDeadlineMs: number;
  /** How long past its deadline a tool that has not stopped is waited for (protocol.md §8.6). */
  deadlineGraceMs: number;
  /**
   * After a restart or a reload, how long the calls queued before it wait for their
   * requesters to come back before they run (protocol.md §8.5): a cancel sent while the host
   * was away must still find them queued. 0 runs them at once.
   */
  requeueGraceMs?: number;
  /**
   * This is the first life of the editor's process, not one after a domain reload: a call
   * found queued was left by an editor that stopped (crashed), maybe long ago, and runs only
   * if one of its requesters comes back for it within the grace (protocol.md §8.5). The mark
   * is journaled with the call (leftByRestart), so it outlives a domain reload within the grace.
   */
  afterRestart?: boolean;
}

export class CallManager {
  /** Live calls by every callId that requests them (the executing one and its aliases). */
  private readonly live = new Map<string, LiveCall>();
  /** Every execution queued or running (what the heartbeat walks). */
  private readonly executions = new Set<LiveCall>();
  /** Executions that identical calls may share or be refused by, by tool and canonical arguments. */
  private readonly inFlight = new Map<string, LiveCall>();
  private readonly journal: CallJournal;
  private readonly runner: CallRunner;
  /** Set once the host closes for good (cancelQueued): why nothing more starts. */
  private closedForGood: string | undefined;
  private readonly executor = new MainThreadExecutor<LiveCall>((call, release) => this.runner.run(call, release));
  private readonly heartbeat: HeartbeatTicker<LiveCall>;
  private readonly grace = new RequeueGrace<LiveCall>();
  private restored = false;

  constructor(private readonly options: CallManagerOptions) {
    this.journal = options.journal;
    this.runner = new CallRunner({
      journal: options.journal,
      tools: () => options.tools(),
      defaultDeadlineMs: options.defaultDeadlineMs,
      deadlineGraceMs: options.deadlineGraceMs,
      finish: (call, result, error) => this.finish(call, result, error),
    });
    this.heartbeat = new HeartbeatTicker(
      options.heartbeatMs,
      () => this.executions,
      (call) => call.sendProgress(true),
    );
  }

  /**
   * Loads the journal a previous life left and queues again the calls that never started.
   * Every execution has its aliases back before the first is queued: one may start at once,
   * and its aliases must go "running" with it. Withdrawals are journaled, so they still
   * hold: an execution whose requesters had all withdrawn is cancelled and never runs, and a
   * withdrawn alias cut off while running ends cancelled, as its requests were told.
   */
  restore(): void {
    // Twice, it would queue again, beside themselves, the calls it queued the first time: each would run twice.
    if (this.restored) throw new TetherError('INTERNAL_ERROR', 'This host has loaded its journal already: a host loads it once, as it starts.');
    this.restored = true;
    const { requeue, interrupted } = this.journal.load();
    for (const alias of interrupted.filter((e) => e.aliasOf && e.withdrawn)) copyOutcome(this.journal, alias, undefined);
    const calls = requeue.filter((e) => !e.aliasOf).map((entry) => this.track(entry));
    for (const alias of requeue.filter((e) => e.aliasOf)) {
      const call = this.live.get(alias.aliasOf as string);
      if (call) this.addRequester(call, alias);
      else copyOutcome(this.journal, alias, this.journal.get(alias.aliasOf as string));
    }
    const graceMs = this.options.requeueGraceMs ?? 0;
    const wanted = calls.filter((call) => [...call.requesters.values()].some((r) => !r.entry.withdrawn));
    if (this.options.afterRestart === true) for (const call of wanted) this.markLeftByRestart(call);
    if (wanted.length > 0 && graceMs > 0) {
      // Their requesters may have cancelled while the host was away: the cancel arrives once
      // they reconnect. Until every one of them is back, or the grace ends, nothing starts.
      this.executor.hold();
      this.grace.begin(wanted, graceMs, (offThread, unclaimed) => this.endGrace(offThread, unclaimed.filter(leftByRestart)));
    }
    for (const call of calls) {
      if (!wanted.includes(call)) this.finish(call, undefined, callErrors.everyRequesterWithdrew(call.entry.callId));
      // Left by a restart, with no grace: nobody can come back for it.
      else if (leftByRestart(call) && graceMs <= 0) this.finish(call, undefined, callErrors.unclaimedAfterRestart(call.entry.callId));
      else this.schedule(call);
    }
  }

  /**
   * A restart found this call queued: journaled as such, so that a domain reload before a
   * requester comes back keeps it from running for no one. Should the journal not take the
   * mark, this life still holds it, and only a reload within the grace would lose it.
   */
  private markLeftByRestart(call: LiveCall): void {
    call.entry.leftByRestart = true;
    try {
      this.journal.save(call.entry);
    } catch {
      // This life holds the mark, and the grace ends as it would have.
    }
  }

  /**
   * A requester of a requeued call is back (or a new identical call shares it): a call a restart
   * left is wanted again, in this life and the next, and the grace may end.
   */
  private requesterCameBack(call: LiveCall | undefined): void {
    if (call && leftByRestart(call)) {
      delete call.entry.leftByRestart;
      try {
        this.journal.save(call.entry);
      } catch {
        // Only a reload within the grace would then cancel it, and its requester, re-attaching, hears that.
      }
    }
    this.grace.requesterBack(call);
  }

  /**
   * Starts (or attaches to, or replays) a call. `abandoned` is the request's own: when the
   * connection abandons the request it stops hearing about the call, which carries on;
   * cancelling the call itself is calls/cancel.
   */
  async start(params: CallStartParams, observer: CallObserver, abandoned?: Abortable): Promise<CallStartResult> {
    const known = this.journal.get(params.callId);
    if (known) {
      if (known.tool !== params.tool || argsHashOf(known) !== readableArgumentsHash(params.tool, params.arguments ?? {})) throw callErrors.conflict(params.callId, known.tool);
      const waiting = this.await(params.callId, observer, abandoned, params.attachOnly === true);
      const call = this.live.get(params.callId);
      this.requesterCameBack(call);
      return waiting;
    }
    if (params.attachOnly) throw callErrors.unknownOnAttach(params.callId);
    const tool = this.options.tools().get(params.tool);
    if (!tool) throw unknownTool(params.tool, this.options.tools().keys());
    const entry = queuedEntry(params, tool, observer.id);
    // An entry with its hash put off shares no execution (its policy is "allow").
    const shared = entry.argsHash === undefined ? undefined : executionToShare(entry, tool, this.inFlight.get(entry.argsHash));
    if (shared) {
      this.accept(entry);
      this.addRequester(shared, entry);
      const waiting = this.await(params.callId, observer, abandoned);
      // A client wanting it: a call a restart left is claimed, as by its own requester.
      this.requesterCameBack(shared);
      return waiting;
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
    if (!entry) throw callErrors.unknown(callId);
    const call = this.live.get(callId);
    return statusOf(entry, call && entry.state === 'queued' ? this.executor.position(call) : undefined);
  }

  /** What host/status says of calls (see call-overview.ts). */
  overview(max = HOST_STATUS_MAX_ENTRIES, now = Date.now()): CallOverview {
    return callOverview({ executions: this.executions, executor: this.executor, journal: this.journal, status: (callId) => this.status(callId) }, max, now);
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
      const error = callErrors.withdrawn(callId, reason, started, others);
      // Journaled before anyone hears of it: a reload must not make this requester want the call again.
      requester.entry.withdrawn = wireError(error);
      try {
        this.journal.save(requester.entry);
      } catch (failure) {
        delete requester.entry.withdrawn;
        throw callErrors.withdrawalNotJournaled(callId, failure);
      }
      for (const notify of requester.onWithdraw) notify(error);
      return this.status(callId);
    }
    if (call.entry.state === 'queued' && this.unqueue(call)) {
      this.finish(call, undefined, callErrors.cancelledQueued(callId, reason));
    } else if (started) {
      call.abort?.abort(callErrors.cancelledRunning(callId, reason));
    }
    return this.status(callId);
  }

  /**
   * The host is going away for good (quit, shutdown; not a reload): every call still queued
   * ends cancelled, never started, and its requesters hear it before the bye. Left queued in
   * the journal, it would run whenever the editor next starts, maybe days later, for no one.
   */
  cancelQueued(reason: string): void {
    // Nothing starts from now on: not the next queued call (a grace ending as its last call is
    // cancelled would release the executor), nor one that arrives before the bye.
    this.closedForGood = reason;
    this.executor.pause();
    for (const call of [...this.executions]) {
      if (call.entry.state !== 'queued') continue;
      this.unqueue(call);
      this.finish(call, undefined, callErrors.cancelledQueued(call.entry.callId, reason));
    }
  }

  /** Takes a queued call out of where it waits (the executor's queue, or the grace's off-thread hold); false when it waits in neither. */
  private unqueue(call: LiveCall): boolean {
    return this.executor.remove(call) || this.grace.releaseOffThread(call);
  }

  /** The connection is gone: it stops hearing about calls, which carry on for whoever re-attaches. */
  detach(observer: CallObserver): void {
    for (const call of new Set(this.live.values())) call.detach(observer);
  }

  /** Stops the timers and starts nothing more; live calls stay journaled as they are. */
  dispose(): void {
    this.executor.pause();
    this.grace.dispose();
    this.heartbeat.stop();
    this.runner.dispose();
  }

  /**
   * The requeued calls may run: their requesters are back (or had their chance). After a
   * restart, those nobody came back for never run.
   */
  private endGrace(offThread: LiveCall[], unclaimed: LiveCall[]): void {
    if (this.closedForGood !== undefined) return;
    for (const call of unclaimed) {
      if (call.entry.state !== 'queued') continue;
      this.unqueue(call);
      this.finish(call, undefined, callErrors.unclaimedAfterRestart(call.entry.callId));
    }
    this.executor.release();
    for (const call of offThread) if (call.entry.state === 'queued') void this.runner.run(call);
  }

  /** Waits for the outcome under `callId`: the call settling, this requester withdrawing, or the request being abandoned. */
  private await(callId: string, observer: CallObserver, abandoned?: Abortable, attachOnly = false): Promise<CallStartResult> {
    const call = this.live.get(callId);
    const requester = call?.requesters.get(callId);
    if (!call || !requester) return replay(this.journal.get(callId) as JournalEntry);
    // Re-attaching (a client back after a dropped connection) asks how its call stands, and a
    // requester that withdrew stands withdrawn: only a new calls/start wants the call again.
    if (requester.entry.withdrawn && attachOnly) {
      const { code, message, data } = requester.entry.withdrawn;
      return Promise.reject(new TetherError(code as TetherError['code'], message, { ...data, callId }));
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
    return call.outcomeFor(requester, observer, abandoned);
  }

  /**
   * Ends an execution: its final state journaled, then every alias's, then every waiting
   * request answered. Nothing is sent for it after this.
   */
  private finish(call: LiveCall, result: ToolResult | undefined, error: TetherError | undefined): void {
    const { entry } = call;
    if (isFinal(entry)) return;
    if (error) recordFinal(this.journal, entry, stateFor(error), undefined, wireError(error));
    else recordFinal(this.journal, entry, 'completed', result ?? { content: [] }, undefined);
    for (const [callId, requester] of call.requesters) {
      this.live.delete(callId);
      if (requester.entry !== entry) copyOutcome(this.journal, requester.entry, entry);
    }
    if (entry.argsHash !== undefined && this.inFlight.get(entry.argsHash) === call) this.inFlight.delete(entry.argsHash);
    this.executions.delete(call);
    this.grace.requesterBack(call);
    for (const waiter of call.waiters) waiter();
    this.journal.prune();
  }

  private policyOf(toolName: string): DuplicatePolicy {
    const tool = this.options.tools().get(toolName);
    return tool ? duplicatePolicyOf(tool.descriptor) : 'allow';
  }

  /** Makes a queued entry a live execution that requesters can attach to; schedule runs it. */
  private track(entry: JournalEntry, listener?: CallListener): LiveCall {
    const call = new LiveCall(entry, listener);
    this.addRequester(call, entry);
    this.executions.add(call);
    // An 'allow' twin runs on its own and must not take the place of the one others share.
    if (entry.argsHash !== undefined && !this.inFlight.has(entry.argsHash) && this.policyOf(entry.tool) !== 'allow') this.inFlight.set(entry.argsHash, call);
    return call;
  }

  private schedule(call: LiveCall): void {
    if (this.closedForGood !== undefined) {
      this.finish(call, undefined, callErrors.cancelledQueued(call.entry.callId, this.closedForGood));
      return;
    }
    call.waited = this.executor.busy || this.executor.queued > 0;
    // A tool that says it does not need the main thread does not wait for it (unless held for its requesters).
    if (this.options.tools().get(call.entry.tool)?.descriptor.execution.mainThread !== false) this.executor.enqueue(call.entry.lane, call);
    else if (this.grace.isHolding(call)) this.grace.holdOffThread(call);
    else void this.runner.run(call);
    // Queued behind other work: said at once, not at the first heartbeat (a call that starts
    // at once has already said "running", or needs to say nothing before its result).
    if (call.entry.state === 'queued' && call.waited) call.sendProgress(false);
    this.heartbeat.ensure();
  }

  /** Journals a new callId; one the journal cannot take is not accepted, and nothing ran. */
  private accept(entry: JournalEntry): void {
    try {
      this.journal.save(entry);
    } catch (failure) {
      this.journal.forget(entry.callId);
      throw callErrors.notAccepted(entry.callId, entry.tool, failure);
    }
  }

  private addRequester(call: LiveCall, entry: JournalEntry): void {
    call.addRequester(entry);
    this.live.set(entry.callId, call);
  }
}

/** The answer to a repeat of a callId that has ended: its stored outcome, replayed. */
async function replay(entry: JournalEntry): Promise<CallStartResult> {
  return outcomeOf(entry, true);
}

/** Whether a restart left this call queued and no requester has come back for it yet. */
function leftByRestart(call: LiveCall): boolean {
  return call.entry.leftByRestart === true;
}
