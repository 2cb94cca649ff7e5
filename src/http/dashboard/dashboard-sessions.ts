/**
 * Who may see the dashboard: the person at this machine, proven in two halves.
 *
 * A login starts with a one-time code that only a holder of serve's bearer token can ask for
 * (`tether start`, `tether status --open`): the URL printed holds that code, never the token,
 * and the code is dead once used or after two minutes. Exchanging it gives the browser:
 *  - a cookie (HttpOnly, SameSite=Strict, Path=/dashboard): the session id; and
 *  - a page secret, in the redirect's fragment (never sent to a server, never logged), that the
 *    page keeps in sessionStorage and sends as a header with every request.
 * Both are needed. Cookies are not isolated by port, so another local server the person visits
 * (127.0.0.1:3000) would receive the cookie, and SameSite treats every localhost port as the
 * same site; sessionStorage is per origin, port included, so no other page can read the secret.
 */
import { randomBytes, timingSafeEqual } from 'node:crypto';

export const COOKIE_NAME = 'tether_dashboard';
export const SECRET_HEADER = 'x-tether-dashboard';

const CODE_TTL_MS = 2 * 60_000;
const MAX_CODES = 16;
const SESSION_IDLE_MS = 12 * 60 * 60_000;
const MAX_SESSIONS = 32;

interface Session {
  secret: string;
  lastUsed: number;
}

function token(): string {
  return randomBytes(32).toString('base64url');
}

function same(a: string, b: string): boolean {
  const left = Buffer.from(a);
  const right = Buffer.from(b);
  return left.length === right.length && timingSafeEqual(left, right);
}

export class DashboardSessions {
  private readonly codes = new Map<string, number>();
  private readonly sessions = new Map<string, Session>();

  constructor(private readonly now: () => number = Date.now) {}

  /** A one-time login code (for a holder of the bearer token). */
  issueCode(): string {
    this.prune();
    // Bounded: a script asking in a loop keeps only the latest few alive.
    while (this.codes.size >= MAX_CODES) this.codes.delete(this.codes.keys().next().value as string);
    const code = token();
    this.codes.set(code, this.now() + CODE_TTL_MS);
    return code;
  }

  /** Exchanges a code, once, for a new session: its id (the cookie) and its page secret. */
  redeem(code: string): { id: string; secret: string } | undefined {
    this.prune();
    let found: string | undefined;
    for (const known of this.codes.keys()) if (same(known, code)) found = known;
    if (found === undefined) return undefined;
    this.codes.delete(found);
    while (this.sessions.size >= MAX_SESSIONS) this.sessions.delete(this.sessions.keys().next().value as string);
    const id = token();
    const secret = token();
    this.sessions.set(id, { secret, lastUsed: this.now() });
    return { id, secret };
  }

  /** Whether a request carries a live session's cookie and that session's page secret; a use of it. */
  verify(cookieHeader: string | undefined, secret: string | string[] | undefined): boolean {
    const id = cookieValue(cookieHeader, COOKIE_NAME);
    const session = this.live(id, secret);
    if (!session) return false;
    session.lastUsed = this.now();
    // Most recently used last: the first to go when the map is full is the least recently used.
    this.sessions.delete(id as string);
    this.sessions.set(id as string, session);
    return true;
  }

  /** Whether that session is still live (not evicted, not idle too long), without counting as a use of it. */
  holds(cookieHeader: string | undefined, secret: string | string[] | undefined): boolean {
    return this.live(cookieValue(cookieHeader, COOKIE_NAME), secret) !== undefined;
  }

  private live(id: string | undefined, secret: string | string[] | undefined): Session | undefined {
    if (typeof secret !== 'string' || id === undefined) return undefined;
    const session = this.sessions.get(id);
    if (!session || this.now() - session.lastUsed > SESSION_IDLE_MS || !same(session.secret, secret)) return undefined;
    return session;
  }

  /** The Set-Cookie value for a session id. */
  static cookie(id: string): string {
    return `${COOKIE_NAME}=${id}; HttpOnly; SameSite=Strict; Path=/dashboard; Max-Age=${SESSION_IDLE_MS / 1000}`;
  }

  private prune(): void {
    const now = this.now();
    for (const [code, expires] of this.codes) if (expires <= now) this.codes.delete(code);
    for (const [id, session] of this.sessions) if (now - session.lastUsed > SESSION_IDLE_MS) this.sessions.delete(id);
  }
}

/** One cookie's value from a Cookie header (`a=1; tether_dashboard=xyz`). */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  for (const part of header.split(';')) {
    const eq = part.indexOf('=');
    if (eq > 0 && part.slice(0, eq).trim() === name) return part.slice(eq + 1).trim();
  }
  return undefined;
}
