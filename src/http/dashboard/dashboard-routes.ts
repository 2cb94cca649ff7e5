/**
 * The dashboard's HTTP side, at `/` and under `/dashboard/` on tether serve's own origin:
 *
 *   GET  /                        the page (static: no data in it, so it needs no login)
 *   GET  /dashboard/app.js|.css   its code and style, from the package's build
 *   POST /dashboard/login-codes   a one-time login URL, for a holder of the bearer token
 *   GET  /dashboard/login?code=   exchanges the code for the session cookie and page secret
 *   GET  /dashboard/events        the live feed (server-sent events), for a logged-in page
 *   POST /dashboard/cancel        asks an editor to stop a call, for a logged-in page at this origin
 *
 * Every request has passed the Host and Origin guards before it gets here. The bearer token
 * is asked for only by /dashboard/login-codes: a browser cannot send it, and the page must
 * never hold it.
 */
import { readFileSync } from 'node:fs';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { join } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import type { DashboardFeed } from './dashboard-feed.js';
import { DashboardSessions, SECRET_HEADER } from './dashboard-sessions.js';

const ASSETS: Record<string, { file: string; type: string }> = {
  '/': { file: 'index.html', type: 'text/html; charset=utf-8' },
  '/dashboard/app.js': { file: 'app.js', type: 'text/javascript; charset=utf-8' },
  '/dashboard/app.css': { file: 'app.css', type: 'text/css; charset=utf-8' },
};

/** The page loads its own two files and talks to its own origin: nothing else, ever. */
const CONTENT_SECURITY_POLICY = "default-src 'none'; script-src 'self'; style-src 'self'; connect-src 'self'; img-src 'self' data:; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

const MAX_CANCEL_BODY = 4_096;

export interface DashboardRoutesOptions {
  /** Where the built page is (dist/web/dashboard in the package). */
  assetsDir: string;
  feed: DashboardFeed;
  /** This server's origin as a browser names it (http://127.0.0.1:7420): the only one that may cancel. */
  origins: () => ReadonlySet<string>;
  /** A logged-in page's connection is no longer timed or capped as a stranger's is. */
  authenticated: (socket: Socket) => void;
}

export class DashboardRoutes {
  readonly sessions = new DashboardSessions();
  private readonly assets = new Map<string, Buffer>();

  constructor(private readonly options: DashboardRoutesOptions) {}

  /** Whether a path is one of the dashboard's, served without the bearer token. */
  static isPublic(path: string, method: string | undefined): boolean {
    return (method === 'GET' && (path === '/' || path in ASSETS || path === '/dashboard/login' || path === '/dashboard/events')) || (method === 'POST' && path === '/dashboard/cancel');
  }

  /** Handles a dashboard request; false when the path is not the dashboard's. */
  async handle(req: IncomingMessage, res: ServerResponse, url: URL, bearerChecked: boolean): Promise<boolean> {
    const path = url.pathname;
    const asset = ASSETS[path];
    if (asset && req.method === 'GET') return (this.sendAsset(res, asset), true);
    if (path === '/dashboard/login-codes' && req.method === 'POST' && bearerChecked) {
      const code = this.sessions.issueCode();
      const origin = `http://${req.headers.host ?? ''}`;
      return (sendJson(res, 200, { url: `${origin}/dashboard/login?code=${code}`, expiresInSeconds: 120 }), true);
    }
    if (path === '/dashboard/login' && req.method === 'GET') return (this.login(res, url.searchParams.get('code') ?? ''), true);
    if (path === '/dashboard/events' && req.method === 'GET') {
      if (!this.loggedIn(req)) return (refuse(res, 401, 'LOGIN_REQUIRED', 'Log in to the dashboard with the link that `tether status --open` prints.'), true);
      this.stream(req, res);
      return true;
    }
    if (path === '/dashboard/cancel' && req.method === 'POST') return (await this.cancel(req, res), true);
    return false;
  }

