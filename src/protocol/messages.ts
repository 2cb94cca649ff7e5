/** JSON-RPC 2.0 message shapes and the guards that tell them apart. */
import type { WireError } from './errors.js';

export type RequestId = string | number;

export interface RequestMessage {
  jsonrpc: '2.0';
  id: RequestId;
  method: string;
  params?: unknown;
}

export interface NotificationMessage {
  jsonrpc: '2.0';
  method: string;
  params?: unknown;
}

export interface SuccessResponse {
  jsonrpc: '2.0';
  id: RequestId;
  result: unknown;
}

export interface ErrorResponse {
  jsonrpc: '2.0';
  id: RequestId | null;
  error: WireError;
}

export type ResponseMessage = SuccessResponse | ErrorResponse;
export type Message = RequestMessage | NotificationMessage | ResponseMessage;

/** A JSON object: not null, not an array. */
export function isObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function isId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isFinite(value));
}

export function isRequest(message: Message): message is RequestMessage {
  return 'method' in message && 'id' in message;
}

export function isNotification(message: Message): message is NotificationMessage {
  return 'method' in message && !('id' in message);
}

export function isResponse(message: Message): message is ResponseMessage {
  return !('method' in message) && ('result' in message || 'error' in message);
}

export function isErrorResponse(message: ResponseMessage): message is ErrorResponse {
  return 'error' in message;
}

/**
 * Checks that a parsed JSON value is a well-formed JSON-RPC 2.0 message.
 * Returns the reason it is not, so the peer can be told precisely.
 */
export function validateMessage(value: unknown): { ok: true; message: Message } | { ok: false; reason: string } {
  if (!isObject(value)) return { ok: false, reason: 'a message must be a JSON object (batches are not supported)' };
  if (value.jsonrpc !== '2.0') return { ok: false, reason: 'the "jsonrpc" member must be "2.0"' };
  if ('method' in value) {
    if (typeof value.method !== 'string' || value.method.length === 0) return { ok: false, reason: 'the "method" member must be a non-empty string' };
    if ('id' in value && !isId(value.id)) return { ok: false, reason: 'the "id" member must be a string or a number' };
    if ('params' in value && value.params !== undefined && !isObject(value.params) && !Array.isArray(value.params)) return { ok: false, reason: 'the "params" member must be an object' };
    return { ok: true, message: value as unknown as Message };
  }
  if ('result' in value || 'error' in value) {
    if (!(isId(value.id) || value.id === null)) return { ok: false, reason: 'a response needs an "id"' };
    if ('error' in value) {
      const error = value.error;
      if (!isObject(error) || typeof error.code !== 'number' || typeof error.message !== 'string') return { ok: false, reason: 'the "error" member needs a numeric "code" and a string "message"' };
    }
    return { ok: true, message: value as unknown as Message };
  }
  return { ok: false, reason: 'a message needs a "method" (request or notification) or a "result"/"error" (response)' };
}

/** The id of a message that looked like a request, for answering even a malformed one. */
export function idOf(value: unknown): RequestId | null {
  return isObject(value) && isId(value.id) ? value.id : null;
}
