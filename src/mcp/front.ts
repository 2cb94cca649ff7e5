/**
 * A front: what `tether mcp` (stdio) and `tether serve` (HTTP) share, and all they see of an
 * editor. It owns the host link, the mirror of the editor's lists (host-catalog.ts), the calls
 * in flight (calls-in-flight.ts) and the MCP tasks (task-store.ts), and tells whatever is
 * attached to it (each MCP server instance, the stateless HTTP handler, metrics) when the
 * editor's lists or one of its resources change.
 */
import { join, resolve } from 'node:path';
import type { Logger } from 'pino';
import { TetherError, type Agent, type HelloResult, type ToolDescriptor } from '../protocol/index.js';
import { tetherHome } from '../discovery/tether-home.js';
import { HostLink, type HostLinkOptions, type LinkState } from '../link/host-link.js';
import { createLongStringLifter } from '../link/long-string-lifter.js';
import { reloadWaitFor } from '../link/reload-wait.js';
import { CallsInFlight, type CallOptions, type CallOutcome, type PendingCall } from './calls-in-flight.js';
import { EditorPresence } from './editor-presence.js';
import { HostCatalog, type HostLists } from './host-catalog.js';
import { ResourceSubscriptions } from './resource-subscriptions.js';
import { TaskStore } from './task-store.js';

export type { CallOptions, CallOutcome, PendingCall } from './calls-in-flight.js';
export type { HostLists } from './host-catalog.js';

export interface FrontOptions {
  project?: string;
  cwd?: string;
  /**
   * How long a request waits for the editor when it is starting or away; one away for a domain
   * reload while its process runs is waited for up to link.reloadWaitMs in all (60 s).
   */
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

/** What something attached to a front is told (see attach); a failure to pass it on is only logged. */
export interface FrontListener {
  /** The MCP client it serves, as the client named itself (for status). */
  agent?(): Agent | undefined;
  /** The link reached the editor, the first time or again. */
  connected?(): void;
  toolsChanged?(): Promise<void> | void;
  resourcesChanged?(): Promise<void> | void;
  promptsChanged?(): Promise<void> | void;
  resourceUpdated?(uri: string): Promise<void> | void;
}

/** What a front knows of its editor, for tether_status, /status and /healthz. */
export interface EditorStatus {
  /** The editor's project folder, else the one asked for; null when neither is known. */
  project: string | null;
  link: LinkState;
  /** The editor last reached, with what it last said it is doing; null before one was reached. */
  host: (HelloResult['host'] & { state: string }) | null;
  /** Away because it reloads its code domain, which is no failure (editor-presence.ts). */
  reloading: boolean;
  /** Why the editor cannot be reached, while it cannot. */
  lastFailure?: { code: string; message: string };
  calls: PendingCall[];
  /** The MCP clients attached that said who they are. */
  agents: Agent[];
  tools: number;
}

/**
 * How long a closing front waits, by default, for a reloading editor to take the cancels of
 * the calls its client left: within the 5 s the CLI gives a shutdown, and long enough for the
 * short reloads (a longer one gets no cancel, and its calls end OUTCOME_UNKNOWN).
 */
export const DEFAULT_CLOSE_CANCEL_MS = 3_000;

export class Front {
  /** The link itself: tests drive it; everything else goes through the front. */
  readonly link: HostLink;
  /** The project asked for, as given (the editor's own folder is in status()). */
  readonly project: string | undefined;
  readonly waitMs: number;
  readonly keepaliveMs: number;
  /** MCP tasks started through this front; any session may poll one by its id. */
  readonly tasks = new TaskStore();
  private readonly catalog: HostCatalog;
  private readonly calls: CallsInFlight;
  private readonly listeners = new Set<FrontListener>();
  private readonly subscriptions: ResourceSubscriptions;
  private readonly presence: EditorPresence;
  private readonly log: Logger | undefined;

