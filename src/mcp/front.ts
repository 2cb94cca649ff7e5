/**
 * A front: what `tether mcp` (stdio) and `tether serve` (HTTP) share. It owns the host link,
 * the catalog mirror and the calls in flight, and fans the host's change notifications out
 * to every live MCP server instance.
 */
import { randomUUID } from 'node:crypto';
import { join } from 'node:path';
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import type { Server } from '@modelcontextprotocol/server';
import type { Logger } from 'pino';
import { METHODS, TetherError, type Agent, type HostStateNotice, type ToolDescriptor } from '../protocol/index.js';
import { tetherHome } from '../discovery/tether-home.js';
import { runHostCall, type HostCallOptions } from '../link/host-call.js';
import { HostLink, type CallListener, type HostLinkOptions } from '../link/host-link.js';
import { createLongStringLifter } from '../link/long-string-lifter.js';
import { HostCatalog } from './host-catalog.js';
import { callIdForKey, type CallRequestOptions } from './request-meta.js';
import { isRerunnable } from './tool-results.js';

export const RELOADING = 'The editor is reloading its code domain; the call continues when it is back.';

export interface FrontOptions {
  project?: string;
  cwd?: string;
  /** How long a request waits for the editor when it is starting or reloading. */
  waitMs?: number;
  /** Longest silence towards a client waiting on a call (with a progressToken). */
  keepaliveMs?: number;
  home?: string;
  link?: Omit<HostLinkOptions, 'project' | 'cwd' | 'recordsDir'>;
  logger?: Logger;
  /**
   * Long strings in large call results stay as they arrived from the host, to be written to
   * the client unchanged (tether mcp: see splicing-stdio-transport.ts). Whoever serves such a
   * front must splice or materialize them (liftedStringsOf on the call's outcome).
   */
  liftLongStrings?: boolean;
  /** Told about every finished call (for metrics). */
  onCallFinished?(tool: string, outcome: 'ok' | 'error', seconds: number): void;
}

export interface PendingCall {
  callId: string;
  tool: string;
  startedAt: number;
  state: 'waiting' | 'queued' | 'running';
  message?: string;
  /** The MCP client that asked for it. */
  agent?: Agent;
}

export class Front {
  readonly link: HostLink;
  readonly catalog: HostCatalog;
  readonly waitMs: number;
  readonly keepaliveMs: number;
  readonly pending = new Map<string, PendingCall>();
  /** The host calls of `pending`, for close() to wait on. */
  private readonly running = new Set<Promise<unknown>>();
  private closing = false;
  readonly servers = new Set<Server>();
  hostState: HostStateNotice | undefined;
  private readonly subscriptions = new Map<string, number>();

