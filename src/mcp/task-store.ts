/**
 * The front's tasks: tool calls that run in the background while the client polls. A task
 * owns its own AbortController (cancelling the task cancels the call at the host), keeps a
 * status and a status message, and ends in exactly one terminal state, which never changes
 * afterwards. The store is bounded (the oldest finished tasks make room for new ones) and
 * forgets a finished task once its time to live has passed; every timer is unref'd and
 * `close()` clears them all.
 *
 * This module knows nothing of the wire: task-wire.ts maps records to the shapes of each
 * protocol era (2025-11-25 and the 2026-07-28 io.modelcontextprotocol/tasks extension).
 */
import { randomUUID } from 'node:crypto';
import type { CallToolResult, ProtocolEra } from '@modelcontextprotocol/server';
import { TetherError } from '../protocol/index.js';

export type TaskStatus = 'working' | 'input_required' | 'completed' | 'failed' | 'cancelled';
export type TerminalStatus = 'completed' | 'failed' | 'cancelled';

/** A JSON-RPC error, as a failed task reports it. */
export interface TaskRpcError {
  code: number;
  message: string;
  data?: unknown;
}

/** How a task ended: its terminal status and what tasks/get (or tasks/result) returns for it. */
export interface TaskEnd {
  status: TerminalStatus;
  statusMessage?: string;
  /** The tool result (also for isError results, and for cancelled calls that produced one). */
  result?: CallToolResult;
  /** The JSON-RPC error the call would have answered with. */
  error?: TaskRpcError;
}

export interface TaskRecord {
  readonly taskId: string;
  /** The protocol era that created it: legacy (2025-11-25 task-augmented tools/call) or modern (2026-07-28 tasks extension). */
  readonly era: ProtocolEra;
  /** A token of the session (MCP server instance) that created the task: tasks/list shows a session its own tasks only. */
  readonly owner: object | undefined;
  readonly tool: string;
  status: TaskStatus;
  statusMessage: string | undefined;
  readonly createdAt: number;
  lastUpdatedAt: number;
  /** The time to live reported to the client, from creation; it grows when a task outlives it. */
  ttlMs: number;
  readonly pollIntervalMs: number;
  result: CallToolResult | undefined;
  error: TaskRpcError | undefined;
  /** Resolves once the task is terminal. */
  readonly settled: Promise<void>;
}

export interface TaskStoreOptions {
  /** Most tasks kept at once (running and finished). */
  maxTasks?: number;
  /** Time to live when the client asks for none. */
  defaultTtlMs?: number;
  /** Bounds of a time to live the client asks for. */
  minTtlMs?: number;
  maxTtlMs?: number;
  /**
   * How long a finished task is kept at least (at most its time to live), even when its time
   * to live from creation has already passed: a long build's result must not vanish at once.
   */
  minRetentionMs?: number;
  /** The polling interval suggested to clients. */
  pollIntervalMs?: number;
}

export interface TaskStart {
  era: ProtocolEra;
  tool: string;
  owner?: object;
  /** The time to live the client asked for, if any. */
  ttlMs?: number;
  statusMessage?: string;
}

/** What a task's work receives: the signal that cancels it, and a way to report progress. */
export interface TaskWork {
  signal: AbortSignal;
  report(statusMessage: string): void;
  record: TaskRecord;
}

interface Entry {
  record: TaskRecord;
  controller: AbortController;
  settle: () => void;
  retentionMs: number;
  expiry: NodeJS.Timeout | undefined;
}

export class TaskStore {
  readonly maxTasks: number;
  readonly defaultTtlMs: number;
  readonly minTtlMs: number;
  readonly maxTtlMs: number;
  readonly minRetentionMs: number;
  readonly pollIntervalMs: number;
  private readonly entries = new Map<string, Entry>();
  private closed = false;

  constructor(options: TaskStoreOptions = {}) {
    this.maxTasks = options.maxTasks ?? 1_000;
    this.defaultTtlMs = options.defaultTtlMs ?? 15 * 60_000;
    this.minTtlMs = options.minTtlMs ?? 1_000;
    this.maxTtlMs = options.maxTtlMs ?? 24 * 60 * 60_000;
    this.minRetentionMs = options.minRetentionMs ?? 15 * 60_000;
    this.pollIntervalMs = options.pollIntervalMs ?? 1_000;
  }

  get size(): number {
    return this.entries.size;
  }

  /** Whether a task of this owner has not reached a terminal status yet. */
  hasRunning(owner: object): boolean {
    for (const { record } of this.entries.values()) if (record.owner === owner && !isTerminal(record.status)) return true;
    return false;
  }

