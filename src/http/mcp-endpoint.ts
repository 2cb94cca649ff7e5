/**
 * /mcp: Streamable HTTP for both protocol eras. 2025-11-25 clients get a session (an
 * HttpSession in the bounded registry, which sleeps when idle); 2026-07-28 clients are served
 * statelessly by the SDK's handler. Either way the session or request is bound to one host:
 * the one for the X-Tether-Project header (percent-encoded: mcp-requests.ts), else the
 * server's default. A header that names no path is refused with BAD_REQUEST (400).
 */
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { toNodeHandler, type NodeMcpRequestHandler } from '@modelcontextprotocol/node';
import { createMcpHandler, type WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import type { Front } from '../mcp/front.js';
import { createMcpServer } from '../mcp/mcp-server.js';
import { sessionGone, type EndedSessions } from './ended-sessions.js';
import type { FrontPool } from './front-pool.js';
import { HttpSession, SessionWakeError, type HttpSessionDeps, type PoolName } from './http-session.js';
import { refuseFullPool, refuseOverShare, refuseSessionless, sendJsonRpcError, sendRegisteredError } from './mcp-replies.js';
import {
  PROTOCOL_VERSION_HEADER,
  SESSION_METHODS,
  callsIn,
  clientOf,
  header,
  isHandshakeOnly,
  isInitialize,
  isInitializeNotification,
  needsSession,
  projectOf,
  readJson,
  type ClientIdentity,
} from './mcp-requests.js';
import type { MemoryReclaimer } from './memory-reclaimer.js';
import { PoolFullError, type SessionRegistry } from './session-registry.js';
import { webRequestListener } from './web-adapter.js';

export const POOL_HEADER = 'x-tether-pool';

export interface EndpointDeps {
  fronts: FrontPool;
  registry: SessionRegistry<HttpSession, PoolName>;
  /** Why recently ended sessions ended, for the 404 their clients get. */
  ended: EndedSessions;
  maxBodyBytes: number;
  /** A session idle this long with nothing open lets its SDK server go until its next request (Infinity: never). */
  dormantAfterMs: number;
  /** Told of every session that falls asleep; given the chance to collect at each sweep. */
  reclaimer?: MemoryReclaimer;
  /**
   * Per pool: sessions nobody may evict yet that one client may hold once the pool is at its
   * capacity; its next initialize then gets 429 (see newSession). None: no such limit.
   */
  sessionsPerClient?: Partial<Record<PoolName, number>>;
  logger: Logger;
}

export class McpEndpoint {
  private readonly modern = new Map<Front, { handle: NodeMcpRequestHandler; close(): Promise<void> }>();
  /** What each Node request in flight is for: its session's transport and its parsed body. */
  private readonly routes = new WeakMap<IncomingMessage, { transport: WebStandardStreamableHTTPServerTransport; body: unknown }>();
  /** One Node-to-Web adapter for every session (the SDK's Node transport keeps one per session and builds another per request). */
  private readonly toTransport = webRequestListener(
    (request, incoming) => {
      const route = this.routes.get(incoming);
      if (!route) throw new Error('A request reached the session adapter without a route.');
      return route.transport.handleRequest(request, { parsedBody: route.body });
    },
    // Failures inside the transport reach our log and the client as JSON-RPC, not hono's bare 500.
    (error) => {
      this.deps.logger.error({ err: error }, 'session request failed');
      return Response.json({ jsonrpc: '2.0', id: null, error: { code: -32603, message: `Internal error: ${(error as Error).message}` } }, { status: 500 });
    },
  );

  private readonly awake = new Set<HttpSession>();
  /** Pools that refused an initialize since their last accepted one. */
  private readonly fullPools = new Set<PoolName>();
  /** When each pool last logged a client over its share (at most once a minute each). */
  private readonly shareLogged = new Map<PoolName, number>();
  private readonly sessionDeps: HttpSessionDeps;
  private readonly sweeper: ReturnType<typeof setInterval>;

  constructor(private readonly deps: EndpointDeps) {
    this.sessionDeps = {
      createServer: (front, taskOwner, onBindingChange) =>
        createMcpServer(front, 'legacy', {
          resolveFront: (project) => {
            const next = deps.fronts.get(project);
            return { front: next, release: deps.fronts.hold(next) };
          },
          onBindingChange,
          taskOwner,
          // A task started before a rebinding, or by an ended session, is at another front than this server's.
          taskStores: () => deps.fronts.all().map((front) => front.tasks),
        }),
      onClientDelete: (id) => void deps.registry.delete(id, 'deleted'),
      pin: (id) => deps.registry.pin(id),
      holdFront: (front) => deps.fronts.hold(front),
      // Any front's: a session rebound by tether_use_host may have left tasks at its first one.
      hasRunningTasks: (owner) => deps.fronts.all().some((front) => front.tasks.hasRunning(owner)),
      awake: this.awake,
      now: Date.now,
    };
    // A front closed for want of use takes its stateless handler (and its listeners) along.
    deps.fronts.onClosed((front) => {
      const handler = this.modern.get(front);
      this.modern.delete(front);
      void handler?.close().catch(() => undefined);
    });
    // Runs even when sessions never sleep: ended sessions' memory is reclaimed from here too.
    this.sweeper = setInterval(() => this.sweep(), Math.min(30_000, Math.max(50, deps.dormantAfterMs / 2)));
    this.sweeper.unref();
  }

  /** Sessions awake now; the others sleep (see http-session.ts). */
  get awakeSessions(): number {
    return this.awake.size;
  }

  async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body: unknown;
    if (req.method === 'POST') {
      const read = await readJson(req, this.deps.maxBodyBytes);
      if (!read.ok) return sendJsonRpcError(res, read.status, read.code, read.message);
      body = read.value;
    }
    const sessionId = header(req, 'mcp-session-id');
    if (sessionId) return this.inSession(sessionId, req, res, body);
    if (isInitializeNotification(body)) {
      return sendJsonRpcError(res, 400, -32600, 'Invalid Request: "initialize" is a request: give it an "id". Its answer carries the new session\'s Mcp-Session-Id header.');
    }
    if (isInitialize(body)) return this.newSession(req, res, body);
    // A GET stream or a DELETE names a session by definition: without its id, 405 "method not allowed" would mislead.
    if (SESSION_METHODS.has(req.method ?? '') && needsSession(req, body)) return refuseSessionless(res, header(req, PROTOCOL_VERSION_HEADER));
    const project = this.projectFor(req, res);
    if (!project) return;
    const front = this.deps.fronts.get(project.name);
    // Held until the response ends, so a stream it serves keeps its front.
    res.once('close', this.deps.fronts.hold(front));
    return this.modernFor(front).handle(req, res, body);
  }

  async close(): Promise<void> {
    clearInterval(this.sweeper);
    await Promise.all([...this.modern.values()].map((m) => m.close()));
    this.modern.clear();
  }

  /** The project the request names (no name: the default), or undefined once it is refused as unreadable (400). */
  private projectFor(req: IncomingMessage, res: ServerResponse): { name: string | undefined } | undefined {
    const project = projectOf(req);
    if (project.ok) return { name: project.project };
    sendRegisteredError(res, 'BAD_REQUEST', project.message, { header: 'X-Tether-Project' });
    return undefined;
  }

  private async inSession(id: string, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const session = this.deps.registry.get(id);
    // Unknown (or ended) session: 404, so the client knows to initialize again, and why if known.
    if (!session) {
      const { message, data } = sessionGone(id, this.deps.ended.endOf(id));
      const { code, ...rest } = data as { code: 'SESSION_NOT_FOUND' | 'SESSION_ENDED' };
      return sendRegisteredError(res, code, message, rest);
    }
    // A session with a call in flight is pinned: never evicted while the call runs. This pin
    // covers the HTTP exchange (waking included); the session pins itself for as long as a
    // request stays unanswered, even after its stream dropped (unanswered-requests.ts).
    const release = callsIn(body) > 0 ? this.deps.registry.pin(id) : undefined;
    // Anything beyond the handshake proves the session is an agent's at work: eviction spares it
    // until the sessions nobody has used yet are gone (session-registry.ts).
    if (!isHandshakeOnly(req, body)) this.deps.registry.prove(id);
    res.once('close', () => {
      release?.();
      if (!res.writableEnded) this.deps.logger.debug({ id }, 'stream closed by the client before its end');
    });
    try {
      await session.handle(body, (transport) => this.serve(transport, req, res, body));
    } catch (error) {
      if (!(error instanceof SessionWakeError)) throw error;
      this.deps.logger.warn({ id, err: error }, 'a dormant session could not be woken; ending it');
      void this.deps.registry.delete(id, 'deleted');
      sendRegisteredError(res, 'SESSION_ENDED', `Session "${id}" could not be restored after it slept (${error.message}); initialize a new one.`, { reason: 'deleted' });
    }
  }

  private sweep(): void {
    // First: what was released before this sweep. A server let go just now is still held by
    // the promises of its closing, so a collection in the same turn could not free it.
    this.deps.reclaimer?.maybeCollect();
    for (const session of [...this.awake]) {
      if (!session.sleepIfIdle(this.deps.dormantAfterMs)) continue;
      this.deps.logger.debug({ id: session.id }, 'session dormant');
      this.deps.reclaimer?.release();
    }
  }

  private async serve(transport: WebStandardStreamableHTTPServerTransport, req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    this.routes.set(req, { transport, body });
    await this.toTransport(req, res);
  }

  private async newSession(req: IncomingMessage, res: ServerResponse, body: unknown): Promise<void> {
    const project = this.projectFor(req, res);
    if (!project) return;
    const pool: PoolName = header(req, POOL_HEADER) === 'ephemeral' ? 'ephemeral' : 'interactive';
    const client = clientOf(req, body);
    // Each client its share. While the pool has room, anyone may open sessions (a benchmark, a
    // script with many): nobody is displaced. Once it is at its capacity, new sessions make room
    // (session-registry.ts: never used first, then the biggest holder's), or grow the pool toward
    // its ceiling while nothing may be evicted; a client already holding its share of sessions
    // nobody may evict yet is the one refused, with when one of them frees, instead of every
    // newcomer getting 503 once the ceiling is reached.
    const share = this.deps.sessionsPerClient?.[pool];
    const registry = this.deps.registry;
    if (share !== undefined && registry.size(pool) >= registry.capacity(pool)) {
      const held = registry.protectedOf(pool, client.source);
      if (held.count >= share) return this.refuseOverShare(res, pool, client, share, held);
    }
    const id = randomUUID();
    const session = new HttpSession(id, pool, this.deps.fronts.get(project.name), this.sessionDeps);
    let evicted: string[];
    try {
      // Room is made (evicting) only once the SDK has taken the initialize, below: a refused one evicts nobody.
      evicted = this.deps.registry.put(id, pool, session, { trim: false, source: client.source });
    } catch (error) {
      if (!(error instanceof PoolFullError)) throw error;
      void session.shutdown('shutdown'); // never registered: this only lets go of its front
      // Once per episode: a flood of initializes would otherwise write a line each.
      if (!this.fullPools.has(pool)) this.deps.logger.warn({ pool, ceiling: error.ceiling }, 'session pool full: initialize refused until room is made');
      this.fullPools.add(pool);
      return refuseFullPool(res, error);
    }
    this.fullPools.delete(pool);
    try {
      await session.handle(body, (transport) => this.serve(transport, req, res, body));
    } finally {
      // Refused (a malformed initialize, an Accept header without both types): its client never
      // got the id, so nothing may keep a place in the pool, a server and a front for it.
      if (!session.established) void this.deps.registry.delete(id, 'refused');
      else evicted.push(...this.deps.registry.trimFor(id));
      if (evicted.length > 0) this.deps.logger.info({ evicted, pool }, 'sessions evicted to make room');
    }
  }

  /** 429 for a client over its share of a full pool, said in the log at most once a minute per pool. */
  private refuseOverShare(res: ServerResponse, pool: PoolName, client: ClientIdentity, share: number, held: { count: number; nextEvictableInMs: number | undefined }): void {
    const now = performance.now();
    if (now - (this.shareLogged.get(pool) ?? Number.NEGATIVE_INFINITY) >= 60_000) {
      this.shareLogged.set(pool, now);
      this.deps.logger.warn({ pool, client: client.name, address: client.address, held: held.count, share }, 'a client holds its share of a full session pool: its initialize refused with 429');
    }
    refuseOverShare(res, pool, client, share, held);
  }

  private modernFor(front: Front): { handle: NodeMcpRequestHandler; close(): Promise<void> } {
    let entry = this.modern.get(front);
    if (!entry) {
      const handler = createMcpHandler(() => createMcpServer(front, 'modern'), {
        legacy: 'reject',
        onerror: (error) => this.deps.logger.warn({ err: error }, 'mcp handler error'),
      });
      // Per-request server instances cannot push; the handler's notifier reaches listen streams.
      front.attach({
        toolsChanged: () => handler.notify.toolsChanged(),
        resourcesChanged: () => handler.notify.resourcesChanged(),
        promptsChanged: () => handler.notify.promptsChanged(),
        resourceUpdated: (uri) => handler.notify.resourceUpdated(uri),
      });
      entry = { handle: toNodeHandler(handler), close: () => handler.close() };
      this.modern.set(front, entry);
    }
    return entry;
  }
}
