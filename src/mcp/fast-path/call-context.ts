/**
 * The context a fast-path call's handler runs with: what the SDK's `Server.buildContext` gives
 * a request (its `mcpReq` with `notify`, `log`, `elicitInput`, `requestSampling`), with one
 * hidden class for every call.
 *
 * `buildContext` builds its `mcpReq` by a spread of the request's fields and then adds its
 * three functions; on Node 20 the last two of them missed V8's inline cache on every call
 * (the map after the spread and `log` kept no transition for them: ~16k instructions a call
 * in `Runtime_DefineNamedOwnIC_Miss`). Here they are methods of one class that do what its
 * closures do: `elicitInput` and `requestSampling` are the Server's own `elicitInput` and
 * `createMessage`, and `log`, which reads the Server's logging level and capabilities, is
 * the closure `buildContext` builds, built the first time a call logs (few do).
 *
 * Its methods are called as methods (`ctx.mcpReq.log(…)`), as the tools/call handler does.
 */
import type { RequestId, Server, ServerContext } from '@modelcontextprotocol/server';
import type { CallSignal } from './call-signal.js';

type Notification = { method: string; params?: Record<string, unknown> };
type McpRequest = ServerContext['mcpReq'];

/** The Server's context builder (protected in its typings; the SDK calls it for each request). */
type ContextBuilder = { buildContext(ctx: unknown): ServerContext };

class FastCallRequestContext {
  readonly method = 'tools/call';
  /** The SDK's own context, for `log`; built on first use. */
  private sdkContext: ServerContext | undefined = undefined;

  constructor(
    readonly id: RequestId,
    readonly _meta: Record<string, unknown> | undefined,
    readonly signal: AbortSignal,
    private readonly server: Server,
  ) {}

  notify(notification: Notification, options?: object): Promise<void> {
    return this.server.notification(notification as never, { ...options, relatedRequestId: this.id });
  }

  log(level: Parameters<McpRequest['log']>[0], data: unknown, logger?: string): Promise<void> {
    this.sdkContext ??= (this.server as unknown as ContextBuilder).buildContext({ sessionId: undefined, mcpReq: this, http: undefined });
    return this.sdkContext.mcpReq.log(level, data, logger);
  }

  elicitInput(params: Parameters<McpRequest['elicitInput']>[0], options?: Parameters<McpRequest['elicitInput']>[1]): ReturnType<McpRequest['elicitInput']> {
    return this.server.elicitInput(params, options);
  }

  requestSampling(params: Parameters<McpRequest['requestSampling']>[0], options?: Parameters<McpRequest['requestSampling']>[1]): ReturnType<McpRequest['requestSampling']> {
    return this.server.createMessage(params as never, options);
  }
}

/** The context of fast-path call `id`, as `Server.buildContext` would give it (typed as the handler wants it). */
export function fastCallContext(server: Server, id: RequestId, meta: Record<string, unknown> | undefined, signal: CallSignal): ServerContext {
  const mcpReq = new FastCallRequestContext(id, meta, signal.asAbortSignal(), server);
  return { sessionId: undefined, mcpReq, http: undefined } as unknown as ServerContext;
}
