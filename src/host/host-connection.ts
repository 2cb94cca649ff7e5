/**
 * One client connection to a host. Until the handshake succeeds only `tether/hello` is
 * accepted: anything else is refused with HANDSHAKE_REQUIRED and the connection closes, as
 * does a wrong token or an unsupported protocol version (with a typed error frame first).
 */
import { clientProof, hostProof, secretsMatch } from '../discovery/host-proof.js';
import {
  CallCancelParams,
  CallRef,
  CallStartParams,
  CompleteParams,
  HelloParams,
  METHODS,
  PromptGetParams,
  SUPPORTED_PROTOCOL_VERSIONS,
  TetherError,
  UriParams,
  parseParams,
  type Bye,
  type CallProgress,
  type ElicitResult,
  type HelloResult,
  type LogLevel,
  type RpcConnection,
} from '../protocol/index.js';
import type { CallObserver } from './calls.js';
import type { HostCore } from './host.js';

/** Resources one connection may follow at once: each is kept until unsubscribed, so the count is bounded. */
export const MAX_SUBSCRIPTIONS = 1_024;

export class HostConnection implements CallObserver {
  private authenticated = false;
  private clientCaps: HelloParams['capabilities'] = {};
  readonly subscriptions = new Set<string>();
  private handshakeTimer: NodeJS.Timeout | undefined;
  private pingTimer: NodeJS.Timeout | undefined;
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
    rpc.onRequest(METHODS.hello, (params) => this.hello(params));
    rpc.onOtherRequest(() => this.refuseBeforeHandshake());
    rpc.onOtherNotification(() => {
      // A notification has no id to answer: say why with an id-less error frame, then close.
      const error = this.handshakeRequired();
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
  send(method: string, params: unknown): void {
    if (this.isAuthenticated) this.rpc.notify(method, params);
  }

  /** Says goodbye with a reason, then closes. */
  bye(bye: Omit<Bye, 'at'>): void {
    this.send(METHODS.bye, { ...bye, at: Date.now() });
    this.rpc.close(new TetherError(bye.reason === 'evicted' ? 'EVICTED' : 'CONNECTION_CLOSED', bye.message, { reason: bye.reason }));
  }

  // --- CallObserver -------------------------------------------------------------------

  progress(update: CallProgress): void {
    this.send(METHODS.callProgress, update);
  }

  log(callId: string, level: LogLevel, data: unknown, logger?: string): void {
    this.send(METHODS.log, { callId, level, data, ...(logger ? { logger } : {}) });
  }

  get elicit(): CallObserver['elicit'] {
    if (!this.clientCaps?.elicitation) return undefined;
    return (callId, message, requestedSchema, signal) =>
      this.rpc.request<ElicitResult>(METHODS.elicit, { callId, message, requestedSchema }, { signal });
  }

  get sample(): CallObserver['sample'] {
    if (!this.clientCaps?.sampling) return undefined;
    return (callId, params, signal) => this.rpc.request(METHODS.sample, { ...params, callId }, { signal });
  }

  // --- Handshake ----------------------------------------------------------------------

  private hello(raw: unknown): HelloResult {
    if (this.authenticated) throw new TetherError('INVALID_REQUEST', 'The handshake was already completed on this connection.');
    const params = this.parseHello(raw);
    const { token } = this.core.options;
    // Proofs only (protocol.md §6.1, §14): a client that sends the token itself would send it
    // as readily to whatever holds the port while the editor reloads, so it is refused even
    // when right. Messages name neither the token nor the records folder (the user's home).
    if (!params.proof) {
      this.closeSoon(
        new TetherError(
          'UNAUTHORIZED',
          `Host "${this.core.identity.name}" takes only a proof of its token ("proof" in ${METHODS.hello}, protocol.md §6.1), never the token itself: upgrade the client, which should read the token from the host's record under $TETHER_HOME/hosts and prove it knows it.`,
        ),
      );
    } else if (!secretsMatch(params.proof.mac, clientProof(token, params.proof.nonce)) || !this.core.firstUseOf(params.proof.nonce)) {
      this.closeSoon(
        new TetherError(
          'UNAUTHORIZED',
          `The proof does not match the token of host "${this.core.identity.name}" (or its nonce was used before). Read the current token from the host's record under $TETHER_HOME/hosts and connect again with a fresh nonce.`,
        ),
      );
    }
    if (!SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)) {
      this.closeSoon(
        new TetherError(
          'UNSUPPORTED_VERSION',
          `Protocol version ${params.protocolVersion} is not supported by this host (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}). Upgrade the older side.`,
          { supported: SUPPORTED_PROTOCOL_VERSIONS, requested: params.protocolVersion },
        ),
      );
    }
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    this.authenticated = true;
    this.clientCaps = params.capabilities ?? {};
    this.clientName = params.client.name;
    this.clientVersion = params.client.version;
    this.authenticatedAt = Date.now();
    // Results may be as large as the client reads (a 50 MB screenshot is 67 MB of base64).
    this.rpc.peerAuthenticated({ maxFrameBytes: params.limits?.maxFrameBytes });
    this.registerHandlers();
    this.startPinging();
    this.core.admitted(this);
    const result = this.core.helloResult(this.id);
    // The host's half: it knows the token too, so it is the editor and not whoever holds the port.
    return params.proof ? { ...result, proof: { mac: hostProof(token, params.proof.nonce) } } : result;
  }

  private parseHello(raw: unknown): HelloParams {
    try {
      return parseParams(HelloParams, raw, METHODS.hello);
    } catch (error) {
      this.closeSoon(TetherError.from(error));
    }
  }

  /** Answers with the error, then closes: the error frame goes out before the close. */
  private closeSoon(error: TetherError): never {
    this.rpc.refuse(error);
    throw error;
  }

  private refuseBeforeHandshake(): never {
    return this.closeSoon(this.handshakeRequired());
  }

  private handshakeRequired(): TetherError {
    // Proof, not token: a client must never send the token (protocol.md §14).
    return new TetherError('HANDSHAKE_REQUIRED', `Send "${METHODS.hello}", with a proof of the token in the host's record, before anything else; closing.`);
  }

  private registerHandlers(): void {
    const { calls, catalog } = this.core;
    this.rpc
      .onOtherRequest(undefined)
      .onOtherNotification(undefined)
      .onRequest(METHODS.ping, () => ({}))
      // From what the network side holds: answered while the main thread is blocked.
      .onRequest(METHODS.hostStatus, () => this.core.status())
      .onRequest(METHODS.toolsList, () => ({ tools: this.core.toolDescriptors() }))
      .onRequest(METHODS.callStart, (p, context) => calls.start(parseParams(CallStartParams, p, METHODS.callStart), this, context.abandoned))
      .onRequest(METHODS.callStatus, (p) => calls.status(parseParams(CallRef, p, METHODS.callStatus).callId))
      .onRequest(METHODS.callCancel, (p) => {
        const { callId, reason } = parseParams(CallCancelParams, p, METHODS.callCancel);
        return calls.cancel(callId, reason);
      })
      .onRequest(METHODS.resourcesList, () => ({ resources: catalog.listResources() }))
      .onRequest(METHODS.resourceTemplatesList, () => ({ resourceTemplates: catalog.listTemplates() }))
      .onRequest(METHODS.resourcesRead, async (p) => ({ contents: await catalog.read(parseParams(UriParams, p, METHODS.resourcesRead).uri) }))
      .onRequest(METHODS.resourcesSubscribe, (p) => {
        const { uri } = parseParams(UriParams, p, METHODS.resourcesSubscribe);
        if (!this.subscriptions.has(uri) && this.subscriptions.size >= MAX_SUBSCRIPTIONS) {
          throw new TetherError('INVALID_PARAMS', `This connection already follows ${MAX_SUBSCRIPTIONS} resources, the most one may; unsubscribe from some first.`, {
            field: 'uri',
            limit: MAX_SUBSCRIPTIONS,
          });
        }
        this.subscriptions.add(uri);
        return {};
      })
      .onRequest(METHODS.resourcesUnsubscribe, (p) => {
        this.subscriptions.delete(parseParams(UriParams, p, METHODS.resourcesUnsubscribe).uri);
        return {};
      })
      .onRequest(METHODS.promptsList, () => ({ prompts: catalog.listPrompts() }))
      .onRequest(METHODS.promptsGet, (p) => {
        const { name, arguments: args } = parseParams(PromptGetParams, p, METHODS.promptsGet);
        return catalog.getPrompt(name, args);
      })
      .onRequest(METHODS.complete, (p) => catalog.complete(parseParams(CompleteParams, p, METHODS.complete)));
  }

  /** Host-side liveness: a client that stops answering pings is dropped (its calls carry on). */
  private startPinging(): void {
    const interval = this.core.options.pingIntervalMs;
    if (interval <= 0) return;
    this.pingTimer = setInterval(() => {
      this.rpc.request(METHODS.ping, undefined, { timeoutMs: interval }).catch((error: unknown) => {
        if (this.rpc.isOpen) this.rpc.close(new TetherError('REQUEST_TIMEOUT', `Client stopped answering pings: ${(error as Error).message}`));
      });
    }, interval);
    this.pingTimer.unref();
  }

  private dispose(): void {
    if (this.handshakeTimer) clearTimeout(this.handshakeTimer);
    if (this.pingTimer) clearInterval(this.pingTimer);
    this.authenticated = false;
    this.core.calls.detach(this);
    this.core.forget(this);
  }
}

