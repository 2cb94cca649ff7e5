/**
 * The host link: a front's one connection to its host, kept alive across crashes, reloads
 * and blips. One state machine with a single funnel into `lost`:
 *
 *   idle → connecting → authenticated → lost ⟲ (backoff, or at once when the record changes)
 *                                     ↘ reloading (the host said bye: reload) → connecting
 *
 * Every await of the connect path re-checks the state afterwards, so a `bye` that arrives in
 * the same chunk as the handshake reply can never leave the link "authenticated" on a dead
 * socket. Liveness is ping/pong: a half-open socket is detected within about 2 s, while a
 * host whose main thread is blocked still answers (its network side does).
 */
import { EventEmitter } from 'node:events';
import {
  Bye,
  CallProgress,
  HostStateNotice,
  LogMessage,
  METHODS,
  TetherError,
  type FrameLimits,
  type HelloResult,
  type RpcConnection,
  type StringLifter,
} from '../protocol/index.js';
import { hostsDir } from '../discovery/tether-home.js';
import { listHostRecords, type HostRecord } from '../discovery/host-record.js';
import { Backoff, type BackoffOptions } from './backoff.js';
import { connectToHost } from './host-client.js';
import { selectHost, type Selection } from './host-selection.js';
import { RecordWatcher } from './record-watcher.js';

export type LinkState = 'idle' | 'connecting' | 'authenticated' | 'reloading' | 'lost' | 'closed';

export interface HostLinkOptions extends Selection {
  recordsDir?: string;
  clientName?: string;
  clientVersion?: string;
  pingIntervalMs?: number;
  pingTimeoutMs?: number;
  connectTimeoutMs?: number;
  backoff?: BackoffOptions;
  /** How often the hosts folder is polled besides fs.watch. */
  pollMs?: number;
  /** Lifts long strings out of large frames (see long-string-lifter.ts); only a relay that splices them back sets it. */
  liftStrings?: StringLifter;
  /** What the link reads (default: 256 MiB frames, announced to the host). */
  limits?: Partial<FrameLimits>;
}

/** What the link hands to whoever owns a call: its progress, logs and questions. */
export interface CallListener {
  progress?(update: CallProgress): void;
  log?(message: LogMessage): void;
  elicit?(params: { message: string; requestedSchema: Record<string, unknown> }): Promise<unknown>;
  sample?(params: Record<string, unknown>): Promise<unknown>;
}

export interface HostLinkEvents {
  state: [state: LinkState, detail: { error?: TetherError }];
  connected: [hello: HelloResult, record: HostRecord];
  toolsChanged: [];
  resourcesChanged: [];
  promptsChanged: [];
  resourceUpdated: [uri: string];
  hostState: [notice: HostStateNotice];
  evicted: [bye: Bye];
}

export class HostLink extends EventEmitter<HostLinkEvents> {
  private currentState: LinkState = 'idle';
  private rpc: RpcConnection | undefined;
  private currentHello: HelloResult | undefined;
  private currentRecord: HostRecord | undefined;
  private readonly backoff: Backoff;
  private readonly watcher: RecordWatcher;
  private retryTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private lastError: TetherError | undefined;
  private lastBye: Bye | undefined;
  /** Set when another client displaced this one: no automatic reconnection to that host. */
  private evictedFrom: string | undefined;
  /** A record changed while an attempt was under way: if it fails, try again at once. */
  private recordsChangedWhileConnecting = false;
  private readonly callListeners = new Map<string, CallListener>();
  private readonly waiters = new Set<() => void>();
  /**
   * The project of the first editor reached when no --project named one (the working
   * directory's, or the only one running). The link stays with it: should that editor crash
   * while another project's runs, a call resent after the drop, or the next one, must not
   * run in the other project.
   */
  private boundProject: string | undefined;
  /** Reached an editor at least once: one that went away may be restarting, and is waited for. */
  private everConnected = false;
  /** The record the attempt under way connects to. */
  private attemptRecord: HostRecord | undefined;
  readonly recordsDir: string;

  constructor(private readonly options: HostLinkOptions = {}) {
    super();
    this.recordsDir = options.recordsDir ?? hostsDir();
    this.backoff = new Backoff(options.backoff);
    this.watcher = new RecordWatcher(this.recordsDir, () => this.onRecordsChanged(), options.pollMs);
  }

  get state(): LinkState {
    return this.currentState;
  }

  get hello(): HelloResult | undefined {
    return this.currentHello;
  }

  get record(): HostRecord | undefined {
    return this.currentRecord;
  }

  /** Why the link is not connected, when it is not. */
  get lastFailure(): TetherError | undefined {
    return this.lastError;
  }

