/**
 * The checks every HTTP request passes before anything reaches a host: Host (against DNS
 * rebinding), Origin (browsers; 403 as the MCP spec requires), the bearer token (401,
 * compared in constant time; the Authorization header only: a token in a URL ends up in other
 * tools' logs and result files) and the body size (413). A request target that is not a URL at
 * all is a bad request (400).
 *
 * The token is a static one from $TETHER_HOME/serve.json, not an OAuth token (authorization
 * is optional in MCP): a 401 says so in RFC 6750 terms (`error="invalid_token"` and a
 * description, no `resource_metadata`), and the OAuth discovery documents under
 * /.well-known/ are 404, so a client reports the message instead of starting a sign-in.
 */
import { timingSafeEqual } from 'node:crypto';
import type { IncomingMessage } from 'node:http';
import { isIP } from 'node:net';
import { TetherError } from '../protocol/index.js';

export interface GuardOptions {
  /** Host names (without port) a request may be addressed to. */
  allowedHosts: ReadonlySet<string>;
  /** Origins (scheme://host[:port]) browsers may call from; loopback origins are always allowed. */
  allowedOrigins: ReadonlySet<string>;
  token: string;
  maxBodyBytes: number;
}

export interface Refusal {
  status: 400 | 401 | 403 | 404 | 413;
  code: 'BAD_REQUEST' | 'UNAUTHORIZED' | 'FORBIDDEN_HOST' | 'FORBIDDEN_ORIGIN' | 'BODY_TOO_LARGE' | 'NOT_FOUND';
  message: string;
  /** The WWW-Authenticate header of a 401. */
  challenge?: string;
}

/** What a client is told when the token is missing or wrong: where the right one is. */
export const UNAUTHORIZED_MESSAGE =
  'The bearer token is missing or wrong: send the header "Authorization: Bearer <token>" with the token in $TETHER_HOME/serve.json ' +
  '(the "token" field) on the machine that runs tether serve. Tether uses this token, not OAuth: there is nothing to sign in to.';

/** RFC 6750 §3: the same, as an `invalid_token` challenge (a quoted string: no double quote or backslash). */
const UNAUTHORIZED_CHALLENGE = `Bearer realm="tether", error="invalid_token", error_description="${UNAUTHORIZED_MESSAGE.replaceAll('"', "'")}"`;

const LOOPBACK_NAMES = new Set(['localhost', '127.0.0.1', '[::1]', '::1']);

export function loopbackHosts(extra: Iterable<string> = []): Set<string> {
  return new Set([...LOOPBACK_NAMES, ...extra]);
}

/** An address as it stands in a URL or a Host header: an IPv6 one in brackets. */
export function urlHost(address: string): string {
  return isIP(address) === 6 ? `[${address}]` : address;
}

/**
 * The name a Host header addressed to this bind address carries, as the Host check compares
 * it (lower case, IPv6 bracketed and shortened): the URL the server prints must be served.
 */
export function bindHostName(address: string): string | undefined {
  return hostnameOf(urlHost(address));
}

/**
 * A name given with `--allowed-host`, as the Host check compares it. A port is dropped (the
 * check ignores ports); a scheme, path, user or wildcard is refused rather than guessed at.
 */
