/**
 * The errors the call engine raises, each saying what happened and what to do, with the data
 * fields protocol.md §7.4–§8 give them. The C# host's CallErrors says the same words.
 */
import { TetherError, clipped } from '../protocol/index.js';
import { invalidArguments } from '../schema/tool-arguments.js';

export const callErrors = {
  conflict: (callId: string, knownTool: string): TetherError =>
    new TetherError('CALL_ID_CONFLICT', `callId "${callId}" was already used for a different call (tool "${knownTool}"). Use a fresh callId for a new call.`, { callId, tool: knownTool }),

  unknownOnAttach: (callId: string): TetherError =>
    new TetherError(
      'UNKNOWN_CALL',
      `The host has no record of call "${callId}": it was never received, or its result expired. Its outcome is unknown; check the editor's state before calling again.`,
      { callId },
    ),

  unknown: (callId: string): TetherError => new TetherError('UNKNOWN_CALL', `The host has no record of call "${callId}" (never received, or expired after the retention).`, { callId }),

  duplicate: (tool: string, callId: string, twin: { callId: string; state: string }): TetherError =>
    new TetherError(
      'DUPLICATE_CALL',
      `An identical "${tool}" call is already ${twin.state} (callId "${twin.callId}"). Wait for it (calls/start with that callId attaches) instead of starting another.`,
      { callId, inFlight: twin.callId },
    ),

  /** Arguments nested too deeply to walk (thousands of levels): INVALID_ARGUMENTS. */
  tooDeep: (tool: string): TetherError => invalidArguments(clipped(tool), '', 'are nested too deeply to be read (thousands of levels); send them flatter'),

  notAccepted: (callId: string, tool: string, failure: unknown): TetherError =>
    new TetherError(
      'INTERNAL_ERROR',
      `The host could not write call "${callId}" to its journal (${TetherError.from(failure).message}), so it did not accept it: nothing ran. ${journalRemedy(failure)} and send it again.`,
      { callId, tool, started: false },
    ),

  notStarted: (callId: string, tool: string, failure: unknown): TetherError =>
    new TetherError(
      'INTERNAL_ERROR',
      `The host could not write to its journal that "${tool}" was starting (${TetherError.from(failure).message}), so it did not run it. ${journalRemedy(failure)}, then call again with a fresh callId.`,
      { callId, tool, started: false },
    ),

  withdrawalNotJournaled: (callId: string, failure: unknown): TetherError =>
    new TetherError(
      'INTERNAL_ERROR',
      `The host could not write the cancellation of call "${callId}" to its journal (${TetherError.from(failure).message}), so nothing was cancelled. ${journalRemedy(failure)} and cancel again.`,
      { callId },
    ),

  /** The final state of a call that never ran could not be journaled: the journal still says "queued". */
  outcomeNotJournaled: (callId: string, tool: string, failure: unknown): TetherError =>
    new TetherError(
      'OUTCOME_UNKNOWN',
      `The host could not write the outcome of call "${callId}" to its journal (${TetherError.from(failure).message}). "${tool}" has not run, but the journal still shows it queued, so it may run if the host restarts before it can write its journal again. Check the editor's state before running it again.`,
      { callId, tool },
    ),

  /** This requester withdrew from a shared execution that `others` still want. */
  withdrawn: (callId: string, reason: string, started: boolean, others: number): TetherError =>
    new TetherError('CANCELLED', `Call "${callId}" was cancelled for this requester: ${reason} The shared execution continues for ${others} other requester(s).`, {
      callId,
      started,
      shared: true,
    }),

  cancelledQueued: (callId: string, reason: string): TetherError => new TetherError('CANCELLED', `Call "${callId}" was cancelled before it started: ${reason}`, { callId, started: false }),

  cancelledRunning: (callId: string, reason: string): TetherError => new TetherError('CANCELLED', `Call "${callId}" was cancelled while running: ${reason}`, { callId, started: true }),

  unclaimedAfterRestart: (callId: string): TetherError =>
    new TetherError(
      'CANCELLED',
      `Call "${callId}" was cancelled before it started: it was queued when the editor stopped, and no client came back for it once the editor started again, so it did not run. Call it again if it is still wanted.`,
      { callId, started: false },
    ),

  everyRequesterWithdrew: (callId: string): TetherError => new TetherError('CANCELLED', `Call "${callId}" was cancelled before it started: every requester had cancelled.`, { callId, started: false }),

  deadlineExceeded: (callId: string, tool: string, deadlineMs: number): TetherError =>
    new TetherError('DEADLINE_EXCEEDED', `"${tool}" ran past its ${deadlineMs} ms deadline and was cancelled. Raise the deadline for longer work.`, { callId, deadlineMs }),

  /** The tool did not stop within the grace after its deadline: the host stopped waiting for it (protocol.md §8.6). */
  givenUpAfterDeadline: (callId: string, tool: string, deadlineMs: number, graceMs: number): TetherError =>
    new TetherError(
      'OUTCOME_UNKNOWN',
      `"${tool}" did not stop within ${graceMs} ms of its ${deadlineMs} ms deadline (it did not heed its cancellation), so the host stopped waiting for it. It may still be running, and what it did is unknown: check the editor before calling it again.`,
      { callId, tool, deadlineMs, graceMs },
    ),

  sharedOutcomeUnknown: (callId: string): TetherError => new TetherError('OUTCOME_UNKNOWN', `The call "${callId}" shared an execution whose outcome is unknown.`),

  noClient: (callId: string, kind: 'elicit' | 'sample'): TetherError =>
    new TetherError('NO_CLIENT', `No connected client can answer a ${kind === 'elicit' ? 'question (elicitation)' : 'sampling request'} for call "${callId}".`, { callId }),

  /** What a tool threw: its own typed error, else TOOL_FAILED naming its message. */
  toolFailure: (tool: string, error: unknown): TetherError => {
    if (error instanceof TetherError) return error;
    return new TetherError('TOOL_FAILED', `Tool "${tool}" failed: ${thrownMessage(error)}`, { tool });
  },
};

/**
 * What a tool threw, as text: an Error's message; an object's own string `message` (a plain
 * `throw { message }` is an error too, and "[object Object]" tells no one anything), else
 * its JSON; anything else as a string. Never throws itself (String of an object without a
 * prototype does): the call must still end.
 */
function thrownMessage(error: unknown): string {
  try {
    if (error instanceof Error) return error.message;
    if (typeof error === 'object' && error !== null) {
      const { message } = error as { message?: unknown };
      if (typeof message === 'string') return message;
      const json = JSON.stringify(error);
      if (json !== undefined && json !== '{}') return clipped(json);
    }
    return String(error);
  } catch {
    return 'a value that cannot be shown as text';
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
