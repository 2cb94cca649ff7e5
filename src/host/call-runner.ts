/**
 * Runs one execution's tool: journals "running" for every requester first (from then on a
 * crash means interrupted, never a silent second run), arms its deadline, calls the handler,
 * and hands the outcome back, a result MCP clients would refuse being the tool's failure. A
 * tool that has not stopped a grace after its deadline is given up (protocol.md §8.6).
 */
import { LazyAbort, TetherError, type ToolResult } from '../protocol/index.js';
import type { CallJournal } from './call-journal.js';
import { callErrors } from './call-errors.js';
import { DeadlineTimer } from './deadline-timer.js';
import type { LiveCall } from './live-call.js';
import { toolContextFor } from './tool-context.js';
import { toToolResult, unknownTool, type RegisteredTool, type ToolReturn } from './tools.js';

/** How long past its deadline a tool is waited for by default before its call is given up. */
export const DEFAULT_DEADLINE_GRACE_MS = 30_000;

export interface CallRunnerOptions {
  journal: CallJournal;
  tools(): ReadonlyMap<string, RegisteredTool>;
  /** Execution deadline when neither the call nor the tool sets one. */
  defaultDeadlineMs: number;
  /** How long past its deadline a tool that has not stopped is waited for. */
  deadlineGraceMs: number;
  /** Ends the execution with its result or its error (every requester answered). */
  finish(call: LiveCall, result: ToolResult | undefined, error: TetherError | undefined): void;
}

export class CallRunner {
  /** Every running call's deadline, then its grace, on one timer (deadline-timer.ts). */
  private readonly deadlines = new DeadlineTimer<LiveCall>((call) => (call.overdue ? this.giveUp(call) : this.overdue(call)));

  constructor(private readonly options: CallRunnerOptions) {}

  /** Runs the call's tool; `releaseMainThread` lets the next call start should this one be given up. */
  async run(call: LiveCall, releaseMainThread?: () => void): Promise<void> {
    const { entry } = call;
    const { finish } = this.options;
    const tool = this.options.tools().get(entry.tool);
    if (!tool) {
      finish(call, undefined, unknownTool(entry.tool, this.options.tools().keys()));
      return;
    }
    if (!this.journalStart(call)) return;
    const abort = new LazyAbort();
    call.abort = abort;
    call.releaseMainThread = releaseMainThread;
    // A call that started at once needs no "running" notice (one frame less per call);
    // one that waited in the queue does, and heartbeats follow either way.
    if (call.waited) call.sendProgress(false);

    this.deadlines.set(call, this.deadlineMsOf(call));

    let value: ToolReturn;
    try {
      value = await tool.handler(entry.arguments, toolContextFor(call, abort));
    } catch (error) {
      // One that says it never began (a remote handler's call that waited for its main thread) is
      // that, whatever its signal said; otherwise a cancelled tool's failure is its cancellation.
      const notBegun = error instanceof TetherError && error.data.started === false;
      finish(call, undefined, notBegun ? error : (abort.reason ?? callErrors.toolFailure(entry.tool, error)));
      return;
    } finally {
      this.deadlines.clear(call);
    }
    let result: ToolResult;
    try {
      result = toToolResult(value, entry.tool, tool.checkOutput);
    } catch (error) {
      // The tool ran to its end, cancelled or not: its result is what is wrong, and says so.
      finish(call, undefined, TetherError.from(error));
      return;
    }
    finish(call, result, undefined);
  }

  /** The host is closing: the deadline timer lets go once no call is running (deadline-timer.ts). */
  dispose(): void {
    this.deadlines.dispose();
  }

  /**
   * The deadline passed: the tool's signal fires, and one that heeds it ends. One that does not
   * is waited for the grace more, then given up.
   */
  private overdue(call: LiveCall): void {
    const { callId, tool } = call.entry;
    call.overdue = true;
    call.abort?.abort(callErrors.deadlineExceeded(callId, tool, this.deadlineMsOf(call)));
    this.deadlines.set(call, this.options.deadlineGraceMs);
  }

  /**
   * The tool ignored its signal for the whole grace: its requesters hear that the outcome is
   * unknown (it may still be running), and the next call may take the main thread, where it
   * would otherwise hold them, and every call queued behind it, for ever. Its end, should it
   * come, finds the call final and changes nothing.
   */
  private giveUp(call: LiveCall): void {
    const { callId, tool } = call.entry;
    this.options.finish(call, undefined, callErrors.givenUpAfterDeadline(callId, tool, this.deadlineMsOf(call), this.options.deadlineGraceMs));
    call.releaseMainThread?.();
  }

  private deadlineMsOf(call: LiveCall): number {
    return call.entry.deadlineMs ?? this.options.defaultDeadlineMs;
  }

  /**
   * Journals "running" for every requester before the tool runs. A tool whose start cannot be
   * journaled does not run (a crash would run it again): the call fails, nothing started.
   */
  private journalStart(call: LiveCall): boolean {
    const now = Date.now();
    try {
      for (const requester of call.requesters.values()) {
        requester.entry.state = 'running';
        requester.entry.startedAt = now;
        this.options.journal.save(requester.entry);
      }
      return true;
    } catch (failure) {
      for (const { entry: requester } of call.requesters.values()) {
        requester.state = 'queued';
        delete requester.startedAt;
      }
      this.options.finish(call, undefined, callErrors.notStarted(call.entry.callId, call.entry.tool, failure));
      return false;
    }
  }
}
