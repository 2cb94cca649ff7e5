/**
 * CORS, for the browser pages the Origin check lets in (loopback origins, and those named with
 * --allowed-origin). A browser sends a preflight (OPTIONS, without credentials) before any
 * request that carries Authorization or an MCP header, and lets a page read a response, or its
 * Mcp-Session-Id, only when the server names the page's origin. Nothing here widens who may
 * call: the Host and Origin checks come first, and every request past the preflight still
 * needs the bearer token.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';

/** What a page may read of a response besides the simple headers: the session it got, and why it was refused or asked to wait. */
const EXPOSED = 'mcp-session-id, mcp-protocol-version, www-authenticate, retry-after';
const METHODS = 'GET, POST, DELETE, OPTIONS';
/** How long a browser may keep a preflight's answer. */
const MAX_AGE_S = '600';

/** A CORS preflight: what a browser asks before the request it means to send. */
export function isPreflight(req: IncomingMessage): boolean {
  return req.method === 'OPTIONS' && req.headers.origin !== undefined && req.headers['access-control-request-method'] !== undefined;
}

/** Lets the page at `origin` (one the Origin check allowed) read this response. */
export function allowOrigin(res: ServerResponse, origin: string): void {
  res.setHeader('access-control-allow-origin', origin);
  res.setHeader('access-control-expose-headers', EXPOSED);
  res.setHeader('vary', 'Origin');
}

/** Answers a preflight from an allowed origin: the methods /mcp takes, and the headers the page asked to send. */
export function answerPreflight(req: IncomingMessage, res: ServerResponse): void {
  res.writeHead(204, {
    'access-control-allow-methods': METHODS,
    // Whatever MCP headers the client's SDK sends (protocol version, session, resumption, and
    // those of later protocol versions): the origin is trusted, and the token still decides.
    'access-control-allow-headers': req.headers['access-control-request-headers'] ?? '',
    'access-control-max-age': MAX_AGE_S,
  });
  res.end();
}
