/**
 * The host link: a front's one connection to its host, kept alive across crashes, reloads
 * and blips. One state machine with a single funnel into `lost`:
 *
 *   idle → connecting → authenticated → lost ⟲ (backoff, or at once when the record changes)
 *                                     ↘ reloading (the host said bye: reload) → connecting
 *
 * Every await of the connect path re-checks the state afterwards, so a `bye` that arrives in
 * the same chunk as the handshake reply can never leave the link "authenticated" on a dead
 * socket. Its helpers each keep one job: which editor to reach (host-chooser.ts), what the
 * host sends (host-messages.ts), liveness (pinger.ts), callers waiting for a change
 * (change-waiters.ts) and what a failure says (link-failures.ts).
 */
import { EventEmitter } from 'node:events';
import { TetherError, type Bye, type FrameLimits, type HelloResult, type RpcConnection, type StringLifter } from '../protocol/index.js';
import { hostsDir } from '../discovery/tether-home.js';
import { isProcessAlive, markedReloading, type HostRecord } from '../discovery/host-record.js';
import { Backoff, RetryTimer, type BackoffOptions } from './backoff.js';
import { ChangeWaiters } from './change-waiters.js';
import { connectToHost } from './host-client.js';
import { HostChooser } from './host-chooser.js';
import { CallRoutes, routeHostMessages, type CallListener, type HostNotices, type HostNoticeSink } from './host-messages.js';
import type { Selection } from './host-selection.js';
import { endOf, refusedWhileReloading, reloadAbandoned, unavailable } from './link-failures.js';
import { Pinger } from './pinger.js';
import { RecordWatcher } from './record-watcher.js';

export type { CallListener } from './host-messages.js';

export type LinkState = 'idle' | 'connecting' | 'authenticated' | 'reloading' | 'lost' | 'closed';

/** What the connecting side can relay to a person or a model when a tool asks (the hello's `capabilities`). */
export interface LinkCapabilities {
  elicitation?: boolean;
  sampling?: boolean;
}

/**
 * What a link declares unless told otherwise: the MCP fronts relay the editor's questions and
 * sampling requests to their clients. A side that cannot answer (`tether call`) declares none,
 * or the host, which asks the most recently attached connection that says it can, would ask it
 * and fail the call, for every requester of a shared one too.
 */
const RELAYING: LinkCapabilities = { elicitation: true, sampling: true };

/**
 * How often a wait that goes on for a reloading editor looks whether its process still runs:
 * an editor that dies mid-reload changes nothing the link would notice before its next attempt.
 */
const RELOAD_LIVENESS_MS = 500;

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
  /** What the hello says this side can answer (default: elicitation and sampling, as the MCP fronts relay them). */
  capabilities?: LinkCapabilities;
  /**
   * How long, in all, a wait for the connection (connection(), request()) may go on while the
   * editor is away for a domain reload and its process runs: a reload is an editor coming back,
   * often slower than an absence is worth waiting for. Default: no longer than the wait itself.
   */
  reloadWaitMs?: number;
}

export interface HostLinkEvents extends HostNotices {
  state: [state: LinkState, detail: { error?: TetherError }];
  connected: [hello: HelloResult, record: HostRecord];
  evicted: [bye: Bye];
}

export class HostLink extends EventEmitter<HostLinkEvents> {
  private currentState: LinkState = 'idle';
  private rpc: RpcConnection | undefined;
  private currentHello: HelloResult | undefined;
  private currentRecord: HostRecord | undefined;
  private readonly backoff: Backoff;
  private readonly watcher: RecordWatcher;
  private readonly chooser: HostChooser;
  private readonly pinger: Pinger;
  private readonly routes = new CallRoutes();
  private readonly waiters = new ChangeWaiters();
  private readonly retry = new RetryTimer(() => void this.attempt());
  private lastError: TetherError | undefined;
  private lastBye: Bye | undefined;
  /** Set when another client displaced this one: no automatic reconnection to that host. */
  private evictedFrom: string | undefined;
  /** A record changed while an attempt was under way: if it fails, try again at once. */
  private recordsChangedWhileConnecting = false;
  /** Reached an editor at least once: one that went away may be restarting, and is waited for. */
  private everConnected = false;
  /** The record the attempt under way connects to. */
  private attemptRecord: HostRecord | undefined;
  /**
   * The editor's process while it is away for a domain reload: it said so as it left (a bye
   * `reload`), or its port refuses while its record stays. Kept through the attempts that
   * follow, until one connects or fails for another reason.
   */
  private reloadingPid: number | undefined;
  /**
   * Since when the editor has been away (monotonic), until the link connects again: the reload
   * budget counts from then, once per absence, not again for every request. A record left by
   * an editor that no longer hosts (its process alive) would otherwise hold every request for
   * the whole budget.
   */
  private awaySince: number | undefined;
  readonly recordsDir: string;

