/**
 * One log line per tool call in the front's log (`$TETHER_HOME/logs/mcp.log`, `serve.log`):
 * who called what, how long it took, how it ended, how many bytes came back. `tether logs`
 * reads these lines; the dashboard and `tether status` read the same facts live.
 */

import type { Logger } from 'pino';

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

/**
 * Writes an info line of a logger whose fields are already JSON (`"callId":"…","tool":…`, keys
 * in order, no braces), byte for byte as `logger.info(fields, msg)` would (see createLogger).
 */
export type PreformattedInfoWriter = (fieldsJson: string, msg: string) => void;

/**
 * Where a logger's per-call lines go: written out by hand (`write`), or by `logger` for a line
 * with a string pino escapes its own way. Both reach the same destinations, which may be
 * fewer than the logger's own (createLogger sends them to its file alone).
 */
export interface CallLineSink {
  write: PreformattedInfoWriter;
  logger: Logger;
}

/** The loggers that take preformatted lines: the ones createLogger made (it knows their format). */
const callLineSinks = new WeakMap<Logger, CallLineSink>();

export function acceptCallLines(logger: Logger, sink: CallLineSink): void {
  callLineSinks.set(logger, sink);
}

/** Where `logger`'s per-call lines go, if it takes them preformatted. */
export function callLineSink(logger: Logger): CallLineSink | undefined {
  return callLineSinks.get(logger);
}

/**
 * Writes a call's line. Every call writes one, and pino's generic path (a loop over the keys,
 * its own escaping of each short string a character at a time, the line built piece by piece)
 * was ~15% of `tether mcp`'s instructions per call; so was JSON.stringify of the fields on
 * Node 20. The line is written out here instead, the same bytes.
 */
export function writeCallLine(log: Logger, fields: CallLogFields): void {
  const sink = callLineSinks.get(log);
  if (sink === undefined) return log.info(fields, CALL_LOG_MESSAGE);
  // The sink's destinations may be fewer than the logger's; its level is still the logger's.
  if (!log.isLevelEnabled('info')) return;
  const json = callLogJson(fields);
  if (json === undefined) sink.logger.info(fields, CALL_LOG_MESSAGE);
  else sink.write(json, CALL_LOG_MESSAGE);
}

/**
 * What may not be written between quotes as it is: a quote, a backslash, a control character,
 * a lone surrogate (with the `u` flag, a pair is one character and does not match). Those take
 * pino's own escaping: it leaves a lone surrogate of a short string raw where JSON.stringify
 * escapes it.
 */
// eslint-disable-next-line no-control-regex -- control characters are among what it looks for
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/u;

/**
 * The last tool name and agent found plain. A call's tool and agent are mostly those of the
 * call before, and a string equal to one found plain is plain: one comparison instead of a
 * test of the expression (~750 instructions each). A callId is new each time.
 */
const lastPlain = { tool: '', agent: '' };

function needsEscaping(text: string, field?: keyof typeof lastPlain): boolean {
  if (field !== undefined && text === lastPlain[field]) return false;
  if (NEEDS_ESCAPING.test(text)) return true;
  if (field !== undefined) lastPlain[field] = text;
  return false;
}

/** The fields as pino writes them, or undefined when a string needs escaping (pino writes that line). */
function callLogJson(fields: CallLogFields): string | undefined {
  const { callId, tool, agent, durationMs, outcome, code, bytes } = fields;
  if (needsEscaping(callId) || needsEscaping(tool, 'tool') || (agent !== undefined && needsEscaping(agent, 'agent')) || (code !== undefined && needsEscaping(code))) return undefined;
  if (!Number.isFinite(durationMs) || (bytes !== undefined && !Number.isFinite(bytes))) return undefined;
  return (
    `"callId":"${callId}","tool":"${tool}"${agent === undefined ? '' : `,"agent":"${agent}"`},"durationMs":${durationMs},"outcome":"${outcome}"` +
    `${code === undefined ? '' : `,"code":"${code}"`}${bytes === undefined ? '' : `,"bytes":${bytes}`}`
  );
}