  private sendAsset(res: ServerResponse, asset: { file: string; type: string }): void {
    let body = this.assets.get(asset.file);
    if (!body) {
      try {
        body = readFileSync(join(this.options.assetsDir, asset.file));
      } catch {
        return refuse(res, 404, 'NOT_FOUND', `The dashboard's ${asset.file} is missing from ${this.options.assetsDir}: run \`npm run build\` (or reinstall tether-mcp).`);
      }
      this.assets.set(asset.file, body);
    }
    res.writeHead(200, {
      'content-type': asset.type,
      'content-security-policy': CONTENT_SECURITY_POLICY,
      'x-content-type-options': 'nosniff',
      'referrer-policy': 'no-referrer',
      'cache-control': 'no-cache',
    });
    res.end(body);
  }

  private login(res: ServerResponse, code: string): void {
    const session = this.sessions.redeem(code);
    if (!session) {
      res.writeHead(403, { 'content-type': 'text/plain; charset=utf-8', 'referrer-policy': 'no-referrer' });
      res.end('This login link was used already or has expired (they last two minutes). Run `tether status --open` for a new one.\n');
      return;
    }
    // The secret rides in the fragment: browsers never send it on, and the page removes it from
    // the address bar (and so from history) as soon as it has read it.
    res.writeHead(303, { location: `/#session=${session.secret}`, 'set-cookie': DashboardSessions.cookie(session.id), 'referrer-policy': 'no-referrer', 'cache-control': 'no-store' });
    res.end();
  }

  private loggedIn(req: IncomingMessage): boolean {
    const ok = this.sessions.verify(req.headers.cookie, req.headers[SECRET_HEADER]);
    if (ok) this.options.authenticated(req.socket);
    return ok;
  }

  /**
   * The live feed, for as long as the login it opened with: a session evicted (by newer logins)
   * or idle past its time ends its stream at the next snapshot, which it does not get; the
   * page then asks to log in again.
   */
  private stream(req: IncomingMessage, res: ServerResponse): void {
    const { cookie } = req.headers;
    const secret = req.headers[SECRET_HEADER];
    res.writeHead(200, { 'content-type': 'text/event-stream', 'cache-control': 'no-store', connection: 'keep-alive' });
    const unsubscribe = this.options.feed.subscribe((snapshot) => {
      if (!this.sessions.holds(cookie, secret)) return void res.end();
      res.write(`event: snapshot\ndata: ${JSON.stringify(snapshot)}\n\n`);
    });
    req.socket.setTimeout(0);
    res.once('close', unsubscribe);
  }

  /** The one mutating action: a page at this very origin, logged in, asking in JSON. */
  private async cancel(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const origin = req.headers.origin;
    if (origin === undefined || !this.options.origins().has(origin)) {
      return refuse(res, 403, 'FORBIDDEN_ORIGIN', 'Only the dashboard page itself may cancel a call.');
    }
    if (!this.loggedIn(req)) return refuse(res, 401, 'LOGIN_REQUIRED', 'Log in to the dashboard with the link that `tether status --open` prints.');
    if (!(req.headers['content-type'] ?? '').startsWith('application/json')) return refuse(res, 415, 'BAD_REQUEST', 'Send the cancellation as application/json.');
    let body: { project?: unknown; callId?: unknown };
    try {
      body = JSON.parse(await readBody(req)) as typeof body;
    } catch (error) {
      return refuse(res, 400, 'BAD_REQUEST', `The cancellation is not JSON of the form {"project", "callId"}: ${(error as Error).message}`);
    }
    if (typeof body.project !== 'string' || typeof body.callId !== 'string') return refuse(res, 400, 'BAD_REQUEST', 'Send {"project": "<the editor\'s project>", "callId": "<the call>"}.');
    const watch = this.options.feed.watchOf(body.project);
    if (!watch) return refuse(res, 404, 'HOST_NOT_FOUND', `No editor of project ${body.project} is on the dashboard now.`);
    try {
      const status = await watch.cancel(body.callId, 'Cancelled from the Tether dashboard.');
      sendJson(res, 200, { status });
    } catch (error) {
      const failure = TetherError.from(error);
      sendJson(res, 409, { error: failure.code, message: failure.message, data: failure.data });
    }
  }
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    req.on('data', (chunk: Buffer) => {
      size += chunk.length;
      if (size > MAX_CANCEL_BODY) {
        reject(new Error(`more than ${MAX_CANCEL_BODY} bytes`));
        req.destroy();
      } else chunks.push(chunk);
    });
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(body));
}

function refuse(res: ServerResponse, status: number, code: string, message: string): void {
  sendJson(res, status, { error: code, message });
}