  constructor(readonly options: FrontOptions = {}) {
    const home = options.home ?? tetherHome();
    const project = options.project ? resolve(options.project) : undefined;
    this.waitMs = options.waitMs ?? 20_000;
    this.keepaliveMs = options.keepaliveMs ?? 2_500;
    this.link = new HostLink({
      ...options.link,
      ...(options.liftLongStrings ? { liftStrings: createLongStringLifter() } : {}),
      ...(project ? { project } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      recordsDir: join(home, 'hosts'),
    });
    // Every MCP server bound to this front (one per HTTP session, bounded by the session
    // registry) listens for resource updates: more than Node's default of 10 is expected.
    this.link.setMaxListeners(0);
    const log = options.logger;
    this.catalog = new HostCatalog(
      this.link,
      join(home, 'cache', 'tools'),
      project ?? resolve(options.cwd ?? process.cwd()),
      (error) => log?.debug({ err: error }, 'catalog refresh failed'),
      (tool, why) => log?.warn({ tool }, why),
    );
    // While the editor stays away, every retry repeats "connecting", then "lost" for the same
    // reason: said once at info, then at debug, so a day without an editor is not megabytes of log.
    let lastSaid: string | undefined;
    this.link.on('state', (state, { error }) => {
      const said = `${state}\0${error?.message ?? ''}`;
      const news = state !== 'connecting' && said !== lastSaid;
      if (news) lastSaid = said;
      log?.[news ? 'info' : 'debug']({ state, reason: error?.message }, 'host link');
    });
    this.link.on('hostState', (notice) => (this.hostState = notice));
    this.link.on('connected', (hello) => {
      this.hostState = { state: hello.state, at: Date.now() };
      void this.resubscribe();
    });
    this.catalog.on('toolsChanged', () => this.broadcast((server) => server.sendToolListChanged()));
    this.catalog.on('resourcesChanged', () => this.broadcast((server) => server.sendResourceListChanged()));
    this.catalog.on('promptsChanged', () => this.broadcast((server) => server.sendPromptListChanged()));
  }

  start(): this {
    this.link.start();
    return this;
  }

  /**
   * Ends the front: calls still in flight are cancelled at the host (a client that went away
   * no longer wants them; shared calls go on for their other requesters), then the link closes.
   * With `settleMs`, for callers still there to hear it, each call first gets up to that long
   * to end with the host's own word (cancelled, or finished anyway) rather than a lost link's.
   */
  async close(options: { reason?: string; settleMs?: number } = {}): Promise<void> {
    // From now on no call is sent (call() refuses): one sent after the snapshot below would
    // escape the cancel and be cut by the link's close, its outcome unknown.
    this.closing = true;
    const inFlight = [...this.pending.keys()];
    try {
      if (this.link.state === 'authenticated' && inFlight.length > 0) {
        const reason = options.reason ?? 'The MCP client disconnected.';
        const rpc = await this.link.connection(0);
        await Promise.allSettled(inFlight.map((callId) => rpc.request(METHODS.callCancel, { callId, reason }, { timeoutMs: 1_000 })));
        if (options.settleMs) await Promise.race([Promise.allSettled(this.running), delay(options.settleMs, undefined, { ref: false })]);
      }
    } finally {
      this.link.close();
    }
  }

  /** What a client waiting on a call is told while the editor itself is silent. */
  waitingMessage(): string {
    if (this.isReloading()) return RELOADING;
    if (this.link.state === 'authenticated') return 'Waiting for the editor.';
    return `Waiting for the editor to come back (${this.link.lastFailure?.message ?? this.link.state}).`;
  }

  /**
   * The editor is away because it reloads: it said so as it left, or said it was reloading
   * lately and its port refuses connections for a moment, which is the reload, not a dead editor.
   */
  isReloading(): boolean {
    if (this.link.state === 'reloading') return true;
    // Or its port refuses while its record stays and its process lives (host-link.ts), as in a reload this front did not see begin.
    return this.link.state !== 'authenticated' && (this.reloadingLately() || this.link.lastFailure?.data.reloading === true);
  }

  /** The editor said it was reloading, and is not yet past twice the time it said it would take (or 30 s). */
  private reloadingLately(): boolean {
    const notice = this.hostState;
    if (notice?.state !== 'reloading') return false;
    return Date.now() - notice.at < Math.max(30_000, 2 * (notice.expectedMs ?? 0));
  }

  /**
   * With nothing cached (a first run), tools/list waits briefly for a reachable editor
   * rather than answering with no tools; with a cache it answers at once.
   */
  async catalogReady(maxWaitMs = 2_000): Promise<void> {
    if (this.catalog.isFresh || this.catalog.tools.length > 0) return;
    if (this.link.lastFailure?.code === 'HOST_NOT_FOUND') return; // no editor running: nothing to wait for
    try {
      await this.link.connection(maxWaitMs);
      await this.catalog.refresh('all');
    } catch {
      // No editor yet: answer with what we have; list_changed follows when it appears.
    }
  }

  /**
   * A tool the mirror does not list (it may be stale, or empty on a first run): reaches the
   * editor and asks again. A list the editor could not give, because it went away again (a
   * crash, a reload), is not "no such tool": it waits for the editor and asks again while the
   * call may wait, then reports the editor unavailable. Undefined only when the editor answered
   * without the tool.
   */
  async lookUpTool(name: string, signal?: AbortSignal): Promise<ToolDescriptor | undefined> {
    const deadline = Date.now() + this.waitMs;
    for (;;) {
      await this.link.connection(Math.max(0, deadline - Date.now()), signal);
      await this.catalog.settled();
      const listed = this.catalog.tool(name);
      if (listed) return listed;
      try {
        await this.catalog.refresh('tools');
        return this.catalog.tool(name);
      } catch (error) {
        const { code } = TetherError.from(error);
        if (code !== 'CONNECTION_CLOSED' && code !== 'HOST_UNAVAILABLE') throw error;
        // The editor went away between connecting and answering: wait for it again.
      }
    }
  }

  /** Runs a host tool; the caller chooses nothing but gets progress, logs and questions. */
  async call(
    tool: ToolDescriptor,
    args: Record<string, unknown>,
    options: CallRequestOptions & Pick<HostCallOptions, 'signal' | 'listener' | 'confirmCancelMs'> & { agent?: Agent },
  ): Promise<ReturnType<typeof runHostCall>> {
    if (this.closing) {
      throw new TetherError('HOST_UNAVAILABLE', `Tether is shutting down, so "${tool.name}" was not sent to the editor. Send it again once Tether is back.`, {
        state: 'closed',
        started: false,
      });
    }
    const callId = options.idempotencyKey ? callIdForKey(options.idempotencyKey) : randomUUID();
    const pending: PendingCall = { callId, tool: tool.name, startedAt: Date.now(), state: 'waiting', ...(options.agent ? { agent: options.agent } : {}) };
    this.pending.set(callId, pending);
    const listener: CallListener = {
      ...options.listener,
      progress: (update) => {
        pending.state = update.state;
        if (update.message) pending.message = update.message;
        options.listener?.progress?.(update);
      },
    };
    let outcome: 'ok' | 'error' = 'error';
    // Written out, not spread: it carries the AbortSignal (see mcp-server.ts).
    const params = {
      callId,
      tool: tool.name,
      arguments: args,
      ...(options.deadlineMs ? { deadlineMs: options.deadlineMs } : {}),
      ...(options.agent ? { agent: options.agent } : {}),
    };
    const running = runHostCall(this.link, params, {
      waitMs: this.waitMs,
      rerunnable: isRerunnable(tool),
      keepLiftedStrings: this.options.liftLongStrings === true,
      listener,
      signal: options.signal,
      confirmCancelMs: options.confirmCancelMs,
    });
    this.running.add(running);
    try {
      const result = await running;
      if (!result.result.isError) outcome = 'ok';
      return result;
    } catch (error) {
      throw options.idempotencyKey ? inTermsOfKey(error, options.idempotencyKey) : error;
    } finally {
      this.running.delete(running);
      this.pending.delete(callId);
      this.options.onCallFinished?.(tool.name, outcome, (Date.now() - pending.startedAt) / 1000);
    }
  }

  /** Resource subscriptions are counted across MCP sessions and held once at the host. */
  async subscribe(uri: string): Promise<void> {
    const count = this.subscriptions.get(uri) ?? 0;
    this.subscriptions.set(uri, count + 1);
    if (count === 0) await this.link.request('resources/subscribe', { uri }, this.waitMs);
  }

  async unsubscribe(uri: string): Promise<void> {
    const count = this.subscriptions.get(uri) ?? 0;
    if (count <= 1) {
      this.subscriptions.delete(uri);
      if (count === 1) await this.link.request('resources/unsubscribe', { uri }, 0).catch(() => undefined);
    } else this.subscriptions.set(uri, count - 1);
  }

  private async resubscribe(): Promise<void> {
    for (const uri of this.subscriptions.keys()) await this.link.request('resources/subscribe', { uri }, 0).catch(() => undefined);
  }

  /** Sends to every live server instance; one failing (closed, wrong era) does not stop the rest. */
  private broadcast(send: (server: Server) => Promise<void>): void {
    for (const server of this.servers) {
      send(server).catch((error: unknown) => this.options.logger?.debug({ err: error }, 'notification not delivered'));
    }
  }
}

/**
 * The client chose a key, not a callId: a conflict is said in its terms (the callId the key
 * maps to is the front's business, though it stays in the data).
 */
function inTermsOfKey(error: unknown, key: string): unknown {
  const failure = TetherError.from(error);
  if (failure.code !== 'CALL_ID_CONFLICT') return error;
  const tool = typeof failure.data.tool === 'string' ? ` (tool "${failure.data.tool}")` : '';
  return new TetherError(
    'CALL_ID_CONFLICT',
    `The idempotency key "${key}" was already used for a different call${tool}. Use a fresh key for a new operation; the same key with the same arguments, written the same way (defaults are not filled in before comparing), returns the first call's result.`,
    { ...failure.data, idempotencyKey: key },
  );
}
