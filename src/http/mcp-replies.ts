/**
 * The answers /mcp gives itself, before or instead of the SDK: JSON-RPC errors with an HTTP
 * status, each saying what happened and what to do.
 */
import type { ServerResponse } from 'node:http';
import { SUPPORTED_PROTOCOL_VERSIONS } from '@modelcontextprotocol/server';
import { httpStatusOf, wireError, type HttpErrorCode } from '../protocol/index.js';
import { SESSIONLESS_VERSION, type ClientIdentity } from './mcp-requests.js';
import type { PoolFullError } from './session-pools.js';

/** A JSON-RPC error with no id (it answers the HTTP request, not one message), unless an answer has begun. */
export function sendJsonRpcError(res: ServerResponse, status: number, code: number, message: string, data?: Record<string, unknown>, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(status, { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: { code, message, ...(data ? { data } : {}) } }));
}

/** An error of the registry (protocol/error-registry.ts), with its HTTP status, its number and `data.code`. */
export function sendRegisteredError(res: ServerResponse, code: HttpErrorCode, message: string, data: Record<string, unknown> = {}, headers: Record<string, string> = {}): void {
  if (res.headersSent) return;
  res.writeHead(httpStatusOf(code), { 'content-type': 'application/json', ...headers });
  res.end(JSON.stringify({ jsonrpc: '2.0', id: null, error: wireError(code, message, data) }));
}

/** 400, as the SDK's session transport answers a missing session id, saying how to get one. */
export function refuseSessionless(res: ServerResponse, version: string | undefined): void {
  const who = version === undefined ? 'A request that names no protocol version' : `Protocol ${version}`;
  sendRegisteredError(
    res,
    'SESSION_REQUIRED',
    `Bad Request: this request has no Mcp-Session-Id header. ${who} needs a session: send "initialize" first, then send the Mcp-Session-Id header its response carries with every request. (Protocol ${SESSIONLESS_VERSION} needs no session: name it in the MCP-Protocol-Version header and in each request's _meta.)`,
    { sessionRequired: true, supported: [SESSIONLESS_VERSION, ...SUPPORTED_PROTOCOL_VERSIONS] },
  );
}

/** 503 for an initialize that would take its pool past the ceiling: what happened, what to do, and when to retry. */
export function refuseFullPool(res: ServerResponse, error: PoolFullError): void {
  const retry = retryAfter(error.retryAfterMs);
  const when = retry.seconds === undefined ? 'once a call in progress ends' : `in ${retry.seconds} s`;
  sendRegisteredError(
    res,
    'SESSION_LIMIT',
    `${error.message} No new session can start now: retry ${when}, end sessions you no longer need (DELETE), or reuse one you have open.`,
    { pool: error.pool, ceiling: error.ceiling, ...(error.retryAfterMs === undefined ? {} : { retryAfterMs: error.retryAfterMs }) },
    retry.headers,
  );
}

/** 429 for a client over its share of a full pool: who, how much, when to retry, and what to do instead. */
export function refuseOverShare(res: ServerResponse, pool: string, client: ClientIdentity, share: number, held: { count: number; nextEvictableInMs: number | undefined }): void {
  const retryAfterMs = held.nextEvictableInMs;
  const retry = retryAfter(retryAfterMs);
  const when = retry.seconds === undefined ? 'once one of its calls ends' : `in ${retry.seconds} s`;
  sendRegisteredError(
    res,
    'SESSION_QUOTA',
    `The ${pool} session pool is full, and this client ("${client.name}" at ${client.address}) holds ${held.count} of its sessions, each in use or used recently (its share: ${share}). ` +
      `Retry ${when}, end sessions you no longer need (DELETE), or keep using one you have open (send its Mcp-Session-Id header) instead of initializing again.`,
    { pool, client: client.name, held: held.count, share, ...(retryAfterMs === undefined ? {} : { retryAfterMs }) },
    retry.headers,
  );
}

/** When to retry, in whole seconds (at least one), and as a Retry-After header; neither when no time can be given. */
function retryAfter(ms: number | undefined): { seconds?: number; headers: Record<string, string> } {
  if (ms === undefined) return { headers: {} };
  const seconds = Math.max(1, Math.ceil(ms / 1000));
  return { seconds, headers: { 'retry-after': String(seconds) } };
}