  constructor(options: FrontOptions = {}) {
    const home = options.home ?? tetherHome();
    this.project = options.project;
    const project = options.project ? resolve(options.project) : undefined;
    this.waitMs = options.waitMs ?? 20_000;
    this.keepaliveMs = options.keepaliveMs ?? 2_500;
    const log = (this.log = options.logger);
    this.link = new HostLink({
      // A tool that changes a script reloads the editor, often for longer than waitMs.
      reloadWaitMs: reloadWaitFor(this.waitMs),
      ...options.link,
      ...(options.liftLongStrings ? { liftStrings: createLongStringLifter() } : {}),
      ...(project ? { project } : {}),
      ...(options.cwd ? { cwd: options.cwd } : {}),
      recordsDir: join(home, 'hosts'),
    });
    this.subscriptions = new ResourceSubscriptions(this.link, this.waitMs);
    this.calls = new CallsInFlight(this.link, { waitMs: this.waitMs, keepLiftedStrings: options.liftLongStrings === true, onCallFinished: options.onCallFinished, ...(log ? { log } : {}) });
    this.catalog = new HostCatalog(
      this.link,
      join(home, 'cache', 'tools'),
      project ?? resolve(options.cwd ?? process.cwd()),
      (error) => log?.debug({ err: error }, 'catalog refresh failed'),
      (tool, why) => log?.warn({ tool }, why),
    );
    this.presence = new EditorPresence(this.link, log);
    this.link.on('connected', () => {
      void this.subscriptions.renew();
      this.tell((listener) => listener.connected?.());
    });
    this.link.on('resourceUpdated', (uri) => this.tell((listener) => listener.resourceUpdated?.(uri)));
    this.catalog.on('toolsChanged', () => this.tell((listener) => listener.toolsChanged?.()));
    this.catalog.on('resourcesChanged', () => this.tell((listener) => listener.resourcesChanged?.()));
    this.catalog.on('promptsChanged', () => this.tell((listener) => listener.promptsChanged?.()));
  }

  start(): this {
    this.link.start();
    return this;
  }

  /**
   * Ends the front: calls still in flight are cancelled at the host (a client that went away
   * no longer wants them; shared calls go on for their other requesters), waiting up to
   * `cancelWithinMs` for an editor that is reloading to take the cancels, then the link
   * closes, and with it every task. With `settleMs`, for callers still there to hear it, each
   * call first gets up to that long to end with the host's own word.
   */
  async close(options: { reason?: string; settleMs?: number; cancelWithinMs?: number } = {}): Promise<void> {
    try {
      // Not awaited when there is nothing to cancel: an unused front is closed at once.
      const cancelling = this.calls.close(options.reason ?? 'The MCP client disconnected.', {
        cancelWithinMs: options.cancelWithinMs ?? DEFAULT_CLOSE_CANCEL_MS,
        ...(options.settleMs === undefined ? {} : { settleMs: options.settleMs }),
      });
      if (cancelling) await cancelling;
    } finally {
      this.link.close();
      this.tasks.close();
    }
  }

  /** Tells `listener` what happens from now on, until the returned detach. */
  attach(listener: FrontListener): () => void {
    this.listeners.add(listener);
    return () => void this.listeners.delete(listener);
  }

  /** The calls in flight, by callId (a test may fill it to stand for calls in flight). */
  get pending(): Map<string, PendingCall> {
    return this.calls.pending;
  }

  /** How many host calls are in flight (for metrics). */
  get callsInFlight(): number {
    return this.calls.pending.size;
  }

  /** A call in flight, or a task kept: closing the front now would lose something. */
  get busy(): boolean {
    return this.calls.pending.size > 0 || this.tasks.size > 0;
  }

  status(): EditorStatus {
    const { link } = this;
    const hello = link.hello;
    return {
      project: link.record?.projectPath ?? this.project ?? null,
      link: link.state,
      host: hello ? { ...hello.host, state: this.presence.state ?? hello.state } : null,
      reloading: this.presence.isReloading(),
      ...(link.state !== 'authenticated' && link.lastFailure ? { lastFailure: { code: link.lastFailure.code, message: link.lastFailure.message } } : {}),
      calls: [...this.calls.pending.values()],
      agents: [...this.listeners].flatMap((listener) => listener.agent?.() ?? []),
      tools: this.catalog.tools.length,
    };
  }

  /** What a client waiting on a call is told while the editor itself is silent. */
  waitingMessage(): string {
    return this.presence.waitingMessage();
  }

