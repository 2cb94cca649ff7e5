/**
 * `tether serve`: MCP over Streamable HTTP at /mcp for many agents at once, plus /healthz and
 * /metrics. Every request passes the guards first (Host, Origin, bearer token, body size; a
 * browser's CORS preflight, Host and Origin); loopback only unless non-loopback is explicitly
 * allowed.
 */
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import type { Logger } from 'pino';
import { join } from 'node:path';
import { hostsDir, tetherHome } from '../discovery/tether-home.js';
import { SERVE_CLIENT_NAME } from '../protocol/index.js';
import { EndedSessions } from './ended-sessions.js';
import { FrontPool } from './front-pool.js';
import type { HttpSession, PoolName } from './http-session.js';
import { McpEndpoint } from './mcp-endpoint.js';
import { sendJsonRpcError, sendRegisteredError } from './mcp-replies.js';
import { MemoryReclaimer } from './memory-reclaimer.js';
import { PendingConnections, type ShedReason } from './pending-connections.js';
import { ServeMetrics } from './metrics.js';
import { sendHealth, sendServeStatus, serveStatus } from './status-endpoint.js';
import { allowOrigin, answerPreflight, isPreflight } from './cors.js';
import { checkRequest, originAllowed, requestTarget, urlHost, type GuardOptions } from './request-guards.js';
import { DashboardFeed } from './dashboard/dashboard-feed.js';
import { DashboardRoutes } from './dashboard/dashboard-routes.js';
import { loadOrCreateToken, removeServeState, tokenPath, writeServeState, type ServeState } from './serve-state.js';
import { listenAddress, type ListenOptions } from './listen-address.js';
import {
  DEFAULT_MAX_UNAUTHENTICATED_CONNECTIONS,
  DEFAULT_SESSION_DORMANT_MS,
  KEEPALIVE_DELAY_MS,
  RECLAIM_AFTER_SESSIONS,
  RECLAIM_PACE,
  REQUEST_TIMEOUT_MS,
  SHED_LOG_INTERVAL_MS,
  headerTimeout,
  sessionPools,
  sessionsPerClient,
} from './serve-defaults.js';
import { SessionRegistry, type PoolOptions } from './session-registry.js';

export interface TetherServerOptions extends ListenOptions {
  port?: number;
  /** Where the dashboard's built page is (dist/web/dashboard); without it, / says how to build it. */
  dashboardAssets?: string;
  project?: string;
  home?: string;
  waitMs?: number;
  maxBodyBytes?: number;
  pools?: Partial<Record<PoolName, Partial<PoolOptions>>>;
  /** A session idle this long with nothing open lets its SDK server go until its next request (Infinity: never). */
  sessionDormantMs?: number;
  /**
   * How long a connection may take to bring a request that passes the token check (from its
   * accept), and how long any request's headers may take (`--header-timeout-ms`).
   */
  headerTimeoutMs?: number;
  /** Connections without such a request held at once; past it the oldest are closed (`--max-unauthenticated-connections`). */
  maxUnauthenticatedConnections?: number;
  /**
   * Sessions nobody may evict yet that one client may hold in a pool at its capacity before its
   * initialize is refused (`--sessions-per-client`; default: half the capacity, at least 16).
   */
  sessionsPerClient?: number;
  logger: Logger;
}

/**
 * At shutdown, how long the cancels of calls in flight may wait for their editor (one that
 * is reloading: a connected one takes them at once), how long a cancelled call may then take
 * to end with its editor's own word, and how long its answer may take to be written. The
 * shutdown takes 3 s at most, within the CLI's 5 s and leaving an editor `tether start` runs
 * time to quit. A call whose editor does not come back in time is answered OUTCOME_UNKNOWN.
 */
const CANCEL_WITHIN_MS = 1_000;
const CALL_SETTLE_MS = 1_500;
const ANSWER_GRACE_MS = 500;

