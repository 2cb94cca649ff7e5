/**
 * A live call: an execution that is queued or running, with every callId that wants its
 * outcome (the executing one and the aliases of identical calls that attached to it) and every
 * connection that hears about it, under the callId it attached by.
 */
import type { Abortable, CallStartResult, LazyAbort, LogLevel, TetherError } from '../protocol/index.js';
import type { CallObserver } from './call-observer.js';
import { outcomeOf } from './call-outcomes.js';
import type { JournalEntry } from './journal-entry.js';

/** One callId that wants the outcome of a live execution (unless its entry says it withdrew). */
export interface Requester {
  entry: JournalEntry;
  /** This callId's waiting requests, ended at once when it withdraws (an array: rarely more than one). */
  onWithdraw: Array<(error: TetherError) => void>;
}

/** A connection hearing about the call under one callId. */
export interface CallListener {
  observer: CallObserver;
  callId: string;
  /** Requests of this connection waiting under this callId; at 0 it stops hearing about the call. */
  waiting: number;
}

/** What a tool last reported (each report replaces the one before), repeated in heartbeats. */
export interface ToolProgress {
  progress?: number;
  total?: number;
  message?: string;
}

export class LiveCall {
  readonly requesters = new Map<string, Requester>();
  /** Most recently attached last: the one asked to elicit or sample. */
  listeners: CallListener[];
  /** Called once when the call ends (an array, not a Set: almost always one, built on every call). */
  readonly waiters: Array<() => void> = [];
  /** The running tool's cancellation; its AbortSignal is built only if the tool looks at it. */
  abort: LazyAbort | undefined;
  /**
   * When progress was last sent for it, on the monotonic clock (performance.now): a heartbeat
   * follows heartbeatMs of silence, and a wall clock stepped back would hold it back that long.
   */
  lastSentAt = performance.now();
  lastProgress: ToolProgress = {};
  /** Queued behind other work: its requesters are told when it starts running. */
  waited = false;
  /** Its deadline passed and its signal fired: the grace before it is given up has begun. */
  overdue = false;
  /** Frees the main thread for the next call (the executor's), while the tool may still run. */
  releaseMainThread: (() => void) | undefined;

  constructor(
    /** The entry of the callId that actually executes. */
    readonly entry: JournalEntry,
    listener?: CallListener,
  ) {
    this.listeners = listener ? [listener] : [];
  }

  addRequester(entry: JournalEntry): void {
    this.requesters.set(entry.callId, { entry, onWithdraw: [] });
  }

  /** Tells every listener how the call stands (a heartbeat when the tool said nothing new). */
  sendProgress(heartbeat: boolean): void {
    const { entry } = this;
    if (entry.state !== 'queued' && entry.state !== 'running') return;
    this.lastSentAt = performance.now();
    const base = {
      state: entry.state,
      heartbeat,
      elapsedMs: Date.now() - (entry.startedAt ?? entry.queuedAt),
      ...this.lastProgress,
    };
    for (const l of this.listeners) l.observer.progress({ callId: l.callId, ...base });
  }

  log(level: LogLevel, data: unknown, logger?: string): void {
    for (const l of this.listeners) l.observer.log(l.callId, level, data, logger);
  }

  /** The connection is gone: it hears no more about this call. */
  detach(observer: CallObserver): void {
    this.listeners = this.listeners.filter((l) => l.observer !== observer);
  }

  /**
   * The outcome for `requester`, heard by `observer` until then: the call settling, the
   * requester withdrawing, or the request being abandoned, whichever comes first.
   */
  async outcomeFor(requester: Requester, observer: CallObserver, abandoned: Abortable | undefined): Promise<CallStartResult> {
    const { callId } = requester.entry;
    // The starter's listener was attached when the call was queued; a repeat shares it.
    let listener = this.listeners.find((l) => l.observer === observer && l.callId === callId);
    if (!listener) this.listeners.push((listener = { observer, callId, waiting: 0 }));
    listener.waiting++;
    // One promise, ended by whichever comes first (a race would build four promises on every call).
    let end!: (error?: TetherError) => void;
    const ended = new Promise<TetherError | undefined>((resolve) => (end = resolve));
    this.waiters.push(end);
    requester.onWithdraw.push(end);
    abandoned?.onAbort(end);
    try {
      const how = await ended;
      if (how) throw how;
    } finally {
      removeFrom(this.waiters, end);
      removeFrom(requester.onWithdraw, end);
      abandoned?.offAbort(end);
      if (--listener.waiting === 0) this.listeners = this.listeners.filter((l) => l !== listener);
    }
    // The requester's own entry: the journal may already have forgotten a read-only one.
    return outcomeOf(requester.entry, false);
  }
}

function removeFrom<T>(items: T[], item: T): void {
  const at = items.indexOf(item);
  if (at >= 0) items.splice(at, 1);
}
