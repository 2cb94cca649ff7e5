/**
 * One log line per tool call in the front's log (`$TETHER_HOME/logs/mcp.log`, `serve.log`):
 * who called what, how long it took, how it ended, how many bytes came back. `tether logs`
 * reads these lines; the dashboard and `tether status` read the same facts live.
 */

/** The pino message that marks a per-call line (what `tether logs` looks for). */
export const CALL_LOG_MESSAGE = 'call';

/**
 * How a call ended, as an agent's person needs to know it: `unknown` is the outcome the front
 * cannot vouch for (the editor went away mid-call); it may have taken effect.
 */
export type CallOutcome = 'success' | 'tool_error' | 'cancelled' | 'unknown' | 'failed';

export interface CallLogFields {
  callId: string;
  tool: string;
  /** The MCP client's name and version ("claude-code 2.1"), when it gave them. */
  agent?: string;
  durationMs: number;
  outcome: CallOutcome;
  /** The error's code, for every outcome but success. */
  code?: string;
  /** The size of the result as the host sent it. */
  bytes?: number;
}

/** A per-call line as read back from a log file. */
export interface CallLogLine extends CallLogFields {
  msg: typeof CALL_LOG_MESSAGE;
  time: number;
  name?: string;
  pid?: number;
}

/** The outcome a host error code stands for. */
export function outcomeOfCode(code: string | undefined): CallOutcome {
  switch (code) {
    case undefined:
      return 'success';
    case 'TOOL_FAILED':
      return 'tool_error';
    case 'CANCELLED':
    case 'DEADLINE_EXCEEDED':
      return 'cancelled';
    case 'OUTCOME_UNKNOWN':
    case 'EVICTED':
      return 'unknown';
    default:
      return 'failed';
  }
}