  start(): this {
    if (this.currentState !== 'idle') return this;
    this.watcher.start();
    void this.attempt();
    return this;
  }

  close(): void {
    if (this.currentState === 'closed') return;
    this.transition('closed');
    this.watcher.stop();
    this.clearTimers();
    this.rpc?.close();
    this.rpc = undefined;
    this.wakeWaiters();
  }

  /** Routes a call's progress, logs and questions to its owner while the call lives. */
  listen(callId: string, listener: CallListener): () => void {
    this.callListeners.set(callId, listener);
    return () => {
      if (this.callListeners.get(callId) === listener) this.callListeners.delete(callId);
    };
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 3_000;
  }

  /**
   * The authenticated connection, waiting up to `waitMs` for an editor that is away. An attempt
   * under way when the wait ends is an editor being reached, not one that is away: it may end
   * first (within its connect timeout), so that a wait of 0 still reaches a running editor.
   */
  async connection(waitMs: number, signal?: AbortSignal): Promise<RpcConnection> {
    const deadline = Date.now() + waitMs;
    let attemptAwaited = false;
    for (;;) {
      if (this.currentState === 'closed') throw new TetherError('CONNECTION_CLOSED', 'The link to the editor was closed.');
      if (this.currentState === 'authenticated' && this.rpc?.isOpen) return this.rpc;
      if (this.evictedFrom && this.lastError) throw this.lastError;
      // No editor is coming: waiting would only delay what to do about it.
      if (this.currentState === 'lost' && this.nothingToWaitFor()) throw this.lastError as TetherError;
      signal?.throwIfAborted();
      const left = deadline - Date.now();
      if (left > 0) await this.waitForChange(left, signal);
      else if (this.currentState === 'connecting' && !attemptAwaited) {
        attemptAwaited = true;
        await this.waitForChange(this.connectTimeoutMs, signal);
      } else throw this.unavailable(waitMs);
    }
  }

  /** A request to the host once connected (waiting up to `waitMs`). */
  async request<T>(method: string, params: unknown, waitMs: number, signal?: AbortSignal): Promise<T> {
    const rpc = await this.connection(waitMs, signal);
    return rpc.request<T>(method, params, signal ? { signal } : {});
  }

  // --- Connecting ---------------------------------------------------------------------

  private async attempt(): Promise<void> {
    if (this.currentState === 'connecting' || this.currentState === 'authenticated' || this.currentState === 'closed') return;
    this.clearRetry();
    // A bye belongs to the connection it came on: a new attempt starts with none, so a bye in
    // the same chunk as this handshake's reply is the one that counts.
    this.lastBye = undefined;
    this.recordsChangedWhileConnecting = false;
    this.transition('connecting');
    let record: HostRecord;
    this.attemptRecord = undefined;
    try {
      record = this.select();
      this.attemptRecord = record;
      const session = await connectToHost({
        port: record.port,
        host: record.host,
        token: record.token,
        clientName: this.options.clientName ?? 'tether',
        ...(this.options.clientVersion ? { clientVersion: this.options.clientVersion } : {}),
        capabilities: { elicitation: true, sampling: true },
        timeoutMs: this.connectTimeoutMs,
        prepare: (rpc) => this.install(rpc),
        ...(this.options.liftStrings ? { liftStrings: this.options.liftStrings } : {}),
        ...(this.options.limits ? { limits: this.options.limits } : {}),
      });
      // State check after the await: the link may have been closed, or the connection
      // lost (a bye in the same chunk as the handshake reply), while we waited.
      if (!this.is('connecting') || !session.rpc.isOpen) {
        session.rpc.close();
        if (this.is('connecting')) this.toLost(session.rpc.closedWith ?? new TetherError('CONNECTION_CLOSED', 'The host closed the connection during the handshake.'));
        return;
      }
      this.rpc = session.rpc;
      this.currentHello = session.hello;
      this.currentRecord = record;
      if (!this.options.project) this.boundProject ??= record.projectPath;
      this.lastError = undefined;
      this.everConnected = true;
      session.rpc.onClose((error) => {
        if (this.rpc === session.rpc) this.toLost(error ?? new TetherError('CONNECTION_CLOSED', 'The host closed the connection.'));
      });
      this.backoff.connected();
      this.transition('authenticated');
      this.startPinging(session.rpc);
      this.emit('connected', session.hello, record);
    } catch (error) {
      if (!this.is('connecting')) return;
      const failure = TetherError.from(error, 'CONNECTION_CLOSED');
      // A bye counts only from a peer that completed the handshake: one sent before that may
      // come from whatever took the editor's port, and an "evicted" from it would keep the
      // link away from the editor for good.
      if (failure.data.handshake !== 'completed') this.lastBye = undefined;
      this.toLost(failure);
    }
  }

