/**
 * A JSON-RPC 2.0 peer over a Transport: matches responses to requests, dispatches incoming
 * requests and notifications to handlers, and closes idempotently. On close, every pending
 * outgoing request is rejected with CONNECTION_CLOSED and every running handler's
 * AbortSignal fires.
 */
import { TetherError, clipped } from './errors.js';
import { LazyAbort, type Abortable } from './lazy-abort.js';
import { attachLiftedStrings, type LiftedStrings } from './lifted-strings.js';
import { isErrorResponse, isNotification, isRequest, isResponse, type Message, type NotificationMessage, type RequestId, type RequestMessage, type ResponseMessage } from './messages.js';
import type { MethodParams, MethodReturn, MethodSpec } from './method-table.js';
import { parseParams } from './methods.js';
import type { Transport } from './transport.js';

export type ConnectionState = 'open' | 'closed';

export interface RequestContext {
  readonly id: RequestId;
  readonly method: string;
  /** Fires when the peer cancels the request or the connection closes; built on first use. */
  readonly signal: AbortSignal;
  /** The same abandonment without an AbortSignal: what a per-call hot path listens to. */
  readonly abandoned: Abortable;
  readonly connection: RpcConnection;
}

/** A request being handled; its AbortSignal exists only if the handler asks for it. */
class IncomingRequest implements RequestContext {
  readonly abandoned = new LazyAbort();

  constructor(
    readonly id: RequestId,
    readonly method: string,
    readonly connection: RpcConnection,
  ) {}

  get signal(): AbortSignal {
    return this.abandoned.signal;
  }
}

export type RequestHandler = (params: unknown, context: RequestContext) => unknown;
export type NotificationHandler = (params: unknown, connection: RpcConnection) => void;
/** A handler of one method of the table: its params validated and typed, its answer typed. */
export type MethodHandler<S extends MethodSpec> = (params: MethodParams<S>, context: RequestContext) => MethodReturn<S> | Promise<MethodReturn<S>>;

/** What a registration returns: dispose() removes the handler (unless another replaced it since). */
export interface Registration {
  dispose(): void;
}

export interface HandleOptions {
  /**
   * Answers params that fail their schema, instead of INVALID_PARAMS alone: what it returns
   * or throws is the answer (the handshake closes the connection after answering).
   */
  onInvalidParams?(error: TetherError, context: RequestContext): unknown;
}

export interface RequestOptions {
  signal?: AbortSignal;
  /** Gives up (REQUEST_TIMEOUT) after this long. Unset: waits as long as the connection lives. */
  timeoutMs?: number;
  /**
   * The result may keep placeholders for long strings the transport lifted; they are found
   * with liftedStringsOf(result). Unset, the result holds the real strings.
   */
  keepLiftedStrings?: boolean;
}

interface Pending {
  method: string;
  keepLiftedStrings: boolean;
  resolve(value: unknown): void;
  reject(error: TetherError): void;
  cleanup(): void;
}

/** The notification either side sends to abandon one of its own requests. */
export const CANCEL_REQUEST = 'notifications/cancelled';

export class RpcConnection {
  private readonly requestHandlers = new Map<string, RequestHandler>();
  /** The methods whose answers are written by hand (MethodSpec.resultJson), as handle() registered them. */
  private readonly resultWriters = new Map<string, (result: never) => unknown>();
  private readonly notificationHandlers = new Map<string, NotificationHandler>();
  private readonly pending = new Map<RequestId, Pending>();
  private readonly running = new Map<RequestId, LazyAbort>();
  private readonly closeListeners: Array<(error?: TetherError) => void> = [];
  private fallbackRequest: RequestHandler | undefined;
  private fallbackNotification: NotificationHandler | undefined;
  private nextId = 1;
  private currentState: ConnectionState = 'open';
  private closeReason: TetherError | undefined;
  private refusing = false;