export class TetherServer {
  readonly fronts: FrontPool;
  readonly registry: SessionRegistry<HttpSession, PoolName>;
  readonly metrics: ServeMetrics;
  private readonly ended = new EndedSessions();
  private readonly endpoint: McpEndpoint;
  private readonly dashboard: DashboardRoutes;
  private readonly feed: DashboardFeed;
  private readonly reclaimer: MemoryReclaimer;
  private readonly http: Server;
  /** Its allowed origins grow by the server's own once it listens (see start). */
  private readonly guards: GuardOptions & { allowedOrigins: Set<string> };
  /** The address to listen on, checked. */
  private readonly host: string;
  private readonly home: string;
  private boundUrl: string | undefined;
  /** What serve.json said before this server wrote it: another server of this home, still running. */
  private replacedState: ServeState | undefined;
  private closing: Promise<void> | undefined;
  /** Streams that may carry an answer, not yet ended (POSTs, resumed GETs): at shutdown, the answers to calls still go out on them. */
  private readonly openAnswers = new Set<ServerResponse>();
  /** Connections that have not brought a request that passed the token check. */
  private readonly pendingConnections: PendingConnections;
  private readonly shed = { timeout: 0, cap: 0, loggedAt: Number.NEGATIVE_INFINITY };

  constructor(private readonly options: TetherServerOptions) {
    // Checked before anything is built: a bad address, name or timeout ends the command, not a half-made server.
    const address = listenAddress(options, options.logger);
    this.host = address.host;
    const headerTimeoutMs = headerTimeout(options.headerTimeoutMs);
    this.pendingConnections = new PendingConnections({
      timeoutMs: headerTimeoutMs,
      max: options.maxUnauthenticatedConnections ?? DEFAULT_MAX_UNAUTHENTICATED_CONNECTIONS,
      onShed: (reason) => this.onShed(reason),
    });
    this.home = options.home ?? tetherHome();
    this.fronts = new FrontPool({
      ...(options.project ? { project: options.project } : {}),
      ...(options.waitMs === undefined ? {} : { waitMs: options.waitMs }),
      link: { clientName: SERVE_CLIENT_NAME },
      home: this.home,
      logger: options.logger,
      onCallFinished: (tool, outcome, seconds) => this.metrics.callLatency.observe({ tool, outcome }, seconds),
    });
    const pools = sessionPools(options.pools);
    this.metrics = new ServeMetrics({
      sessions: () => Object.fromEntries(Object.keys(pools).map((pool) => [pool, this.registry.size(pool as PoolName)])),
      callsInFlight: () => this.callsInFlight(),
    });
    this.reclaimer = new MemoryReclaimer({
      threshold: RECLAIM_AFTER_SESSIONS,
      pace: RECLAIM_PACE,
      busy: () => this.callsInFlight() > 0,
      now: () => performance.now(),
      onCollected: ({ sessions, ms, freedBytes }) => {
        this.metrics.reclaims.inc();
        options.logger.debug({ sessions, ms: Math.round(ms), freedMiB: Math.round(freedBytes / 10_485.76) / 100 }, 'memory of sleeping and ended sessions collected');
      },
      onUnavailable: () => options.logger.info('no full garbage collection available: the memory of sleeping sessions is left to V8'),
    });
    this.registry = new SessionRegistry<HttpSession, PoolName>({
      pools,
      onEnd: (id, session, reason) => {
        // Counted even if it slept first: what it kept asleep (handshake, event store) goes now.
        this.reclaimer.release();
        if (reason === 'evicted' || reason === 'idle') this.metrics.evictions.inc({ pool: session.pool, reason });
        this.ended.remember(id, reason, session.pool);
        options.logger.debug({ id, reason }, 'session ended');
      },
      log: (event, data) => options.logger.info(data, event),
    });
    this.fronts.each((front, key) => {
      let connections = 0;
      front.attach({
        connected: () => {
          if (connections++ > 0) this.metrics.reconnects.inc({ project: key || 'default' });
        },
      });
    });
    this.endpoint = new McpEndpoint({
      fronts: this.fronts,
      registry: this.registry,
      ended: this.ended,
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
      dormantAfterMs: options.sessionDormantMs ?? DEFAULT_SESSION_DORMANT_MS,
      reclaimer: this.reclaimer,
      sessionsPerClient: sessionsPerClient(pools, options.sessionsPerClient),
      logger: options.logger,
    });
    this.feed = new DashboardFeed({
      recordsDir: hostsDir(this.home),
      logsDir: join(this.home, 'logs'),
      httpAgents: () =>
        this.fronts.all().flatMap((front) => {
          const { project, agents } = front.status();
          return agents.map((agent) => ({ ...agent, ...(project ? { project } : {}) }));
        }),
    });
    this.dashboard = new DashboardRoutes({
      assetsDir: options.dashboardAssets ?? join(this.home, 'no-dashboard-build'),
      feed: this.feed,
      origins: () => this.ownOrigins(),
      authenticated: (socket) => this.pendingConnections.authenticated(socket),
    });
    this.guards = {
      allowedHosts: address.allowedHosts,
      allowedOrigins: new Set(address.allowedOrigins),
      token: loadOrCreateToken(this.home, options.logger),
      maxBodyBytes: options.maxBodyBytes ?? 4 * 1024 * 1024,
    };
    this.http = createServer(
      {
        // TCP keepalive: a client listening on a stream that then vanished without a word (a remote
        // machine asleep or gone) is found dead by the system, and its session becomes idle again.
        keepAlive: true,
        keepAliveInitialDelay: KEEPALIVE_DELAY_MS,
        // Node's timers for any connection's next request (an agent's keep-alive ones too), checked
        // often enough to hold to them; the first request of a connection is bounded by pendingConnections.
        headersTimeout: headerTimeoutMs,
        requestTimeout: REQUEST_TIMEOUT_MS,
        connectionsCheckingInterval: Math.min(headerTimeoutMs, 30_000),
      },
      (req, res) => void this.route(req, res),
    );
    this.http.on('connection', (socket: Socket) => this.pendingConnections.admit(socket));
  }

