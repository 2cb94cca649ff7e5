/**
 * One 2025-era MCP session of `tether serve`.
 *
 * In use, a session owns an SDK server and transport: about 40 KiB, most of what a session
 * costs. Once it has been idle for `dormantAfterMs` with nothing open (no HTTP request being
 * answered, no SSE stream, no JSON-RPC request unanswered even if its stream dropped, no
 * resource subscription, no task still running) it lets them go and keeps only what it takes
 * to build them again: the client's handshake (`initialize`, `notifications/initialized`, its
 * last `logging/setLevel`), the project it is bound to, its task-owner token and its event
 * store (which still holds the recent answers a client may resume). Its next request wakes
 * it: a new server and transport, the handshake replayed through the transport as Web
 * Requests (their answers not kept), then the request itself. The SDK has no supported way to
 * restore a session (docs/performance.md), so waking goes through the transport's public
 * entry point, as the client itself did.
 */
import { WebStandardStreamableHTTPServerTransport, type Server } from '@modelcontextprotocol/server';
import type { Front } from '../mcp/front.js';
import type { SessionBinding } from '../mcp/mcp-server.js';
import { SessionEventStore } from './event-store.js';
import type { EndReason, ManagedSession } from './managed-session.js';
import { messagesIn, methodOf } from './mcp-requests.js';
import { UnansweredRequests } from './unanswered-requests.js';

export type PoolName = 'interactive' | 'ephemeral';

export interface HttpSessionDeps {
  /**
   * Builds the session's SDK server, bound to `front`; it reports rebinding and subscriptions.
   * `taskOwner` is the session's own, the same for every server it builds: its tasks/list
   * still shows the tasks it started before it slept.
   */
  createServer(front: Front, taskOwner: object, onBindingChange: (binding: SessionBinding) => void): Server;
  /** The client ended the session (DELETE). */
  onClientDelete(id: string): void;
  /** Pins the session in its registry (not evicted, not reaped) until the returned release. */
  pin(id: string): () => void;
  /** Whether a task of this owner still runs: its progress goes out through the owner's server. */
  hasRunningTasks(owner: object): boolean;
  /** Keeps a front open while the session is bound to it, until the returned release. */
  holdFront(front: Front): () => void;
  /** Sessions that are awake (the endpoint sweeps them); a dormant session is not in it. */
  awake: Set<HttpSession>;
  now(): number;
}

interface Awake {
  server: Server;
  transport: WebStandardStreamableHTTPServerTransport;
}

/** The handshake messages that set a session's state in the SDK server, in replay order. */
const HANDSHAKE_METHODS = ['initialize', 'notifications/initialized', 'logging/setLevel'] as const;
type HandshakeMethod = (typeof HANDSHAKE_METHODS)[number];

/** Where replayed requests claim to come from; the transport does not look at it. */
const REPLAY_URL = 'http://127.0.0.1/mcp';

/** The session could not be rebuilt; the client should initialize a new one. */
export class SessionWakeError extends Error {}

export class HttpSession implements ManagedSession {
  readonly events = new SessionEventStore();
  private awake: Awake | undefined;
  private waking: Promise<Awake> | undefined;
  /** HTTP requests of this session still being answered (an SSE stream counts until it closes). */
  private exchanges = 0;
  /**
   * JSON-RPC requests the server has not answered yet. Not the same as the above: when a
   * client's stream drops, its request runs on, and the answer goes to the event store for
   * the client to resume; closing the server now would cancel the call. They pin the session.
   */
  private readonly unanswered: UnansweredRequests;
  private lastActive: number;
  private readonly handshake = new Map<HandshakeMethod, unknown>();
  private binding: SessionBinding;
  private releaseFront: () => void;
  /** Whose tasks are this session's (see createServer). */
  private readonly taskOwner = {};
  /** The front's catalog revision when the session fell asleep: changes since are announced on waking. */
  private catalogRevision = 0;
  private ended = false;

  constructor(
    readonly id: string,
    readonly pool: PoolName,
    front: Front,
    private readonly deps: HttpSessionDeps,
  ) {
    this.binding = { front, subscriptions: 0 };
    this.releaseFront = deps.holdFront(front);
    this.lastActive = deps.now();
    this.unanswered = new UnansweredRequests(() => deps.pin(id));
  }

  /** Answers one HTTP request of this session through `serve`, waking the session first if it sleeps. */
  async handle(body: unknown, serve: (transport: WebStandardStreamableHTTPServerTransport) => Promise<void>): Promise<void> {
    this.exchanges++;
    try {
      const { transport } = await this.wake();
      this.remember(body);
      await serve(transport);
    } finally {
      this.exchanges--;
      this.lastActive = this.deps.now();
    }
  }

  /** An HTTP exchange of the session is open: a request being answered, or a stream the client listens on. */
  inUse(): boolean {
    return this.exchanges > 0;
  }