export function allowedHostName(name: string): string {
  // A fully qualified name's final dot is dropped: the Host check refuses a Host header that
  // ends in one, so the name it would have to match is the one without it.
  const named = /^[^/\\@?#*\s]+$/.test(name) ? bindHostName(name) : undefined;
  const hostname = named?.startsWith('[') ? named : named?.replace(/\.+$/, '');
  if (!hostname) {
    throw new TetherError(
      'INVALID_PARAMS',
      `--allowed-host "${name}" is not a host name or address: give it as a Host header names it, without scheme, path or wildcard (unity-box.lan, 192.168.1.20, [fe80::1]).`,
      { allowedHost: name },
    );
  }
  return hostname;
}

/** An origin given with `--allowed-origin`, serialized as browsers send it (`https://ide.example:8443`). */
export function allowedOrigin(origin: string): string {
  let url: URL | undefined;
  try {
    url = new URL(origin);
  } catch {
    url = undefined;
  }
  const plain = url && (url.protocol === 'http:' || url.protocol === 'https:') && url.pathname === '/' && !url.search && !url.hash && !url.username && !url.password;
  if (!url || !plain) {
    throw new TetherError('INVALID_PARAMS', `--allowed-origin "${origin}" is not an origin: give scheme, host and port only (https://ide.example:8443).`, {
      allowedOrigin: origin,
    });
  }
  return url.origin;
}

/**
 * The first check a request fails, or undefined when it may proceed. A CORS preflight carries
 * no credentials and no body, so only its Host and Origin are checked (`preflight`).
 */
export function checkRequest(req: IncomingMessage, options: GuardOptions, { preflight = false, bearer = true } = {}): Refusal | undefined {
  const target = requestTarget(req.url);
  if (!target)
    return { status: 400, code: 'BAD_REQUEST', message: 'The request target is not a path (`/mcp`): send requests to /mcp, /healthz or /metrics, with the server named in the Host header only.' };
  const hostHeader = singleHostHeader(req);
  if (hostHeader === undefined) {
    return {
      status: 400,
      code: 'BAD_REQUEST',
      message: 'Send exactly one Host header of the form host[:port] (no user, path, query or fragment), naming the server by its loopback name or bind address.',
    };
  }
  const host = hostnameOf(hostHeader);
  if (!host || !options.allowedHosts.has(host)) {
    return {
      status: 403,
      code: 'FORBIDDEN_HOST',
      message: `Host "${req.headers.host ?? ''}" is not served here; address the server by its loopback name or bind address, or start it with --allowed-host <name>.`,
    };
  }
  const origin = req.headers.origin;
  if (origin !== undefined && !originAllowed(origin, options.allowedOrigins)) {
    return { status: 403, code: 'FORBIDDEN_ORIGIN', message: `Origin "${origin}" may not call this server; start it with --allowed-origin <origin> to let a browser page there call it.` };
  }
  if (preflight) return undefined;
  // No protected-resource or authorization-server metadata: a client that looks for them
  // learns that there is no OAuth here, not that it must authenticate to ask.
  if (target.pathname.startsWith('/.well-known/')) {
    return { status: 404, code: 'NOT_FOUND', message: `Tether publishes no ${target.pathname}: it uses no OAuth. ${UNAUTHORIZED_MESSAGE}` };
  }
  if (bearer && !bearerMatches(req.headers.authorization, options.token)) {
    return { status: 401, code: 'UNAUTHORIZED', message: UNAUTHORIZED_MESSAGE, challenge: UNAUTHORIZED_CHALLENGE };
  }
  const length = Number(req.headers['content-length'] ?? 0);
  if (Number.isFinite(length) && length > options.maxBodyBytes) {
    return { status: 413, code: 'BODY_TOO_LARGE', message: `Request bodies are limited to ${options.maxBodyBytes} bytes.` };
  }
  return undefined;
}

/**
 * A request's target as a URL, or undefined when it is not the path form (`/mcp?x`) that
 * every HTTP client sends to a server it talks to directly. Anything else is refused with a
 * 400 before any handler reads it: `//evil.example/mcp` (which a URL parser reads as another
 * host with the path `/mcp`), `*`, and the absolute form (`http://127.0.0.1:7420/mcp`, which
 * only proxies send: the MCP SDK's Node adapter joins the Host header and the target into one
 * URL, so an absolute target would reach the transport as `http://h:1http://h:1/mcp` and end
 * in a 500, and its authority could name another host than the Host header the guards check).
 */
export function requestTarget(url: string | undefined): URL | undefined {
  const target = url ?? '/';
  if (!target.startsWith('/') || target.startsWith('//')) return undefined;
  try {
    return new URL(target, 'http://localhost');
  } catch {
    return undefined;
  }
}

/**
 * A Host header is `host[:port]` and nothing else (RFC 9110 §7.2), sent once. A URL parser
 * reads more into it (`evil.example@127.0.0.1:7420` has user info, `127.0.0.1:7420/x` a path)
 * and would let a name it was never addressed by past the check, so anything else is refused.
 */
const HOST_HEADER = /^(?:\[[0-9A-Fa-f:.]+\]|[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?)(?::\d{1,5})?$/;

/** The request's one Host header, or undefined when it has none, several, or one of another form. */
function singleHostHeader(req: IncomingMessage): string | undefined {
  let count = 0;
  const raw = req.rawHeaders;
  for (let i = 0; i < raw.length; i += 2) {
    // Only a four-letter name can be Host: the others are not lowercased (a new string each, every request).
    const name = raw[i] as string;
    if (name.length === 4 && name.toLowerCase() === 'host') count += 1;
  }
  const header = req.headers.host;
  return count === 1 && header !== undefined && HOST_HEADER.test(header) ? header : undefined;
}

function hostnameOf(header: string | undefined): string | undefined {
  if (!header) return undefined;
  try {
    return new URL(`http://${header}`).hostname.toLowerCase();
  } catch {
    return undefined;
  }
}

export function originAllowed(origin: string, allowed: ReadonlySet<string>): boolean {
  if (allowed.has(origin)) return true;
  try {
    const url = new URL(origin);
    return (url.protocol === 'http:' || url.protocol === 'https:') && LOOPBACK_NAMES.has(url.hostname.toLowerCase());
  } catch {
    return false;
  }
}

function bearerMatches(header: string | undefined, token: string): boolean {
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header ?? '');
  if (!match) return false;
  const given = Buffer.from(match[1] as string);
  const expected = Buffer.from(token);
  // Compare against a same-length buffer either way, so timing says nothing about the token.
  return timingSafeEqual(given.length === expected.length ? given : expected, expected) && given.length === expected.length;
}