  /**
   * Waits for the editor (as long as a call would) and for the lists it brings; says which
   * editor it is. Rejects as a call would when it does not come.
   */
  async ready(signal?: AbortSignal): Promise<HelloResult['host'] | undefined> {
    await this.link.connection(this.waitMs, signal);
    await this.catalog.settled();
    return this.link.hello?.host;
  }

  // --- The editor's lists ----------------------------------------------------------------------

  /**
   * The lists as MCP clients are to be shown them. With nothing cached (a first run), waits
   * briefly for a reachable editor rather than answering with nothing; with a cache, at once.
   */
  async lists(maxWaitMs = 2_000): Promise<Readonly<HostLists>> {
    if (!this.catalog.isFresh && this.catalog.tools.length === 0 && this.link.lastFailure?.code !== 'HOST_NOT_FOUND') {
      try {
        await this.link.connection(maxWaitMs);
        await this.catalog.refresh('all');
      } catch {
        // No editor yet: answer with what we have; list_changed follows when it appears.
      }
    }
    return this.catalog.all;
  }

  /** The tools as last known (from the editor, or from the cache before it answered). */
  get tools(): readonly ToolDescriptor[] {
    return this.catalog.tools;
  }

  tool(name: string): ToolDescriptor | undefined {
    return this.catalog.tool(name);
  }

  /** True once the lists came from the editor at least once, not only from the cache. */
  get listsFresh(): boolean {
    return this.catalog.isFresh;
  }

  /** Counts changes of the lists, so a session that slept through some can tell (http-session.ts). */
  get listsRevision(): number {
    return this.catalog.revision;
  }

  /**
   * A tool the mirror does not list (it may be stale, or empty on a first run): reaches the
   * editor and asks again. A list the editor could not give, because it went away again (a
   * crash, a reload), is not "no such tool": it waits for the editor and asks again while the
   * call may wait, then reports the editor unavailable. Undefined only when the editor answered
   * without the tool.
   */
  async lookUpTool(name: string, signal?: AbortSignal): Promise<ToolDescriptor | undefined> {
    const deadline = performance.now() + this.waitMs;
    for (;;) {
      await this.link.connection(Math.max(0, deadline - performance.now()), signal);
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

  /** Validates arguments against the tool's input schema (compiled once per schema); throws INVALID_ARGUMENTS. */
  validate(tool: ToolDescriptor, args: Record<string, unknown>): Record<string, unknown> {
    return this.catalog.validate(tool, args);
  }

  // --- Requests to the editor ------------------------------------------------------------------

  /**
   * Runs a host tool (see calls-in-flight.ts). A call that reloaded the editor (a compile)
   * may have changed its tools: the answer waits for the mirror to catch up, so a tools/list
   * right after it is already current.
   */
  async call(tool: ToolDescriptor, args: Record<string, unknown>, options: CallOptions): Promise<CallOutcome> {
    const outcome = await this.calls.call(tool, args, options);
    // Asked first: most calls reload nothing, and awaiting a settled catalog still costs a
    // turn of the microtask queue.
    if (this.catalog.isRefreshing) await this.catalog.settled();
    return outcome;
  }

  /** Any other request of the host protocol (resources/read, prompts/get, completion/complete), waiting for the editor as a call would. */
  request<T>(method: string, params: unknown, signal?: AbortSignal): Promise<T> {
    return this.link.request<T>(method, params, this.waitMs, signal);
  }

  /** Resource subscriptions are counted across MCP sessions and held once at the host. */
  subscribe(uri: string): Promise<void> {
    return this.subscriptions.subscribe(uri);
  }

  unsubscribe(uri: string): Promise<void> {
    return this.subscriptions.unsubscribe(uri);
  }

  /** Tells every listener; one failing (closed, wrong era) does not stop the rest. */
  private tell(each: (listener: FrontListener) => Promise<void> | void): void {
    const undelivered = (error: unknown): void => this.log?.debug({ err: error }, 'notification not delivered');
    for (const listener of this.listeners) {
      try {
        void each(listener)?.catch(undelivered);
      } catch (error) {
        undelivered(error);
      }
    }
  }
}