  get url(): string | undefined {
    return this.boundUrl;
  }

  get token(): string {
    return this.guards.token;
  }

  async start(): Promise<string> {
    const { host } = this;
    await new Promise<void>((resolve, reject) => {
      this.http.once('error', reject);
      this.http.listen(this.options.port ?? 0, host, () => resolve());
    });
    const { port } = this.http.address() as { port: number };
    this.boundUrl = `http://${urlHost(host)}:${port}/mcp`;
    // The server's own pages (the dashboard) are at its own origins, whatever name or address
    // it is reached by: a bind address other than loopback's names, or an --allowed-host.
    for (const origin of this.ownOrigins()) this.guards.allowedOrigins.add(origin);
    this.registry.start();
    this.fronts.get(); // connect the default host now, so /healthz and the first call are ready
    this.replacedState = writeServeState(this.home, { url: this.boundUrl, token: this.guards.token, pid: process.pid, tokenPath: tokenPath(this.home) });
    if (this.replacedState) {
      this.options.logger.warn(
        { other: { url: this.replacedState.url, pid: this.replacedState.pid } },
        'another tether serve of this TETHER_HOME runs: serve.json names this one until it stops, then that one again',
      );
    }
    return this.boundUrl;
  }

  /**
   * Shuts down without leaving a call unanswered: no new connection or request is taken; the
   * calls in flight are cancelled at their editors while their clients are still connected,
   * so each hears how its call ended (cancelled, finished anyway, or outcome unknown) instead
   * of a cut stream; then the connections close and the sessions end. Bounded: a few seconds
   * at most (the CLI gives up after 5).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      removeServeState(this.home, process.pid, this.replacedState);
      const stopped = new Promise<void>((resolve) => this.http.close(() => resolve()));
      try {
        await this.fronts.close({ reason: 'tether serve is shutting down.', cancelWithinMs: CANCEL_WITHIN_MS, settleMs: CALL_SETTLE_MS });
        // The answers just given still have to be written: each answering stream ends once it is.
        // (The grace timer is unreferenced, so it outlives nothing: the sockets waited on keep the process up.)
        const answered = [...this.openAnswers].map((res) => new Promise((resolve) => res.once('close', resolve)));
        await Promise.race([Promise.all(answered), delay(ANSWER_GRACE_MS, undefined, { ref: false })]);
      } finally {
        this.http.closeAllConnections();
        await stopped;
        this.feed.close();
        await this.registry.close();
        await this.endpoint.close();
      }
    })();
    return this.closing;
  }

  /** The origins a browser gives this server's own pages (the dashboard's cancel must come from one). */
  private ownOrigins(): Set<string> {
    const url = this.boundUrl;
    if (!url) return new Set();
    const { port } = new URL(url);
    const names = [...this.guards.allowedHosts].map((name) => `http://${name.includes(':') && !name.startsWith('[') ? `[${name}]` : name}:${port}`);
    return new Set([new URL(url).origin, ...names]);
  }

