/**
 * Recognizes, from one stdin line, a plain `tools/call` that the fast path may answer: a
 * JSON-RPC request of exactly the shape the SDK's own schemas accept unchanged, with no task
 * augmentation and no protocol envelope. Anything else, or anything in doubt, is not one, and
 * the line goes to the SDK as it came, so the SDK's exact answers (and errors) stay its own.
 */
import type { RequestId } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../protocol/plain-object.js';

export interface FastCallRequest {
  id: RequestId;
  name: string;
  arguments: Record<string, unknown>;
  /** The request's `_meta` (progressToken, tether/… keys), as sent. */
  meta: Record<string, unknown> | undefined;
  /** The params as sent: what the tools/call handler reads. */
  params: { name: string; arguments?: Record<string, unknown>; _meta?: Record<string, unknown> };
}

/** Markers a line must hold to be worth parsing here; most lines of other kinds skip JSON.parse. */
const TOOLS_CALL = Buffer.from('"tools/call"');
const CANCELLED = Buffer.from('"notifications/cancelled"');

/** Keys of `_meta` the fast path leaves to the SDK: the protocol's own (envelopes, related tasks). */
const PROTOCOL_META_PREFIX = 'io.modelcontextprotocol/';

function isRequestId(value: unknown): value is RequestId {
  return typeof value === 'string' || (typeof value === 'number' && Number.isSafeInteger(value));
}

function hasOnly(object: Record<string, unknown>, allowed: ReadonlySet<string>): boolean {
  for (const key in object) if (!allowed.has(key)) return false;
  return true;
}

const ENVELOPE_KEYS = new Set(['jsonrpc', 'id', 'method', 'params']);
const PARAMS_KEYS = new Set(['name', 'arguments', '_meta']);

function parseLine(line: Buffer): unknown {
  try {
    return JSON.parse(line.toString('utf8'));
  } catch {
    return undefined;
  }
}

/** The plain tools/call `line` holds, or undefined when the SDK is to have it. */
export function fastCallRequest(line: Buffer): FastCallRequest | undefined {
  if (line.indexOf(TOOLS_CALL) < 0) return undefined;
  const message = parseLine(line);
  if (!isPlainObject(message) || !hasOnly(message, ENVELOPE_KEYS)) return undefined;
  if (message.jsonrpc !== '2.0' || message.method !== 'tools/call' || !isRequestId(message.id)) return undefined;
  const { params } = message;
  if (!isPlainObject(params) || !hasOnly(params, PARAMS_KEYS) || typeof params.name !== 'string') return undefined;
  const args = params.arguments;
  if (args !== undefined && (!isPlainObject(args) || Object.hasOwn(args, '__proto__'))) return undefined;
  const meta = params._meta;
  if (meta !== undefined) {
    if (!isPlainObject(meta)) return undefined;
    for (const key in meta) if (key.startsWith(PROTOCOL_META_PREFIX) || key === '__proto__') return undefined;
    const token = meta.progressToken;
    if (token !== undefined && !isRequestId(token)) return undefined;
  }
  return {
    id: message.id,
    name: params.name,
    arguments: args ?? {},
    meta,
    params: params as FastCallRequest['params'],
  };
}

/** The request id a `notifications/cancelled` line names, if the line is one. */
export function cancelledRequestId(line: Buffer): RequestId | undefined {
  if (line.indexOf(CANCELLED) < 0) return undefined;
  const message = parseLine(line);
  if (!isPlainObject(message) || message.method !== 'notifications/cancelled' || !isPlainObject(message.params)) return undefined;
  const id = message.params.requestId;
  return isRequestId(id) ? id : undefined;
}

/** Whether `line` is an `initialize` request of the 2025 era (no modern envelope claim), and its id. */
export function legacyInitializeId(line: Buffer): RequestId | undefined {
  if (line.indexOf('"initialize"') < 0) return undefined;
  const message = parseLine(line);
  if (!isPlainObject(message) || message.method !== 'initialize' || !isRequestId(message.id)) return undefined;
  const params = message.params;
  if (isPlainObject(params) && isPlainObject(params._meta)) {
    for (const key in params._meta) if (key.startsWith(PROTOCOL_META_PREFIX)) return undefined;
  }
  return message.id;
}
