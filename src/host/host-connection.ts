/**
 * One client connection to a host. Until the handshake succeeds only `tether/hello` is
 * accepted: anything else is refused with HANDSHAKE_REQUIRED and the connection closes, as
 * does a wrong proof or an unsupported protocol version (with a typed error frame first).
 * Once authenticated it serves the host's methods (host-methods.ts) and hears about the
 * calls it started or attached to.
 */
import {
  METHOD_TABLE,
  NOTIFICATION_TABLE,
  TetherError,
  notifyMethod,
  requestMethod,
  type Bye,
  type CallProgress,
  type HelloParams,
  type HelloResult,
  type LogLevel,
  type NotificationParams,
  type NotificationSpec,
  type Registration,
  type RpcConnection,
} from '../protocol/index.js';
import type { CallObserver } from './call-observer.js';
import { handshakeRequired, helloRefusal, withHostProof } from './handshake.js';
import type { ConnectionPeer, HostCore } from './host-core.js';
import { serveHostMethods } from './host-methods.js';

export class HostConnection implements CallObserver, ConnectionPeer {
  private authenticated = false;
  private clientCaps: HelloParams['capabilities'] = {};
  readonly subscriptions = new Set<string>();
  private handshakeTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
  private registrations: Registration[] = [];
  clientName = '';
  clientVersion: string | undefined;
  /** When the handshake completed (epoch ms). */
  authenticatedAt: number | undefined;

  constructor(
    readonly id: string,
    readonly endpoint: string,
    readonly rpc: RpcConnection,
    private readonly core: HostCore,
  ) {
    // A hello that is not one (its params fail their schema) is answered, then the connection closes.
    this.registrations.push(rpc.handle(METHOD_TABLE.hello, (params) => this.hello(params), { onInvalidParams: (error) => this.closeSoon(error) }));
    rpc.onOtherRequest(() => this.closeSoon(handshakeRequired()));
    rpc.onOtherNotification(() => {
      // A notification has no id to answer: say why with an id-less error frame, then close.
      const error = handshakeRequired();
      this.rpc.sendError(error);
      this.rpc.refuse(error);
    });
    rpc.onClose(() => this.dispose());
    this.handshakeTimer = setTimeout(() => {
      this.rpc.close(new TetherError('HANDSHAKE_REQUIRED', `No handshake within ${core.options.handshakeTimeoutMs} ms; closing.`));
    }, core.options.handshakeTimeoutMs);
    this.handshakeTimer.unref();
  }

  get isAuthenticated(): boolean {
    return this.authenticated && this.rpc.isOpen;
  }

  /** Sends a notification if the connection is authenticated and open. */
  send<S extends NotificationSpec>(spec: S, params: NotificationParams<S>): void {
    if (this.isAuthenticated) notifyMethod(this.rpc, spec, params);
  }

  /** Says goodbye with a reason, then closes. */
  bye(bye: Omit<Bye, 'at'>): void {
    this.send(NOTIFICATION_TABLE.bye, { ...bye, at: Date.now() });
    this.rpc.close(new TetherError(bye.reason === 'evicted' ? 'EVICTED' : 'CONNECTION_CLOSED', bye.message, { reason: bye.reason }));
  }

  // --- CallObserver -------------------------------------------------------------------

  progress(update: CallProgress): void {
    this.send(NOTIFICATION_TABLE.callProgress, update);
  }

  log(callId: string, level: LogLevel, data: unknown, logger?: string): void {
    this.send(NOTIFICATION_TABLE.log, { callId, level, data, ...(logger ? { logger } : {}) });
  }

  get elicit(): CallObserver['elicit'] {
    if (!this.clientCaps?.elicitation) return undefined;
    return (callId, message, requestedSchema, signal) => requestMethod(this.rpc, METHOD_TABLE.elicit, { callId, message, requestedSchema }, { signal });
  }

  get sample(): CallObserver['sample'] {
    if (!this.clientCaps?.sampling) return undefined;
    return (callId, params, signal) => requestMethod(this.rpc, METHOD_TABLE.sample, { ...params, callId }, { signal });
  }

  // --- Handshake ----------------------------------------------------------------------

  private hello(params: HelloParams): HelloResult {
    const refusal = helloRefusal(params, this.core);
    if (refusal) this.closeSoon(refusal);
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.authenticated = true;
    this.clientCaps = params.capabilities ?? {};
    this.clientName = params.client.name;
    this.clientVersion = params.client.version;
    this.authenticatedAt = Date.now();
    // Results may be as large as the client reads (a 50 MB screenshot is 67 MB of base64).
    this.rpc.peerAuthenticated({ maxFrameBytes: params.limits?.maxFrameBytes });
    for (const registration of this.registrations.splice(0)) registration.dispose();
    this.registrations = serveHostMethods(this, this.core);
    this.startPinging();
    this.core.admitted(this);
    return withHostProof(this.core.helloResult(this.id), params, this.core.options.token);
  }

  /** Answers with the error, then closes: the error frame goes out before the close. */
  private closeSoon(error: TetherError): never {
    this.rpc.refuse(error);
    throw error;
  }

  /** Host-side liveness: a client that stops answering pings is dropped (its calls carry on). */
  private startPinging(): void {
    const interval = this.core.options.pingIntervalMs;
    if (interval <= 0) return;
    this.pingTimer = setInterval(() => {
      requestMethod(this.rpc, METHOD_TABLE.ping, undefined, { timeoutMs: interval }).catch((error: unknown) => {
        if (this.rpc.isOpen) this.rpc.close(new TetherError('REQUEST_TIMEOUT', `Client stopped answering pings: ${(error as Error).message}`));
      });
    }, interval);
    this.pingTimer.unref();
  }

  private dispose(): void {
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    for (const registration of this.registrations.splice(0)) registration.dispose();
    this.authenticated = false;
    this.core.calls.detach(this);
    this.core.forget(this);
  }
}