  private async route(req: IncomingMessage, res: ServerResponse): Promise<void> {
    // Where answers go: each POST's own stream, and a stream a client resumed (Last-Event-ID)
    // after losing a POST's, which carries that call's answer instead.
    if (req.method === 'POST' || (req.method === 'GET' && req.headers['last-event-id'] !== undefined)) {
      this.openAnswers.add(res);
      res.once('close', () => this.openAnswers.delete(res));
    }
    try {
      const preflight = isPreflight(req);
      const target = requestTarget(req.url);
      // The dashboard's page and its logged-in requests carry no bearer token (a browser cannot
      // send it, and the page must never hold it): Host and Origin are checked all the same.
      const bearer = !(target && DashboardRoutes.isPublic(target.pathname, req.method));
      const refusal = checkRequest(req, this.guards, { preflight, bearer });
      // The token checked: the connection is an agent's, and no longer timed or capped.
      if (!refusal && !preflight && bearer) this.pendingConnections.authenticated(req.socket);
      // A page at an allowed origin may read the answer, a refusal included (a 401 says what to send).
      const { origin } = req.headers;
      if (origin !== undefined && originAllowed(origin, this.guards.allowedOrigins)) allowOrigin(res, origin);
      if (preflight && !refusal) return answerPreflight(req, res);
      if (refusal) {
        res.writeHead(refusal.status, {
          'content-type': 'application/json',
          // No keep-alive for a request refused before or at the token check: a peer without the
          // token keeps nothing open. (A body too large comes after it: Node reads the rest away,
          // so the client, still sending, can read the 413.)
          ...(refusal.code === 'BODY_TOO_LARGE' ? {} : { connection: 'close' }),
          ...(refusal.challenge ? { 'www-authenticate': refusal.challenge } : {}),
        });
        res.end(JSON.stringify({ error: refusal.code, message: refusal.message }));
        return;
      }
      // After the guards: a stranger learns nothing, not even that a Tether is stopping here.
      if (this.closing) {
        sendRegisteredError(
          res,
          'SHUTTING_DOWN',
          'tether serve is shutting down; send this again once it is back (the client configuration stays valid).',
          {},
          {
            connection: 'close',
          },
        );
        return;
      }
      const path = target?.pathname; // a valid URL: the guards checked it
      if (path === '/mcp') return await this.endpoint.handle(req, res);
      if (target && (await this.dashboard.handle(req, res, target, bearer))) return;
      if (path === '/healthz' && req.method === 'GET') return sendHealth(res, this.fronts.all(), this.sessionCounts());
      if (path === '/status' && req.method === 'GET') return sendServeStatus(res, serveStatus(this.fronts.all(), this.sessionCounts()));
      if (path === '/metrics' && req.method === 'GET') {
        const { contentType, body } = await this.metrics.text();
        res.writeHead(200, { 'content-type': contentType });
        res.end(body);
        return;
      }
      res.writeHead(404, { 'content-type': 'application/json' });
      res.end(JSON.stringify({ error: 'NOT_FOUND', message: 'Tether serves /mcp, /healthz, /status, /metrics and its dashboard at /.' }));
    } catch (error) {
      this.options.logger.error({ err: error }, 'request failed');
      sendJsonRpcError(res, 500, -32603, `Internal error: ${(error as Error).message}`);
    }
  }

  /**
   * A connection closed for bringing no request that passed the token check in time (now and
   * then normal: a browser's spare connection), or for being one too many of those: a flood,
   * said at most once a minute, with the counts since the last time.
   */
  private onShed(reason: ShedReason): void {
    this.shed[reason]++;
    const now = performance.now();
    if (reason !== 'cap' || now - this.shed.loggedAt < SHED_LOG_INTERVAL_MS) return;
    this.options.logger.warn(
      { overCap: this.shed.cap, timedOut: this.shed.timeout, pending: this.pendingConnections.size },
      'closing the oldest connections that brought no request with the token: more were open than --max-unauthenticated-connections (a flood?)',
    );
    this.shed.timeout = 0;
    this.shed.cap = 0;
    this.shed.loggedAt = now;
  }

  /** Sessions by pool, evictions and reaps, and how many sessions are awake. */
  private sessionCounts(): Record<string, unknown> {
    return { ...this.registry.stats(), awake: this.endpoint.awakeSessions };
  }

  /** Tool calls waiting for a host, across every project's front. */
  private callsInFlight(): number {
    return this.fronts.all().reduce((sum, front) => sum + front.callsInFlight, 0);
  }
}