  /** The SDK took the initialize that makes the session: its client has the id. */
  get established(): boolean {
    return this.awake?.transport.sessionId !== undefined;
  }

  /** Lets the server and transport go if the session has been idle long enough with nothing open; true if it did. */
  sleepIfIdle(dormantAfterMs: number): boolean {
    const awake = this.awake;
    if (!awake || this.waking || this.ended || this.exchanges > 0 || this.unanswered.size > 0 || this.binding.subscriptions > 0) return false;
    if (!this.handshake.has('initialize') || this.deps.now() - this.lastActive < dormantAfterMs) return false;
    if (this.deps.hasRunningTasks(this.taskOwner)) return false;
    this.catalogRevision = this.binding.front.listsRevision;
    // No event comes while it sleeps: what has expired goes now, not at its next call.
    this.events.prune();
    this.awake = undefined;
    this.deps.awake.delete(this);
    // Nothing is open, so closing ends no stream and no request; the transport's DELETE hook is not involved.
    void awake.server.close().catch(() => undefined);
    return true;
  }

  async shutdown(_reason: EndReason): Promise<void> {
    this.ended = true;
    this.deps.awake.delete(this);
    this.unanswered.clear();
    this.releaseFront();
    const awake = this.awake ?? (await this.waking?.catch(() => undefined));
    this.awake = undefined;
    // Closing the server aborts its in-flight requests, which cancels their host calls.
    await awake?.server.close();
  }

  private wake(): Promise<Awake> {
    if (this.awake) return Promise.resolve(this.awake);
    this.waking ??= this.build().finally(() => (this.waking = undefined));
    return this.waking;
  }

  private async build(): Promise<Awake> {
    const transport = new WebStandardStreamableHTTPServerTransport({
      sessionIdGenerator: () => this.id,
      // Resumable streams: a client whose SSE stream dropped comes back with Last-Event-ID.
      eventStore: this.events,
      retryInterval: 1_000,
      onsessionclosed: (closed) => this.deps.onClientDelete(closed),
    });
    const server = this.deps.createServer(this.binding.front, this.taskOwner, (binding) => this.rebind(binding));
    await server.connect(transport);
    this.unanswered.watch(transport);
    const replayed = this.handshake.has('initialize');
    try {
      if (replayed) await this.replayHandshake(transport);
    } catch (error) {
      await server.close().catch(() => undefined);
      throw error;
    }
    if (this.ended) {
      await server.close().catch(() => undefined);
      throw new SessionWakeError('the session ended while it was waking');
    }
    this.awake = { server, transport };
    this.deps.awake.add(this);
    if (replayed && this.binding.front.listsRevision !== this.catalogRevision) {
      // Lists changed while the session slept, when it could not be told.
      void server.sendToolListChanged().catch(() => undefined);
      void server.sendResourceListChanged().catch(() => undefined);
      void server.sendPromptListChanged().catch(() => undefined);
    }
    return this.awake;
  }

  /** The server rebound (tether_use_host) or its subscriptions changed: hold the front it uses now. */
  private rebind(binding: SessionBinding): void {
    // Once ended, the session holds nothing: a rebind racing its shutdown must not hold a front for good.
    if (binding.front !== this.binding.front && !this.ended) {
      const release = this.releaseFront;
      this.releaseFront = this.deps.holdFront(binding.front);
      release();
    }
    this.binding = binding;
  }

  private async replayHandshake(transport: WebStandardStreamableHTTPServerTransport): Promise<void> {
    this.events.muted = true;
    try {
      for (const method of HANDSHAKE_METHODS) {
        const message = this.handshake.get(method);
        if (message === undefined) continue;
        const headers: Record<string, string> = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };
        // No MCP-Protocol-Version: the SDK then assumes one it accepts, and the handshake's own
        // messages do not depend on it (a header from some later request might be refused).
        if (method !== 'initialize') headers['mcp-session-id'] = this.id;
        const response = await transport.handleRequest(new Request(REPLAY_URL, { method: 'POST', headers }), { parsedBody: message });
        // The answer is the client's old one; read it to the end so the stream closes.
        await response.text();
        if (!response.ok) throw new SessionWakeError(`replaying ${method} was answered with HTTP ${response.status}`);
      }
    } finally {
      this.events.muted = false;
    }
  }

  /**
   * Keeps the handshake messages of a request. The first initialize (and initialized) made the
   * session, and the SDK refuses a second one on it, so only the first is kept; of setLevel,
   * the last.
   */
  private remember(body: unknown): void {
    for (const message of messagesIn(body)) {
      const method = methodOf(message);
      if (!(HANDSHAKE_METHODS as readonly unknown[]).includes(method)) continue;
      if (method === 'logging/setLevel' || !this.handshake.has(method as HandshakeMethod)) this.handshake.set(method as HandshakeMethod, message);
    }
  }
}
