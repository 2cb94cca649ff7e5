/**
 * The Host: what an app embeds to become a Tether host. It listens on loopback, authenticates
 * every connection, serves the tools, resources and prompts registered on it, runs calls
 * through the journal and the main-thread executor, announces its state, and advertises
 * itself with a host record under $TETHER_HOME/hosts/.
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { createServer, type Server, type Socket } from 'node:net';
import { join } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import {
  FramedTransport,
  HANDSHAKE_MAX_FRAME_BYTES,
  HOST_STATUS_MAX_ENTRIES,
  MAX_MESSAGE_DEPTH,
  METHODS,
  PROTOCOL_VERSION,
  RpcConnection,
  SERVE_CLIENT_NAME,
  TetherError,
  resolveLimits,
  type ByeReason,
  type FrameLimits,
  type HelloResult,
  type HostIdentity,
  type HostStateName,
  type HostStatusResult,
  type ToolDescriptor,
} from '../protocol/index.js';
import { hostsDir, tetherHome } from '../discovery/tether-home.js';
import { removeHostRecord, writeHostRecord, type HostRecord } from '../discovery/host-record.js';
import { PROOF_AUTH } from '../discovery/host-proof.js';
import { SocketByteStream } from '../net/socket-stream.js';
import { takesObject } from '../schema/tool-arguments.js';
import { CallJournal, DEFAULT_READ_ONLY_BUDGET_BYTES, FileJournalStore, MemoryJournalStore, type JournalStore } from './call-journal.js';
import { CallManager, journalRemedy } from './calls.js';
import { Catalog, type PromptDefinition, type ResourceDefinition, type ResourceTemplateDefinition } from './catalog.js';
import { HostConnection } from './host-connection.js';
import { cannotAdd, registerTool, type RegisteredTool, type ToolDefinition } from './tools.js';

/** How long closing waits for clients to hang up after their bye before cutting them off. */
const CLOSE_GRACE_MS = 500;

export interface HostOptions {
  /** What kind of editor this is ("unity", "sandbox", "godot", …). */
  kind: string;
  name: string;
  version: string;
  projectPath: string;
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /**
   * The key of the proofs clients give (they never send it: protocol.md §14); generated when
   * omitted. Leave it unset so that each listener (each domain reload) has a fresh one. A given
   * token is kept as the key, and the nonces of its proofs are remembered for the life of the
   * process, so a proof sent to whatever held the port between two listeners opens neither.
   */
  token?: string;
  /** Stable across domain reloads of one editor process; generated when omitted. */
  instanceId?: string;
  /** Journal file; omitted: the journal lives in memory only (and does not survive a restart). */
  journalPath?: string;
  journalStore?: JournalStore;
  /** How long finished calls' outcomes are kept (default 15 min). */
  retentionMs?: number;
  /**
   * How much memory finished read-only calls (kept in memory only, with their results) may
   * hold; past it the oldest are forgotten before their retention ends (default 64 MiB).
   */
  readOnlyBudgetBytes?: number;
  /** Longest silence while a call is queued or running (default 5 s). */
  heartbeatMs?: number;
  /** Execution deadline when neither call nor tool sets one (default 10 min). */
  defaultDeadlineMs?: number;
  /**
   * After a restart or reload, how long calls queued before it wait for their requesters to
   * come back (and perhaps cancel them) before they run; 0 runs them at once (default 2 s).
   */
  requeueGraceMs?: number;
  limits?: Partial<FrameLimits>;
  /** A connection that has not completed the handshake by then is closed (default 10 s). */
  handshakeTimeoutMs?: number;
  /** How often the host pings each client; a client that misses one is dropped. 0 disables (default 15 s). */
  pingIntervalMs?: number;
  /** Connections served at once; past it the oldest is evicted with a bye. Default: no limit. */
  maxConnections?: number;
  /**
   * Connections that have not passed the handshake yet, held at once; past it the oldest of
   * them is closed, so strangers cannot pile up buffers and timers (default 32).
   */
  maxPendingHandshakes?: number;
  /** Where the host record goes (default $TETHER_HOME/hosts). */
  recordsDir?: string;
  /** Write a host record at all (default true). */
  advertise?: boolean;
}