  /** Handlers installed before the handshake, so nothing the host says early is missed. */
  private install(rpc: RpcConnection): void {
    rpc.onRequest(METHODS.ping, () => ({}));
    rpc.onNotification(METHODS.bye, (params) => {
      const bye = Bye.safeParse(params);
      if (!bye.success) return;
      this.lastBye = bye.data;
      if (bye.data.reason === 'evicted') this.emit('evicted', bye.data);
    });
    rpc.onNotification(METHODS.hostState, (params) => {
      const notice = HostStateNotice.safeParse(params);
      if (notice.success) this.emit('hostState', notice.data);
    });
    rpc.onNotification(METHODS.toolsChanged, () => this.emit('toolsChanged'));
    rpc.onNotification(METHODS.resourcesChanged, () => this.emit('resourcesChanged'));
    rpc.onNotification(METHODS.promptsChanged, () => this.emit('promptsChanged'));
    rpc.onNotification(METHODS.resourceUpdated, (params) => {
      const uri = (params as { uri?: unknown } | undefined)?.uri;
      if (typeof uri === 'string') this.emit('resourceUpdated', uri);
    });
    rpc.onNotification(METHODS.callProgress, (params) => {
      const update = CallProgress.safeParse(params);
      if (update.success) this.callListeners.get(update.data.callId)?.progress?.(update.data);
    });
    rpc.onNotification(METHODS.log, (params) => {
      const message = LogMessage.safeParse(params);
      if (message.success && message.data.callId) this.callListeners.get(message.data.callId)?.log?.(message.data);
    });
    rpc.onRequest(METHODS.elicit, (params) => this.ask(params, 'elicit'));
    rpc.onRequest(METHODS.sample, (params) => this.ask(params, 'sample'));
  }

  private async ask(params: unknown, kind: 'elicit' | 'sample'): Promise<unknown> {
    const { callId, ...rest } = (params ?? {}) as { callId?: string } & Record<string, unknown>;
    const handler = callId ? this.callListeners.get(callId)?.[kind] : undefined;
    if (!handler) {
      throw new TetherError('NO_CLIENT', `No client is waiting on call "${callId ?? '?'}" to answer its ${kind === 'elicit' ? 'question' : 'sampling request'}.`);
    }
    return handler(rest as never);
  }

  // --- Losing and regaining -----------------------------------------------------------

  /** The single funnel into `lost` (or `reloading`, when the host announced a reload). */
  private toLost(error: TetherError): void {
    if (this.currentState === 'closed' || this.currentState === 'lost' || this.currentState === 'reloading') return;
    this.stopPinging();
    const rpc = this.rpc;
    this.rpc = undefined;
    rpc?.close(error);
    this.currentHello = undefined;
    this.backoff.disconnected();
    const bye = this.lastBye;
    this.lastError = bye && bye.reason !== 'reload' ? new TetherError(bye.reason === 'evicted' ? 'EVICTED' : 'CONNECTION_CLOSED', bye.message, { ...bye }) : error;
    if (bye?.reason === 'evicted') {
      // Reconnecting would displace the client that displaced us, and so on forever: stay
      // away from this host instance and say why on every request.
      this.evictedFrom = this.currentRecord?.instanceId ?? 'unknown';
      this.transition('lost', this.lastError);
    } else if (bye?.reason === 'reload') {
      this.transition('reloading', this.lastError);
      // The host said when to expect it; its record changing usually brings us back sooner.
      this.scheduleRetry(Math.max(50, bye.expectedBackMs ?? 1_000));
    } else {
      // Its record stays and its process lives, but its port refuses: an editor between two
      // listeners, which is a domain reload (or a start), whether or not this link saw it begin.
      // Said so, rather than "is the editor running?"; the state stays `lost`, backing off as
      // for any absence, so that an editor that never listens again is not "reloading" forever.
      const record = this.attemptRecord;
      if (record && this.refusedByLiveEditor(error)) {
        this.lastError = new TetherError(
          'CONNECTION_CLOSED',
          `The editor (process ${record.pid}) is reloading its code domain, or starting: it runs, but its port does not take connections yet (${error.message.replace(/ Is the editor running\?$/, '')}). Calls continue when it is back.`,
          { ...error.data, reloading: true, pid: record.pid },
        );
      }
      this.transition('lost', this.lastError);
      // A record that appeared during the failed attempt may be the host coming back.
      this.scheduleRetry(this.recordsChangedWhileConnecting ? 0 : this.backoff.next());
      this.recordsChangedWhileConnecting = false;
    }
  }

