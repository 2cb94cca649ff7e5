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

/** Codes that mean the call never reached a tool: no editor, no connection, shutting down. */
const NOT_REACHED = new Set(['HOST_NOT_FOUND', 'HOST_AMBIGUOUS', 'HOST_UNAVAILABLE', 'HOST_UNVERIFIED', 'CONNECTION_CLOSED', 'UNAUTHORIZED', 'UNSUPPORTED_VERSION', 'UNKNOWN_TOOL', 'INVALID_PARAMS']);

/**
 * The outcome an error code stands for: cancelled, unknown (it may have run), failed (it
 * never reached a tool), or else the tool's own failure (NOT_FOUND, INVALID_ARGUMENTS, …).
 */
export function outcomeOfCode(code: string | undefined): CallOutcome {
  if (code === undefined) return 'success';
  if (code === 'CANCELLED' || code === 'DEADLINE_EXCEEDED') return 'cancelled';
  if (code === 'OUTCOME_UNKNOWN' || code === 'EVICTED') return 'unknown';
  return NOT_REACHED.has(code) ? 'failed' : 'tool_error';
}

/**
 * The size of a result's content as the agent receives it: its texts and its base64 data,
 * counted without serializing anything (a 50 MB result is not copied again to be measured).
 */
export function contentBytes(result: { content?: unknown } | undefined): number | undefined {
  if (!result || !Array.isArray(result.content)) return undefined;
  let bytes = 0;
  for (const item of result.content as Array<{ text?: unknown; data?: unknown; resource?: { text?: unknown; blob?: unknown } }>) {
    if (typeof item.text === 'string') bytes += item.text.length;
    else if (typeof item.data === 'string') bytes += item.data.length;
    else if (item.resource) bytes += typeof item.resource.text === 'string' ? item.resource.text.length : typeof item.resource.blob === 'string' ? item.resource.blob.length : 0;
  }
  return bytes;
}