  /**
   * Creates a working task and starts its work at once. Returns undefined when the store is
   * full of running tasks (or closed): the caller answers without a task, or with an error.
   */
  start(start: TaskStart, work: (task: TaskWork) => Promise<TaskEnd>): TaskRecord | undefined {
    if (this.closed || !this.makeRoom()) return undefined;
    const now = Date.now();
    const ttlMs = this.grantTtl(start.ttlMs);
    let settle!: () => void;
    const settled = new Promise<void>((resolve) => (settle = resolve));
    const record: TaskRecord = {
      taskId: randomUUID(),
      era: start.era,
      owner: start.owner,
      tool: start.tool,
      status: 'working',
      statusMessage: start.statusMessage,
      createdAt: now,
      lastUpdatedAt: now,
      ttlMs,
      pollIntervalMs: this.pollIntervalMs,
      result: undefined,
      error: undefined,
      settled,
    };
    const entry: Entry = { record, controller: new AbortController(), settle, retentionMs: ttlMs, expiry: undefined };
    this.entries.set(record.taskId, entry);
    const report = (statusMessage: string): void => {
      if (record.status !== 'working' || statusMessage === record.statusMessage) return;
      record.statusMessage = statusMessage;
      record.lastUpdatedAt = Date.now();
    };
    void Promise.resolve()
      .then(() => work({ signal: entry.controller.signal, report, record }))
      .then(
        (end) => this.finish(entry, end),
        (error: unknown) => {
          const { message } = TetherError.from(error);
          this.finish(entry, { status: 'failed', statusMessage: message, error: { code: -32603, message } });
        },
      );
    return record;
  }

  get(taskId: string): TaskRecord | undefined {
    return this.entries.get(taskId)?.record;
  }

  /** Tasks in creation order, optionally only those matching. */
  list(filter: (record: TaskRecord) => boolean = () => true): TaskRecord[] {
    return [...this.entries.values()].map((entry) => entry.record).filter(filter);
  }

  /**
   * Cancels a running task: it becomes terminal at once with `end` (status cancelled), and
   * its work is aborted, which cancels the call at the host. False if it was already terminal.
   */
  cancel(taskId: string, end: Omit<TaskEnd, 'status'>, reason = 'The task was cancelled by request.'): boolean {
    const entry = this.entries.get(taskId);
    if (!entry || isTerminal(entry.record.status)) return false;
    this.finish(entry, { ...end, status: 'cancelled' });
    entry.controller.abort(cancelReason(reason));
    return true;
  }

  /**
   * Asks a running task's work to stop and lets the work say how the task ends: cancelled when
   * the editor stopped the call, completed when it had finished anyway. False if it was
   * already terminal.
   */
  abort(taskId: string, reason = 'The task was cancelled by request.'): boolean {
    const entry = this.entries.get(taskId);
    if (!entry || isTerminal(entry.record.status)) return false;
    entry.controller.abort(cancelReason(reason));
    return true;
  }

  /** Ends the store: running work is aborted, every timer cleared, every task forgotten. */
  close(reason = 'Tether is shutting down.'): void {
    if (this.closed) return;
    this.closed = true;
    for (const entry of this.entries.values()) {
      if (entry.expiry) clearTimeout(entry.expiry);
      entry.expiry = undefined;
      if (!isTerminal(entry.record.status)) {
        this.finish(entry, { status: 'cancelled', statusMessage: reason });
        entry.controller.abort(cancelReason(reason));
      }
    }
    this.entries.clear();
  }

  /** The number of live expiry timers (for tests: none may outlive close()). */
  get timers(): number {
    let count = 0;
    for (const entry of this.entries.values()) if (entry.expiry) count++;
    return count;
  }

  private finish(entry: Entry, end: TaskEnd): void {
    const { record } = entry;
    if (isTerminal(record.status)) return;
    const now = Date.now();
    record.status = end.status;
    if (end.statusMessage !== undefined) record.statusMessage = end.statusMessage;
    record.result = end.result;
    record.error = end.error;
    record.lastUpdatedAt = now;
    entry.settle();
    if (this.closed) return;
    // Kept for its time to live from creation, and in any case a while after it finished.
    const expiresAt = Math.max(record.createdAt + entry.retentionMs, now + Math.min(this.minRetentionMs, entry.retentionMs));
    record.ttlMs = expiresAt - record.createdAt;
    entry.expiry = setTimeout(() => {
      if (this.entries.get(record.taskId) === entry) this.entries.delete(record.taskId);
    }, expiresAt - now);
    entry.expiry.unref();
  }

  /** Evicts the oldest finished tasks until there is room; false if every task is still running. */
  private makeRoom(): boolean {
    if (this.entries.size < this.maxTasks) return true;
    for (const [taskId, entry] of this.entries) {
      if (!isTerminal(entry.record.status)) continue;
      if (entry.expiry) clearTimeout(entry.expiry);
      this.entries.delete(taskId);
      if (this.entries.size < this.maxTasks) return true;
    }
    return false;
  }

  private grantTtl(requested: number | undefined): number {
    if (requested === undefined || !Number.isFinite(requested)) return this.defaultTtlMs;
    return Math.min(this.maxTtlMs, Math.max(this.minTtlMs, Math.round(requested)));
  }
}

/** Typed, so that work that stops on it (waiting for the editor, say) reports CANCELLED, not an internal error. */
function cancelReason(reason: string): TetherError {
  return new TetherError('CANCELLED', reason);
}

export function isTerminal(status: TaskStatus): status is TerminalStatus {
  return status === 'completed' || status === 'failed' || status === 'cancelled';
}