type ResolvedOptions = Required<Omit<HostOptions, 'journalPath' | 'journalStore' | 'maxConnections' | 'limits'>> & {
  limits: FrameLimits;
  maxConnections: number | undefined;
};

/** What a HostConnection needs from its host. */
export interface HostCore {
  readonly options: ResolvedOptions;
  readonly identity: HostIdentity;
  readonly recordsDir: string;
  readonly calls: CallManager;
  readonly catalog: Catalog;
  toolDescriptors(): ToolDescriptor[];
  helloResult(connectionId: string): HelloResult;
  /** The host/status result (protocol.md §7.16), from the network side. */
  status(): HostStatusResult;
  admitted(connection: HostConnection): void;
  forget(connection: HostConnection): void;
  /** True the first time a client's proof nonce is seen by this listener: a replayed hello is refused. */
  firstUseOf(nonce: string): boolean;
}

/** Tool names MCP clients take (the MCP specification's guidance for tool names). */
const TOOL_NAME = /^[A-Za-z0-9_.-]{1,128}$/;

/** Proof nonces remembered per token; past it the oldest are forgotten (each is 144 random bits). */
const MAX_REMEMBERED_NONCES = 65_536;

/**
 * The nonces seen under each token an embedder gave, for the life of the process: such a token
 * outlives its listener (a reload builds a new Host with it), and a proof that whatever held
 * the port in between was sent must not open the next listener. A token of the host's own is
 * new with each listener and needs no more than the listener's memory.
 */
const noncesOfGivenTokens = new Map<string, Set<string>>();

export interface CloseOptions {
  reason: ByeReason;
  message?: string;
  /** For a reload: when clients should expect the host back. */
  expectedBackMs?: number;
}

export class Host implements HostCore {
  readonly options: ResolvedOptions;
  readonly identity: HostIdentity;
  readonly recordsDir: string;
  readonly catalog = new Catalog();
  readonly calls: CallManager;
  private readonly tools = new Map<string, RegisteredTool>();
  private readonly connections = new Map<string, HostConnection>();
  private readonly sockets = new Set<Socket>();
  private readonly usedNonces: Set<string>;
  private server: Server | undefined;
  private boundPort: number | undefined;
  private currentState: HostStateName = 'ready';
  private stateSince = Date.now();
  private nextConnection = 1;
  private started = false;
  private closing: Promise<void> | undefined;
  private readonly startedAt = new Date().toISOString();
  private readonly journalPath: string | undefined;

  constructor(options: HostOptions) {
    this.options = {
      port: 0,
      token: randomBytes(24).toString('base64url'),
      instanceId: randomUUID(),
      retentionMs: 15 * 60_000,
      readOnlyBudgetBytes: DEFAULT_READ_ONLY_BUDGET_BYTES,
      heartbeatMs: 5_000,
      defaultDeadlineMs: 10 * 60_000,
      requeueGraceMs: 2_000,
      handshakeTimeoutMs: 10_000,
      maxPendingHandshakes: 32,
      pingIntervalMs: 15_000,
      recordsDir: hostsDir(tetherHome()),
      advertise: true,
      ...stripUndefined(options),
      limits: resolveLimits(options.limits),
      maxConnections: options.maxConnections,
    } as ResolvedOptions;
    this.recordsDir = this.options.recordsDir;
    this.usedNonces = options.token === undefined ? new Set() : nonceMemoryOf(options.token);
    this.identity = {
      instanceId: this.options.instanceId,
      kind: options.kind,
      name: options.name,
      version: options.version,
      projectPath: options.projectPath,
      pid: process.pid,
    };
    this.journalPath = options.journalPath;
    const store = options.journalStore ?? (options.journalPath ? new FileJournalStore(options.journalPath) : new MemoryJournalStore());
    this.calls = new CallManager({
      journal: new CallJournal(store, this.options.retentionMs, this.options.readOnlyBudgetBytes),
      tools: () => this.tools,
      heartbeatMs: this.options.heartbeatMs,
      defaultDeadlineMs: this.options.defaultDeadlineMs,
      requeueGraceMs: this.options.requeueGraceMs,
    });
  }