  constructor(private readonly options: HostLinkOptions = {}) {
    super();
    this.recordsDir = options.recordsDir ?? hostsDir();
    this.backoff = new Backoff(options.backoff);
    this.chooser = new HostChooser(this.recordsDir, options);
    this.pinger = new Pinger(options.pingIntervalMs, options.pingTimeoutMs);
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

  /**
   * Away for a domain reload (announced, or its port refusing while its record stays), and
   * the editor's process still runs: it is coming back, however long the reload takes.
   */
  awayForReload(): boolean {
    if (this.currentState === 'authenticated' || this.currentState === 'closed' || this.reloadingPid === undefined) return false;
    return isProcessAlive(this.reloadingPid);
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
    this.retry.cancel();
    this.pinger.stop();
    this.rpc?.close();
    this.rpc = undefined;
    this.waiters.wakeAll();
  }

  /** Routes a call's progress, logs and questions to its owner while the call lives. */
  listen(callId: string, listener: CallListener): () => void {
    return this.routes.listen(callId, listener);
  }

  private get connectTimeoutMs(): number {
    return this.options.connectTimeoutMs ?? 3_000;
  }

  /**
   * The connection, if the link is authenticated now: what connection() would return at once,
   * without the turn of the microtask queue its promise costs (every call asks).
   */
  openConnection(): RpcConnection | undefined {
    return this.currentState === 'authenticated' && this.rpc?.isOpen ? this.rpc : undefined;
  }

  /**
   * The authenticated connection, waiting up to `waitMs` for an editor that is away, and up to
   * the link's `reloadWaitMs` in all while it is away for a domain reload and its process runs.
   * An attempt under way when the wait ends is an editor being reached, not one that is away: it
   * may end first (within its connect timeout), so that a wait of 0 still reaches a running editor.
   */
  async connection(waitMs: number, signal?: AbortSignal): Promise<RpcConnection> {
    // The monotonic clock: a wait is a duration, which a stepped wall clock would stretch or cut.
    const started = performance.now();
    const deadline = started + waitMs;
    const reloadWaitMs = this.options.reloadWaitMs ?? 0;
    let attemptAwaited = false;
    let waitedForReload = false;
    for (;;) {
      if (this.currentState === 'closed') throw new TetherError('CONNECTION_CLOSED', 'The link to the editor was closed.');
      const open = this.openConnection();
      if (open) return open;
      if (this.evictedFrom && this.lastError) throw this.lastError;
      // No editor is coming: waiting would only delay what to do about it.
      if (this.currentState === 'lost' && this.nothingToWaitFor()) throw this.lastError as TetherError;
      signal?.throwIfAborted();
      const now = performance.now();
      const left = deadline - now;
      // From the absence's start, or the request's if it came first (a link not yet connected).
      const reloadDeadline = Math.max(deadline, Math.min(started, this.awaySince ?? started) + reloadWaitMs);
      if (left > 0) await this.waiters.wait(left, signal);
      else if (reloadDeadline > now && this.awayForReload()) {
        // Woken by the link's next change, or soon enough to notice an editor that died mid-reload.
        waitedForReload = true;
        await this.waiters.wait(Math.min(reloadDeadline - now, RELOAD_LIVENESS_MS), signal);
      } else if (this.currentState === 'connecting' && !attemptAwaited) {
        attemptAwaited = true;
        await this.waiters.wait(this.connectTimeoutMs, signal);
      } else {
        const waited = Math.round(performance.now() - started);
        // Its process ended during its reload: that, not the reload, is the news.
        const gone = this.reloadingPid !== undefined && !isProcessAlive(this.reloadingPid);
        throw unavailable(this.currentState, gone ? reloadAbandoned(this.reloadingPid as number, this.lastError) : this.lastError, waitedForReload ? waited : waitMs);
      }
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
    this.retry.cancel();
    // A bye belongs to the connection it came on: a new attempt starts with none, so a bye in
    // the same chunk as this handshake's reply is the one that counts.
    this.lastBye = undefined;
    this.recordsChangedWhileConnecting = false;
    this.transition('connecting');
    let record: HostRecord;
    this.attemptRecord = undefined;
    try {
      record = this.chooser.choose();
      this.attemptRecord = record;
      const session = await connectToHost({
        port: record.port,
        host: record.host,
        token: record.token,
        clientName: this.options.clientName ?? 'tether',
        ...(this.options.clientVersion ? { clientVersion: this.options.clientVersion } : {}),
        capabilities: this.options.capabilities ?? RELAYING,
        timeoutMs: this.connectTimeoutMs,
        prepare: (rpc) => routeHostMessages(rpc, this.routes, this.noticeSink),
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
      this.chooser.reached(record);
      this.lastError = undefined;
      this.reloadingPid = undefined;
      this.awaySince = undefined;
      this.everConnected = true;
      session.rpc.onClose((error) => {
        if (this.rpc === session.rpc) this.toLost(error ?? new TetherError('CONNECTION_CLOSED', 'The host closed the connection.'));
      });
      this.backoff.connected();
      this.transition('authenticated');
      this.pinger.start(session.rpc, (error) => {
        if (this.rpc === session.rpc) this.toLost(error);
      });
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

  /** The host's notifications about itself, as the link's events; a bye is kept for toLost. */
  private readonly noticeSink: HostNoticeSink = {
    bye: (bye) => {
      this.lastBye = bye;
      if (bye.reason === 'evicted') this.emit('evicted', bye);
    },
    events: this,
  };

  // --- Losing and regaining -----------------------------------------------------------

  /** The single funnel into `lost` (or `reloading`, when the host announced a reload). */
  private toLost(error: TetherError): void {
    if (this.currentState === 'closed' || this.currentState === 'lost' || this.currentState === 'reloading') return;
    this.pinger.stop();
    const rpc = this.rpc;
    this.rpc = undefined;
    rpc?.close(error);
    this.currentHello = undefined;
    this.backoff.disconnected();
    const bye = this.lastBye;
    this.lastError = endOf(error, bye);
    this.reloadingPid = undefined;
    this.awaySince ??= performance.now();
    if (bye?.reason === 'evicted') {
      // Reconnecting would displace the client that displaced us, and so on forever: stay
      // away from this host instance and say why on every request. The instance is the attempt's:
      // currentRecord is set only once the handshake is through (a bye in the same chunk as its
      // reply comes before that), and until then may still be an earlier connection's.
      this.evictedFrom = (this.attemptRecord ?? this.currentRecord)?.instanceId ?? 'unknown';
      this.transition('lost', this.lastError);
    } else if (bye?.reason === 'reload') {
      this.reloadingPid = (this.attemptRecord ?? this.currentRecord)?.pid;
      this.transition('reloading', this.lastError);
      // The host said when to expect it; its record changing usually brings us back sooner.
      this.retry.after(Math.max(50, bye.expectedBackMs ?? 1_000));
    } else {
      // Its port refuses and its record, still there, says it is reloading (seen begin or not);
      // unmarked, it is an editor that crashed, its pid perhaps another process's now. The state
      // stays `lost`, backing off as for any absence: one never back is not "reloading" forever.
      const record = this.attemptRecord;
      const now = record && error.data.errno === 'ECONNREFUSED' ? this.recordNow(record) : undefined;
      if (now && markedReloading(now)) {
        this.lastError = refusedWhileReloading(error, now);
        this.reloadingPid = now.pid;
      }
      this.transition('lost', this.lastError);
      // A record that appeared during the failed attempt may be the host coming back.
      this.retry.after(this.recordsChangedWhileConnecting ? 0 : this.backoff.next());
      this.recordsChangedWhileConnecting = false;
    }
  }

  /**
   * This host instance's record as it is now, if it is still there. A listing that fails (the
   * records folder unreadable) tells nothing either way, and must not keep the link from
   * `lost`: it would stay `connecting` for good, its attempt a rejected promise no one awaits.
   */
  private recordNow(record: HostRecord): HostRecord | undefined {
    try {
      return this.chooser.recordOf(record.instanceId);
    } catch {
      return undefined;
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
    return this.chooser.peek() === undefined;
  }

  private onRecordsChanged(): void {
    if (this.evictedFrom) {
      // A new instance (the editor restarted) is fair game again.
      const next = this.chooser.peek();
      if (!next || next.instanceId === this.evictedFrom) return;
      this.evictedFrom = undefined;
    }
    if (this.currentState === 'connecting') this.recordsChangedWhileConnecting = true;
    else if (this.currentState === 'lost' || this.currentState === 'reloading') void this.attempt();
  }

  /** Reads the state afresh (after an await, TypeScript's narrowing of it is stale). */
  private is(state: LinkState): boolean {
    return this.currentState === state;
  }

  private transition(state: LinkState, error?: TetherError): void {
    if (this.currentState === state) return;
    this.currentState = state;
    this.emit('state', state, error ? { error } : {});
    this.waiters.wakeAll();
  }
}