  /**
   * Nothing to wait for: no editor answers to the selection (none for the project, or several
   * when one is needed), none has a record for it now, and none of its project is known to be
   * coming: one this link reached before may be restarting, and is waited for.
   */
  private nothingToWaitFor(): boolean {
    const code = this.lastError?.code;
    if ((code !== 'HOST_NOT_FOUND' && code !== 'HOST_AMBIGUOUS') || this.everConnected) return false;
    // A record that appeared since the last attempt is an editor arriving: the link is about to try it.
    return this.peekSelection() === undefined;
  }

  /** A connection refused by an editor whose record is there and whose process is alive. */
  private refusedByLiveEditor(error: TetherError): boolean {
    const record = this.attemptRecord;
    return error.data.errno === 'ECONNREFUSED' && record !== undefined && listHostRecords(this.recordsDir).some((r) => r.instanceId === record.instanceId);
  }

  private onRecordsChanged(): void {
    if (this.evictedFrom) {
      // A new instance (the editor restarted) is fair game again.
      const next = this.peekSelection();
      if (!next || next.instanceId === this.evictedFrom) return;
      this.evictedFrom = undefined;
    }
    if (this.currentState === 'connecting') this.recordsChangedWhileConnecting = true;
    else if (this.currentState === 'lost' || this.currentState === 'reloading') void this.attempt();
  }

  private peekSelection(): HostRecord | undefined {
    try {
      return this.select();
    } catch {
      return undefined;
    }
  }

  /** The host to connect to: the one for --project, else for the project the link is bound to, else by the working directory. */
  private select(): HostRecord {
    const records = listHostRecords(this.recordsDir);
    if (!this.boundProject) return selectHost(records, this.options);
    try {
      return selectHost(records, { ...this.options, project: this.boundProject });
    } catch (error) {
      const failure = TetherError.from(error);
      throw new TetherError(
        failure.code,
        `${failure.message} Tether stays with the project of the first editor it reached (${this.boundProject}), so that a call meant for it never runs in another project's editor; to work on another project, start Tether with --project DIR.`,
        { ...failure.data, boundProject: this.boundProject },
      );
    }
  }

  private scheduleRetry(delayMs: number): void {
    this.clearRetry();
    this.retryTimer = setTimeout(() => void this.attempt(), delayMs);
    this.retryTimer.unref();
  }

  private startPinging(rpc: RpcConnection): void {
    const interval = this.options.pingIntervalMs ?? 700;
    const timeout = this.options.pingTimeoutMs ?? 1_000;
    let inFlight = false;
    this.pingTimer = setInterval(() => {
      if (inFlight) return;
      inFlight = true;
      rpc
        .request(METHODS.ping, undefined, { timeoutMs: timeout })
        .catch((error: unknown) => {
          if (this.rpc === rpc) {
            this.toLost(new TetherError('CONNECTION_CLOSED', `The host stopped answering pings (${(error as Error).message}); treating it as gone.`));
          }
        })
        .finally(() => {
          inFlight = false;
        });
    }, interval);
    this.pingTimer.unref();
  }

  private stopPinging(): void {
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.pingTimer = undefined;
  }

  private clearRetry(): void {
    if (this.retryTimer) clearTimeout(this.retryTimer);
    this.retryTimer = undefined;
  }

  private clearTimers(): void {
    this.clearRetry();
    this.stopPinging();
  }

  /** Reads the state afresh (after an await, TypeScript's narrowing of it is stale). */
  private is(state: LinkState): boolean {
    return this.currentState === state;
  }

  private transition(state: LinkState, error?: TetherError): void {
    if (this.currentState === state) return;
    this.currentState = state;
    this.emit('state', state, error ? { error } : {});
    this.wakeWaiters();
  }

  private wakeWaiters(): void {
    for (const wake of [...this.waiters]) wake();
  }

  private waitForChange(timeoutMs: number, signal?: AbortSignal): Promise<void> {
    return new Promise((resolve) => {
      const done = (): void => {
        clearTimeout(timer);
        signal?.removeEventListener('abort', done);
        this.waiters.delete(done);
        resolve();
      };
      const timer = setTimeout(done, timeoutMs);
      signal?.addEventListener('abort', done, { once: true });
      this.waiters.add(done);
    });
  }

  private unavailable(waitMs: number): TetherError {
    const why = this.lastError?.message ?? 'it has not answered yet';
    const reloading = this.currentState === 'reloading' ? ' It announced a domain reload and has not come back yet.' : '';
    return new TetherError('HOST_UNAVAILABLE', `The editor is not reachable after waiting ${waitMs} ms: ${why}${reloading}`, {
      state: this.currentState,
      ...(this.lastError ? { cause: this.lastError.toJSON() } : {}),
    });
  }
}