  get port(): number | undefined {
    return this.boundPort;
  }

  get token(): string {
    return this.options.token;
  }

  get state(): HostStateName {
    return this.currentState;
  }

  get recordPath(): string {
    return join(this.recordsDir, `${this.identity.instanceId}.json`);
  }

  /** The number of authenticated connections. */
  get connectionCount(): number {
    return [...this.connections.values()].filter((c) => c.isAuthenticated).length;
  }

  // --- Registration -------------------------------------------------------------------

  tool<Args>(definition: ToolDefinition<Args>): this {
    return this.addTool(registerTool(definition));
  }

  /**
   * Adds a tool. Mistakes an editor's integrator can make are refused here, when the tool is
   * added, not found later by a client: a name taken already (removeTool first, to replace a
   * tool), a name MCP clients would not take, an input that is not an object, no handler.
   */
  addTool(tool: RegisteredTool): this {
    const { name, inputSchema } = tool.descriptor;
    const refuse = (problem: string): never => {
      throw cannotAdd(name, problem);
    };
    if (typeof name !== 'string' || !TOOL_NAME.test(name)) refuse('a tool name is 1 to 128 letters, digits, "_", "-" or "." (MCP clients refuse others)');
    if (this.tools.has(name)) refuse('a tool of that name is already added (removeTool it first to replace it)');
    if (!takesObject(inputSchema)) refuse('its input must be an object\'s schema (a zod object, or JSON Schema with "type": "object"), as MCP requires');
    if (typeof tool.handler !== 'function') refuse('it has no handler function');
    this.tools.set(name, tool);
    this.toolsChanged();
    return this;
  }

  removeTool(name: string): this {
    if (this.tools.delete(name)) this.toolsChanged();
    return this;
  }

  resource(definition: ResourceDefinition): this {
    this.catalog.resources.set(definition.uri, definition);
    this.broadcast(METHODS.resourcesChanged, {});
    return this;
  }

  resourceTemplate(definition: ResourceTemplateDefinition): this {
    this.catalog.templates.set(definition.uriTemplate, definition);
    this.broadcast(METHODS.resourcesChanged, {});
    return this;
  }

  prompt(definition: PromptDefinition): this {
    this.catalog.prompts.set(definition.name, definition);
    this.broadcast(METHODS.promptsChanged, {});
    return this;
  }

  /** Tells subscribers of `uri` that it changed. */
  resourceUpdated(uri: string): void {
    for (const connection of this.connections.values()) {
      if (connection.subscriptions.has(uri)) connection.send(METHODS.resourceUpdated, { uri });
    }
  }

  toolDescriptors(): ToolDescriptor[] {
    return [...this.tools.values()].map((tool) => tool.descriptor);
  }

  // --- Lifecycle ----------------------------------------------------------------------

  /** Restores the journal, starts listening and writes the host record. */
  async start(): Promise<{ port: number }> {
    if (this.started) throw new TetherError('INTERNAL_ERROR', 'This host was started already: a Host starts once (make a new one to start again).');
    this.started = true;
    try {
      this.calls.restore();
    } catch (error) {
      const where = this.journalPath ? `its journal ${this.journalPath}` : 'its journal';
      throw new TetherError(
        'INTERNAL_ERROR',
        `The host could not open ${where} (${(error as Error).message}), so it did not start: without it, a call it ran before could run again. ${journalRemedy(error)}, then start it again.`,
        { ...(this.journalPath ? { journalPath: this.journalPath } : {}) },
      );
    }
    const server = createServer({ noDelay: true }, (socket) => this.accept(socket));
    this.server = server;
    server.on('error', () => undefined);
    const port = await listen(server, this.options.port);
    this.boundPort = port;
    if (this.options.advertise) {
      try {
        writeHostRecord(this.record(), this.recordsDir);
      } catch (error) {
        // No client could find it: it stops listening rather than hold a port for nobody.
        this.calls.dispose();
        this.server = undefined;
        await new Promise<void>((resolve) => server.close(() => resolve()));
        throw new TetherError('INTERNAL_ERROR', `The host could not write its record in ${this.recordsDir}, so no client could find it, and it stopped listening: ${(error as Error).message}`, {
          recordsDir: this.recordsDir,
        });
      }
    }
    return { port };
  }

