/**
 * What a request to /mcp says, read before the SDK sees it: its JSON body (bounded), its
 * JSON-RPC messages, whether it opens, uses or needs a session, and who the client is.
 */
import type { IncomingMessage } from 'node:http';
import { PROTOCOL_VERSION_META_KEY, SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { ERROR_REGISTRY, MAX_MESSAGE_DEPTH, isObject, nestsDeeperThan } from '../protocol/index.js';

export function header(req: IncomingMessage, name: string): string | undefined {
  const value = req.headers[name];
  return Array.isArray(value) ? value[0] : value;
}

export const PROJECT_HEADER = 'x-tether-project';

/**
 * The project an X-Tether-Project header names (undefined without one: the server's default),
 * or why it names none. An HTTP header value is bytes, and a non-ASCII path does not survive as
 * such (Node's fetch refuses characters above U+00FF; other clients send UTF-8, which arrives
 * read as Latin-1): so such a path is percent-encoded, as encodeURIComponent does, and Tether
 * writes it so (cli/clients/server-spec.ts), while a printable ASCII path is written, and taken,
 * as it is, as configurations written before hold it. The two cannot be confused: encodeURIComponent leaves no `/` or `\`,
 * and every absolute path holds one. So a value that holds one is a raw path, `%` and all;
 * any other is decoded. Refused: a value with other than printable ASCII (raw bytes of a
 * non-ASCII path, in whatever encoding), or one that does not decode (a malformed `%`
 * sequence, bytes that are not UTF-8, a NUL).
 */
export function projectOf(req: IncomingMessage): { ok: true; project: string | undefined } | { ok: false; message: string } {
  const value = header(req, PROJECT_HEADER);
  if (!value) return { ok: true, project: undefined };
  const refuse = (why: string) => ({
    ok: false as const,
    message:
      `The X-Tether-Project header ${JSON.stringify(value)} ${why}. Send the project folder's absolute path percent-encoded, as encodeURIComponent does ` +
      `(/Users/José/Game as %2FUsers%2FJos%C3%A9%2FGame); \`tether setup <client> --http --project <folder>\` writes it so.`,
  });
  if (!/^[\t\x20-\x7e]*$/.test(value)) return refuse('holds characters other than printable ASCII: a non-ASCII path must be percent-encoded');
  if (/[/\\]/.test(value)) return { ok: true, project: value };
  let project: string;
  try {
    project = decodeURIComponent(value);
  } catch {
    return refuse('is not a percent-encoded path (a malformed % sequence, or bytes that are not UTF-8)');
  }
  return project.includes('\0') ? refuse('decodes to a path with a NUL character') : { ok: true, project };
}

export const PROTOCOL_VERSION_HEADER = 'mcp-protocol-version';
/** What a 2025-era client sends within a session. */
export const SESSION_METHODS = new Set(['POST', 'GET', 'DELETE']);
/** The protocol that needs no session: its requests go to the SDK's stateless handler. */
export const SESSIONLESS_VERSION = '2026-07-28';

/**
 * A request with no session id that is not an initialize either, and does not name the
 * protocol that needs no session: a 2025-era client that skipped initialize or lost its
 * session id. The stateless handler would tell it its version is unsupported (or that it
 * named none), which is not what is wrong.
 */
export function needsSession(req: IncomingMessage, body: unknown): boolean {
  const version = header(req, PROTOCOL_VERSION_HEADER);
  if (version !== undefined) return SUPPORTED_PROTOCOL_VERSIONS.includes(version);
  return !messagesIn(body).some((message) => metaOf(message)?.[PROTOCOL_VERSION_META_KEY] !== undefined);
}

function metaOf(message: unknown): Record<string, unknown> | undefined {
  const params = isObject(message) ? message.params : undefined;
  const meta = isObject(params) ? params._meta : undefined;
  return isObject(meta) ? meta : undefined;
}

export interface ClientIdentity {
  address: string;
  name: string;
  /** The two together: what the registry counts sessions by. */
  source: string;
}

/**
 * Who opens a session, as far as one shared token lets us tell: the peer's address and the
 * name its initialize gives (clientInfo.name, cut to 100 characters). Two agents of one kind
 * on one machine are one client; a token holder that makes up a name per session is many, and
 * then only the order of eviction (session-registry.ts) stands between it and older sessions.
 */
export function clientOf(req: IncomingMessage, body: unknown): ClientIdentity {
  const initialize = messagesIn(body).find((message) => methodOf(message) === 'initialize');
  const params = isObject(initialize) ? initialize.params : undefined;
  const info = isObject(params) ? params.clientInfo : undefined;
  const name = isObject(info) && typeof info.name === 'string' ? info.name.slice(0, 100) : '(unnamed)';
  const address = req.socket.remoteAddress ?? '(unknown)';
  return { address, name, source: `${address} ${name}` };
}

/** The client's own handshake, and nothing else: it proves nothing about the session being used. */
const HANDSHAKE = new Set(['initialize', 'notifications/initialized']);

export function isHandshakeOnly(req: IncomingMessage, body: unknown): boolean {
  return req.method === 'POST' && messagesIn(body).every((message) => HANDSHAKE.has(methodOf(message) as string));
}

/** An initialize request: with an id, so that its answer can carry the new session's id. */
export function isInitialize(body: unknown): boolean {
  return messagesIn(body).some((message) => methodOf(message) === 'initialize' && isObject(message) && 'id' in message);
}

/** An initialize sent as a notification (no id): nothing answers it, so it may open no session. */
export function isInitializeNotification(body: unknown): boolean {
  return messagesIn(body).some((message) => methodOf(message) === 'initialize' && !(isObject(message) && 'id' in message));
}

export function callsIn(body: unknown): number {
  return messagesIn(body).filter((message) => methodOf(message) === 'tools/call').length;
}

export type JsonRead = { ok: true; value: unknown } | { ok: false; status: number; code: number; message: string };

/** Reads a JSON body, refusing it (413) as soon as it passes the limit, chunked or not. */
export async function readJson(req: IncomingMessage, maxBytes: number): Promise<JsonRead> {
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req as AsyncIterable<Buffer>) {
    size += chunk.length;
    if (size > maxBytes) {
      req.resume();
      return { ok: false, status: 413, code: ERROR_REGISTRY.BODY_TOO_LARGE.rpc, message: `Request bodies are limited to ${maxBytes} bytes.` };
    }
    chunks.push(chunk);
  }
  const bytes = Buffer.concat(chunks);
  // Measured before anything parses it: nested thousands deep, a body that fits the size limit
  // made the SDK's handler answer a bare 500. Nothing that deep could reach the editor anyway:
  // the host refuses a message past its own bound (protocol.md §3.4), a batch one level more.
  if (nestsDeeperThan(bytes, MAX_BODY_DEPTH)) {
    return { ok: false, status: 400, code: ERROR_REGISTRY.INVALID_REQUEST.rpc, message: `The request body nests deeper than ${MAX_BODY_DEPTH} levels: send flatter arguments.` };
  }
  try {
    return { ok: true, value: JSON.parse(bytes.toString('utf8')) };
  } catch {
    return { ok: false, status: 400, code: -32700, message: 'The request body is not valid JSON.' };
  }
}

/** How deep a request body may nest: a message as deep as the host takes, in a batch. */
export const MAX_BODY_DEPTH = MAX_MESSAGE_DEPTH + 1;

/** The JSON-RPC messages of a request body: a batch, or one message. */
export function messagesIn(body: unknown): unknown[] {
  return Array.isArray(body) ? body : [body];
}

/** A message's method, or undefined for a response or anything that is not an object. */
export function methodOf(message: unknown): unknown {
  return typeof message === 'object' && message !== null ? (message as { method?: unknown }).method : undefined;
}