  constructor(private readonly transport: Transport) {
    this.onNotification(CANCEL_REQUEST, (params) => {
      const id = (params as { requestId?: RequestId } | undefined)?.requestId;
      if (id !== undefined) this.running.get(id)?.abort(new TetherError('CANCELLED', 'The peer cancelled the request.'));
    });
  }

  get state(): ConnectionState {
    return this.currentState;
  }

  get isOpen(): boolean {
    return this.currentState === 'open';
  }

  /** Why the connection closed, once it has. */
  get closedWith(): TetherError | undefined {
    return this.closeReason;
  }

  start(): this {
    this.transport.start({
      message: (message, lifted) => this.dispatch(lifted ? materializeUnlessKept(message, lifted, this.pending) : message),
      malformed: (error, id) => this.reply(id, undefined, error),
      close: (error) => this.finish(error),
    });
    return this;
  }

  onRequest(method: string, handler: RequestHandler): this {
    this.requestHandlers.set(method, handler);
    return this;
  }

  onNotification(method: string, handler: NotificationHandler): this {
    this.notificationHandlers.set(method, handler);
    return this;
  }

  /**
   * Handles one method of the method table: params that fail its schema are answered
   * INVALID_PARAMS naming the field (parseParams), and never reach the handler.
   */
  handle<S extends MethodSpec>(spec: S, handler: MethodHandler<S>, options: HandleOptions = {}): Registration {
    const { method, resultJson } = spec;
    const handleRaw: RequestHandler = (raw, context) => {
      let params: MethodParams<S>;
      try {
        params = (spec.fastParams?.(raw) ?? parseParams(spec.params, raw, method)) as MethodParams<S>;
      } catch (error) {
        if (!options.onInvalidParams) throw error;
        return options.onInvalidParams(TetherError.from(error), context);
      }
      return handler(params, context);
    };
    this.requestHandlers.set(method, handleRaw);
    if (resultJson) this.resultWriters.set(method, resultJson);
    else this.resultWriters.delete(method);
    return {
      dispose: () => {
        if (this.requestHandlers.get(method) !== handleRaw) return;
        this.requestHandlers.delete(method);
        this.resultWriters.delete(method);
      },
    };
  }

  /** Handles requests no specific handler claims (default: METHOD_NOT_FOUND). */
  onOtherRequest(handler: RequestHandler | undefined): this {
    this.fallbackRequest = handler;
    return this;
  }

  /** Handles notifications no specific handler claims (default: ignored, as JSON-RPC says). */
  onOtherNotification(handler: NotificationHandler | undefined): this {
    this.fallbackNotification = handler;
    return this;
  }

  onClose(listener: (error?: TetherError) => void): this {
    if (this.currentState === 'closed') queueMicrotask(() => listener(this.closeReason));
    else this.closeListeners.push(listener);
    return this;
  }

