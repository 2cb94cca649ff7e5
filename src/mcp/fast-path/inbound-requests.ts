/**
 * What `tether mcp` answers itself before a line reaches the SDK. JSON-RPC 2.0 (§5), which MCP
 * is built on, answers a line that is not JSON with a Parse error and a message that is not a
 * valid one with an Invalid Request, with id null where none can be read; the SDK's stdio
 * transport skips the first in silence and only logs the second, so a client waited for ever.
 * And a request whose id a request still running has is refused: the SDK ran it as a new
 * request, so a client that sent a non-idempotent call again with its id ran it twice.
 */
import { INVALID_REQUEST, PARSE_ERROR, parseJSONRPCMessage, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../protocol/plain-object.js';

/** The error to answer a line with, in place of passing it on. */
export interface Refusal {
  id: RequestId | null;
  code: number;
  message: string;
}

export class InboundRequests {
  /** Ids of the client's requests not yet answered (nor cancelled). */
  private readonly open = new Set<RequestId>();

  /**
   * A line bound for the SDK: undefined to pass it on (a request's id is then open until
   * answered), or what to answer instead. A blank line is passed on, and skipped there.
   */
  screen(text: string): Refusal | undefined {
    if (text.trim() === '') return undefined;
    let message: unknown;
    try {
      message = JSON.parse(text);
    } catch {
      return { id: null, code: PARSE_ERROR, message: 'Parse error: the line is not JSON. Send one JSON-RPC message per line.' };
    }
    let valid: JSONRPCMessage;
    try {
      // The SDK's own check of every message it reads (its ReadBuffer's).
      valid = parseJSONRPCMessage(message);
    } catch (error) {
      const issue = (error as { issues?: Array<{ path: PropertyKey[]; message: string }> }).issues?.[0];
      const where = issue && issue.path.length > 0 ? `${issue.path.map(String).join('.')}: ` : '';
      const what = Array.isArray(message) ? 'a batch (an array): send each message on its own line' : `${where}${issue?.message ?? 'not a JSON-RPC 2.0 message'}`;
      return { id: readableId(message), code: INVALID_REQUEST, message: `Invalid Request: ${what}. Nothing was done.` };
    }
    if ('method' in valid && 'id' in valid) return this.opened(valid.id) ? undefined : inUse(valid.id);
    if ('method' in valid && valid.method === 'notifications/cancelled' && isPlainObject(valid.params)) {
      // A cancelled request gets no answer: its id is free again.
      const id = valid.params.requestId;
      if (typeof id === 'string' || typeof id === 'number') this.open.delete(id);
    }
    return undefined;
  }

  /** Opens a request's id; false when a request still running has it (see inUse). */
  opened(id: RequestId): boolean {
    if (this.open.has(id)) return false;
    this.open.add(id);
    return true;
  }

  /** The request was answered: its id may be used again. */
  answered(id: RequestId): void {
    this.open.delete(id);
  }
}

/** The refusal of a request whose id a request still running has. */
export function inUse(id: RequestId): Refusal {
  return {
    id,
    code: INVALID_REQUEST,
    message: `Invalid Request: the id ${JSON.stringify(id)} is already used by a request still running, so this one was not run (JSON-RPC request ids must be unique). Send it again with another id.`,
  };
}

/** A message's id when it has a valid one, else null. */
function readableId(message: unknown): RequestId | null {
  if (!isPlainObject(message)) return null;
  const { id } = message;
  return typeof id === 'string' || (typeof id === 'number' && Number.isSafeInteger(id)) ? id : null;
}