  /** Announces a state to every connection (ready, compiling, reloading, playing, quitting). */
  setState(state: HostStateName, expectedMs?: number): void {
    if (state !== this.currentState) this.stateSince = Date.now();
    this.currentState = state;
    this.broadcast(METHODS.hostState, { state, at: Date.now(), ...(expectedMs === undefined ? {} : { expectedMs }) });
  }

  /**
   * Says `bye` to every connection, closes them and the listener. A reload keeps the host
   * record (the editor process lives on and will listen again); any other reason removes it.
   */
  close(options: CloseOptions = { reason: 'shutdown' }): Promise<void> {
    this.closing ??= this.shutdown(options);
    return this.closing;
  }

  async [Symbol.asyncDispose](): Promise<void> {
    await this.close();
  }

  private async shutdown({ reason, message, expectedBackMs }: CloseOptions): Promise<void> {
    this.calls.dispose();
    const text = message ?? defaultByeMessage(reason, expectedBackMs);
    for (const connection of this.connections.values()) {
      if (connection.isAuthenticated) connection.bye({ reason, message: text, ...(expectedBackMs === undefined ? {} : { expectedBackMs }) });
      else connection.rpc.close();
    }
    const server = this.server;
    const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    // The byes are flushed by a graceful end; a peer that does not close its side in time is cut off.
    await Promise.race([Promise.all([...this.sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve)))), delay(CLOSE_GRACE_MS)]);
    for (const socket of this.sockets) socket.destroy();
    await serverClosed;
    if (this.options.advertise && reason !== 'reload') {
      try {
        removeHostRecord(this.identity.instanceId, this.recordsDir);
      } catch {
        // There was none to remove (it could not be written), or its folder is gone.
      }
    }
  }

  // --- HostCore -----------------------------------------------------------------------

  helloResult(connectionId: string): HelloResult {
    return {
      protocolVersion: PROTOCOL_VERSION,
      host: this.identity,
      capabilities: {
        tools: { listChanged: true },
        resources: { subscribe: true, listChanged: true },
        prompts: { listChanged: true },
        completions: {},
        ...(this.options.maxConnections === undefined ? {} : { maxConnections: this.options.maxConnections }),
      },
      limits: this.options.limits,
      heartbeatMs: this.options.heartbeatMs,
      state: this.currentState,
      connectionId,
    };
  }

  status(): HostStatusResult {
    const max = HOST_STATUS_MAX_ENTRIES;
    const connections = [...this.connections.values()].filter((c) => c.isAuthenticated);
    const { calls, unknownOutcomes, omitted } = this.calls.overview(max);
    const left = { connections: Math.max(0, connections.length - max), ...omitted };
    return {
      state: this.currentState,
      since: this.stateSince,
      connections: connections.slice(0, max).map((c) => ({
        connectionId: c.id,
        client: { name: c.clientName, ...(c.clientVersion === undefined ? {} : { version: c.clientVersion }) },
        endpoint: c.endpoint,
        since: c.authenticatedAt ?? 0,
      })),
      calls,
      unknownOutcomes,
      ...(left.connections + left.calls + left.unknownOutcomes > 0 ? { omitted: left } : {}),
    };
  }

  admitted(connection: HostConnection): void {
    const max = this.options.maxConnections;
    if (max === undefined) return;
    const others = [...this.connections.values()].filter((c) => c !== connection && c.isAuthenticated);
    for (const stale of others.slice(0, Math.max(0, others.length - max + 1))) {
      // Advice for the one evicted: "tether serve" is where several agents share a connection, unless that is what was evicted.
      const share = stale.clientName === SERVE_CLIENT_NAME ? '' : ' To use several agents at once, connect them through one "tether serve" (HTTP).';
      stale.bye({
        reason: 'evicted',
        status: 'evicted',
        message: `Another client (${connection.clientName || 'unnamed'}) connected from ${connection.endpoint}. This host serves ${max} connection(s) at a time, so this one was evicted, and it stays away so as not to evict the other in turn: close the other client or raise the host's connection limit, then restart this one (or the editor).${share}`,
        newClientEndpoint: connection.endpoint,
      });
    }
  }

  forget(connection: HostConnection): void {
    this.connections.delete(connection.id);
  }

  firstUseOf(nonce: string): boolean {
    if (this.usedNonces.has(nonce)) return false;
    this.usedNonces.add(nonce);
    if (this.usedNonces.size > MAX_REMEMBERED_NONCES) this.usedNonces.delete(this.usedNonces.values().next().value as string);
    return true;
  }

  // --- Internals ----------------------------------------------------------------------

  private accept(socket: Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    // At the limit the oldest waiting connection goes, not the new one: strangers that hold
    // their slots would otherwise keep every client out, while a real client says hello
    // within a moment of connecting.
    const pending = [...this.connections.values()].filter((connection) => !connection.isAuthenticated);
    if (pending.length >= this.options.maxPendingHandshakes) {
      pending[0]?.rpc.close(new TetherError('HANDSHAKE_REQUIRED', `More than ${this.options.maxPendingHandshakes} connections were waiting for their handshake; the oldest was closed.`));
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    const id = `c${this.nextConnection++}`;
    const endpoint = `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`;
    // Until its hello succeeds, a peer may send small frames only (docs/protocol.md §14).
    // and no peer may send a message nested deeper than the parser should ever walk.
    const limits = { ...this.options.limits, maxFrameBytesBeforeHandshake: HANDSHAKE_MAX_FRAME_BYTES, maxDepth: MAX_MESSAGE_DEPTH };
    const rpc = new RpcConnection(new FramedTransport(new SocketByteStream(socket, { readOnlyWhatPeerReads: true }), limits));
    const connection = new HostConnection(id, endpoint, rpc, this);
    this.connections.set(id, connection);
    rpc.start();
  }

  private toolsChanged(): void {
    this.broadcast(METHODS.toolsChanged, {});
  }

  private broadcast(method: string, params: unknown): void {
    for (const connection of this.connections.values()) connection.send(method, params);
  }

  private record(): HostRecord {
    return {
      instanceId: this.identity.instanceId,
      pid: process.pid,
      port: this.boundPort as number,
      host: '127.0.0.1',
      token: this.options.token,
      projectPath: this.identity.projectPath,
      kind: this.identity.kind,
      name: this.identity.name,
      protocolVersion: PROTOCOL_VERSION,
      startedAt: this.startedAt,
      // Clients prove they know the token and never send it (protocol.md §14).
      auth: PROOF_AUTH,
    };
  }
}

function defaultByeMessage(reason: ByeReason, expectedBackMs?: number): string {
  switch (reason) {
    case 'reload':
      return `The editor is reloading its code domain${expectedBackMs ? ` and should be back in about ${Math.ceil(expectedBackMs / 1000)} s` : ''}. Reconnect when its host record shows it listening; calls in flight keep their callIds.`;
    case 'quit':
      return 'The editor is quitting. Start it again to continue.';
    default:
      return 'The host is shutting down.';
  }
}

/** Listens on loopback; a taken preferred port falls back to a free one (the record says which). */
async function listen(server: Server, port: number): Promise<number> {
  const tryPort = (p: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      server.once('error', onError);
      server.listen({ port: p, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', onError);
        resolve((server.address() as { port: number }).port);
      });
    });
  try {
    return await tryPort(port);
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return tryPort(0);
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}

function nonceMemoryOf(token: string): Set<string> {
  let seen = noncesOfGivenTokens.get(token);
  if (!seen) noncesOfGivenTokens.set(token, (seen = new Set()));
  return seen;
}