  request<T = unknown>(method: string, params?: unknown, options: RequestOptions = {}): Promise<T> {
    if (!this.isOpen) return Promise.reject(this.closedError());
    if (options.signal?.aborted) return Promise.reject(TetherError.from(options.signal.reason, 'CANCELLED'));
    const id = this.nextId++;
    return new Promise<T>((resolve, reject) => {
      let timer: ReturnType<typeof setTimeout> | undefined;
      const abandon = (error: TetherError): void => {
        if (!this.pending.delete(id)) return;
        cleanup();
        this.notify(CANCEL_REQUEST, { requestId: id, reason: error.message });
        reject(error);
      };
      const onAbort = (): void => abandon(TetherError.from(options.signal?.reason ?? 'aborted', 'CANCELLED'));
      const cleanup = (): void => {
        if (timer !== undefined) clearTimeout(timer);
        options.signal?.removeEventListener('abort', onAbort);
      };
      if (options.timeoutMs !== undefined) {
        timer = setTimeout(
          () =>
            abandon(
              new TetherError('REQUEST_TIMEOUT', `"${method}" got no answer within ${options.timeoutMs} ms.`, {
                method,
                timeoutMs: options.timeoutMs,
              }),
            ),
          options.timeoutMs,
        );
      }
      options.signal?.addEventListener('abort', onAbort, { once: true });
      this.pending.set(id, { method, keepLiftedStrings: options.keepLiftedStrings === true, resolve: resolve as (value: unknown) => void, reject, cleanup });
      try {
        this.transport.send({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
      } catch (error) {
        this.pending.delete(id);
        cleanup();
        reject(TetherError.from(error));
      }
    });
  }

  /**
   * The peer passed the handshake; `maxFrameBytes` is the largest frame it announced it reads,
   * which bounds what may be sent to it.
   */
  peerAuthenticated(peer: { maxFrameBytes?: number | undefined } = {}): void {
    this.transport.peerAuthenticated?.(peer);
  }

  /**
   * Sends a notification; returns false when nothing was sent: the connection is closed, or the
   * notification is larger than the peer reads (a tool's long progress or log line), in which
   * case it is dropped for this peer alone. A notification is never worth a call or a process.
   */
  notify(method: string, params?: unknown): boolean {
    if (!this.isOpen) return false;
    const message: NotificationMessage = { jsonrpc: '2.0', method, ...(params === undefined ? {} : { params }) };
    try {
      this.transport.send(message);
    } catch (error) {
      if (TetherError.from(error).code !== 'FRAME_TOO_LARGE') throw error;
      return false;
    }
    return true;
  }

  /**
   * Refuses the peer: nothing else it sent is dispatched (even frames already received in the
   * same chunk), the reply being written now still goes out, and the connection then closes.
   */
  refuse(error: TetherError): void {
    if (this.refusing || !this.isOpen) return;
    this.refusing = true;
    queueMicrotask(() => this.close(error));
  }

  /** Sends an error not tied to any request (id null), e.g. before closing for a protocol fault. */
  sendError(error: TetherError): void {
    this.reply(null, undefined, error);
  }

  /** Closes the connection (flushing what was sent). Idempotent. */
  close(error?: TetherError): void {
    if (!this.isOpen) return;
    this.transport.close(error);
    this.finish(error);
  }

  private dispatch(message: Message): void {
    if (this.refusing) return;
    if (isRequest(message)) this.handleRequest(message);
    else if (isNotification(message)) this.handleNotification(message);
    else this.handleResponse(message as ResponseMessage);
  }

  private handleRequest(message: RequestMessage): void {
    const handler = this.requestHandlers.get(message.method) ?? this.fallbackRequest;
    if (!handler) {
      const method = clipped(message.method);
      this.reply(message.id, undefined, new TetherError('METHOD_NOT_FOUND', `Unknown method "${method}".`, { method }));
      return;
    }
    const context = new IncomingRequest(message.id, message.method, this);
    this.running.set(message.id, context.abandoned);
    let outcome: unknown;
    try {
      outcome = handler(message.params, context);
    } catch (error) {
      this.settle(context, undefined, error);
      return;
    }
    if (outcome instanceof Promise) {
      outcome.then(
        (result) => this.settle(context, result, undefined),
        (error: unknown) => this.settle(context, undefined, error),
      );
    } else {
      this.settle(context, outcome, undefined);
    }
  }

  private settle({ id, method, abandoned }: IncomingRequest, result: unknown, error: unknown): void {
    if (this.running.get(id) === abandoned) this.running.delete(id);
    if (error !== undefined) return this.reply(id, undefined, TetherError.from(error), method);
    this.reply(id, result, undefined, method, result === undefined ? undefined : this.resultWriters.get(method));
  }

  private handleNotification(message: NotificationMessage): void {
    const handler = this.notificationHandlers.get(message.method) ?? this.fallbackNotification;
    try {
      handler?.(message.params, this);
    } catch {
      // A notification has no one to answer; a faulty handler must not take the connection down.
    }
  }

  private handleResponse(message: ResponseMessage): void {
    if (message.id === null) {
      // An error about a frame we sent that the peer could not read; nothing to match it to.
      return;
    }
    const pending = this.pending.get(message.id);
    if (!pending) return;
    this.pending.delete(message.id);
    pending.cleanup();
    if (isErrorResponse(message)) pending.reject(TetherError.fromWire(message.error));
    else pending.resolve(message.result);
  }

  private reply(id: RequestId | null, result: unknown, error: TetherError | undefined, method?: string, writeJson?: (result: never) => unknown): void {
    if (!this.isOpen) return;
    if (id === null && error === undefined) return;
    try {
      if (error) this.transport.send({ jsonrpc: '2.0', id, error: error.toWire() });
      // The answer's one serialization (its hand writer's, else the frame's) is in this try: one JSON cannot encode is
      // answered below, never thrown from here, where a handler's answer would be a rejection no one handles (the process ends).
      else this.transport.send({ jsonrpc: '2.0', id: id as RequestId, result: (writeJson ? writeJson(result as never) : result) ?? {} });
    } catch (sendError) {
      // The answer could not be framed or encoded: answer with why instead (unsentAnswer).
      const unsent = error === undefined ? unsentAnswer(method, sendError) : TetherError.from(sendError);
      try {
        this.transport.send({ jsonrpc: '2.0', id, error: unsent.toWire() });
      } catch {
        // Not even that fits what the peer reads: it cannot be answered, so it is let go.
        this.close(unsent);
      }
    }
  }

  private closedError(): TetherError {
    const why = this.closeReason ? ` (${this.closeReason.message})` : '';
    return new TetherError('CONNECTION_CLOSED', `The connection is closed${why}.`, this.closeReason ? { cause: this.closeReason.toJSON() } : {});
  }

  private finish(error?: TetherError): void {
    if (this.currentState === 'closed') return;
    this.currentState = 'closed';
    this.closeReason = error;
    const closed = this.closedError();
    for (const [id, pending] of this.pending) {
      this.pending.delete(id);
      pending.cleanup();
      pending.reject(closed);
    }
    for (const abandoned of this.running.values()) abandoned.abort(closed);
    this.running.clear();
    for (const listener of this.closeListeners.splice(0)) listener(error);
  }
}

/**
 * Why an answer was not sent: too large for the receiver's frames, or not JSON (a BigInt, a cycle: a throw that is no
 * TetherError is JSON.stringify's). Either way the request itself was handled, which for a call means that its tool ran.
 */
function unsentAnswer(method: string | undefined, failure: unknown): TetherError {
  const ready = `The answer to "${method ?? 'the request'}" was ready, but`;
  const handled = { ...(method ? { method } : {}), handled: true };
  if (!(failure instanceof TetherError)) {
    const reason = failure instanceof Error ? failure.message : 'it is not JSON';
    const message = `${ready} it cannot be encoded as JSON (${reason}), so it was not sent. The request itself was handled (a call's tool has run, and its effects have happened): do not send it again; answer with JSON values only.`;
    return new TetherError('INTERNAL_ERROR', message, { ...handled, reason });
  }
  if (failure.code !== 'FRAME_TOO_LARGE') return failure;
  const message = `${ready} at ${String(failure.data.length)} bytes it exceeds the ${String(failure.data.maxFrameBytes)}-byte frame limit of the receiver, so it was not sent. The request itself was handled.`;
  return new TetherError('FRAME_TOO_LARGE', message, { ...failure.data, ...handled });
}

/**
 * Placeholders for lifted strings survive only in the result of a request that asked to keep
 * them; every other message is materialized before it is dispatched.
 */
function materializeUnlessKept(message: Message, lifted: LiftedStrings, pending: ReadonlyMap<RequestId, Pending>): Message {
  if (isResponse(message) && 'result' in message && message.id !== null && pending.get(message.id)?.keepLiftedStrings) {
    attachLiftedStrings(message.result, lifted);
    return message;
  }
  return lifted.materialize(message);
}
