/**
 * An authenticated connection for checks that speak the protocol normally. It answers the
 * host's pings (RpcConnection only answers methods it has handlers for), records every
 * notification with its arrival time, and checks the shape of what calls/* return.
 */
import { connectToHost } from '../link/host-client.js';
import { CallStartResult, CallStatus, HostStatusResult, METHODS, type CallStartParams, type HelloResult, type RpcConnection, type TetherError } from '../protocol/index.js';
import { show } from './assertions.js';
import { CheckFailure } from './errors.js';
import type { HostTarget } from './target.js';

/** Requests that are not tool calls must be answered promptly; this bounds them. */
const REQUEST_TIMEOUT_MS = 5_000;

/** What a host may tell a client unasked; each is recorded. */
const NOTIFICATIONS = [METHODS.callProgress, METHODS.log, METHODS.hostState, METHODS.bye, METHODS.toolsChanged, METHODS.resourceUpdated, METHODS.resourcesChanged, METHODS.promptsChanged] as const;

export interface Notice {
  method: string;
  params: unknown;
  /** Date.now() when it arrived. */
  at: number;
}

export interface SessionOptions {
  clientName?: string;
}

type Listener = (notice: Notice) => void;

export class Session {
  /** Resolves with the reason when the connection closes. */
  readonly closed: Promise<TetherError | undefined>;

  private constructor(
    readonly rpc: RpcConnection,
    readonly hello: HelloResult,
    /** Every notification received, in order, from before the handshake answer on. */
    readonly notices: Notice[],
    private readonly listeners: Set<Listener>,
  ) {
    this.closed = new Promise((resolve) => rpc.onClose(resolve));
  }

  static async open(target: HostTarget, options: SessionOptions = {}): Promise<Session> {
    // Both exist before the hello goes out: a notification may arrive right behind its answer.
    const notices: Notice[] = [];
    const listeners = new Set<Listener>();
    const { rpc, hello } = await connectToHost({
      port: target.port,
      host: target.address,
      token: target.token,
      clientName: options.clientName ?? 'tether-conformance',
      prepare: (connection) => {
        connection.onRequest(METHODS.ping, () => ({}));
        for (const method of NOTIFICATIONS) {
          connection.onNotification(method, (params) => {
            const notice = { method, params, at: Date.now() };
            notices.push(notice);
            for (const listener of listeners) listener(notice);
          });
        }
      },
    });
    return new Session(rpc, hello, notices, listeners);
  }

  get isOpen(): boolean {
    return this.rpc.isOpen;
  }

  request<T = unknown>(method: string, params?: unknown, timeoutMs = REQUEST_TIMEOUT_MS): Promise<T> {
    return this.rpc.request<T>(method, params, { timeoutMs });
  }

  /**
   * calls/start with no time limit (a call may legitimately run long); the result's shape is
   * checked. Aborting `signal` abandons the request: notifications/cancelled for it (protocol.md §4.4).
   */
  async start(params: CallStartParams, options: { signal?: AbortSignal } = {}): Promise<CallStartResult> {
    const raw = await this.rpc.request(METHODS.callStart, params, options.signal ? { signal: options.signal } : {});
    const parsed = CallStartResult.safeParse(raw);
    if (!parsed.success) throw new CheckFailure(`calls/start for "${params.callId}" returned a malformed result: ${show(raw)} (${parsed.error.issues[0]?.message ?? ''})`);
    return parsed.data;
  }

  async status(callId: string): Promise<CallStatus> {
    return parseStatus(await this.request(METHODS.callStatus, { callId }), 'calls/status');
  }

  async cancel(callId: string, reason?: string): Promise<CallStatus> {
    return parseStatus(await this.request(METHODS.callCancel, { callId, ...(reason ? { reason } : {}) }), 'calls/cancel');
  }

  /** host/status, its result's shape checked (protocol.md §7.16). */
  async hostStatus(timeoutMs = REQUEST_TIMEOUT_MS): Promise<HostStatusResult> {
    const raw = await this.request(METHODS.hostStatus, {}, timeoutMs);
    const parsed = HostStatusResult.safeParse(raw);
    if (!parsed.success) {
      const issue = parsed.error.issues[0];
      throw new CheckFailure(`host/status returned a malformed result: ${show(raw)} (${issue ? `${issue.path.join('.')}: ${issue.message}` : ''})`);
    }
    return parsed.data;
  }

  /** The first notification (received already or later) that matches. */
  waitFor(match: (notice: Notice) => boolean, what: string, timeoutMs: number): Promise<Notice> {
    const seen = this.notices.find(match);
    if (seen) return Promise.resolve(seen);
    return new Promise((resolve, reject) => {
      const stop = (): void => {
        clearTimeout(timer);
        this.listeners.delete(listener);
      };
      const timer = setTimeout(() => {
        stop();
        reject(new CheckFailure(`${what}: nothing within ${timeoutMs} ms`));
      }, timeoutMs);
      const listener = (notice: Notice): void => {
        if (!match(notice)) return;
        stop();
        resolve(notice);
      };
      this.listeners.add(listener);
    });
  }

  close(): void {
    this.rpc.close();
  }
}

function parseStatus(raw: unknown, method: string): CallStatus {
  const parsed = CallStatus.safeParse(raw);
  if (!parsed.success) throw new CheckFailure(`${method} returned a malformed status: ${show(raw)} (${parsed.error.issues[0]?.message ?? ''})`);
  return parsed.data;
}
