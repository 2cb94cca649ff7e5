/**
 * What a host sends on a link's connection, routed: notifications about the host and its
 * catalog become the link's events, and what concerns one call (its progress, its logs, a
 * question for the user or a model) goes to whoever owns that call, by callId.
 */
import type { EventEmitter } from 'node:events';
import { Bye, CallProgress, HostStateNotice, LogMessage, METHODS, TetherError, type RpcConnection } from '../protocol/index.js';
import { PerCall } from './per-call.js';

/** What the link hands to whoever owns a call: its progress, logs and questions. */
export interface CallListener {
  progress?(update: CallProgress): void;
  log?(message: LogMessage): void;
  elicit?(params: { message: string; requestedSchema: Record<string, unknown> }): Promise<unknown>;
  sample?(params: Record<string, unknown>): Promise<unknown>;
}

/** The host's notifications about itself and its catalog, as a link's events. */
export interface HostNotices {
  hostState: [notice: HostStateNotice];
  toolsChanged: [];
  resourcesChanged: [];
  promptsChanged: [];
  resourceUpdated: [uri: string];
}

/** Where what the host says about itself goes: its bye to the link, the rest out as events. */
export interface HostNoticeSink {
  bye(bye: Bye): void;
  events: Pick<EventEmitter<HostNotices>, 'emit'>;
}

/**
 * The owners of the calls in flight, by callId. A callId may have more than one: requests
 * with the same idempotency key share one call at the host, and each of them hears its
 * progress and logs (a client hearing none would think its call stalled and give up). A
 * question needs one answer, so it goes to the newest owner that can answer it.
 */
export class CallRoutes {
  private readonly owners = new PerCall<CallListener>();

  /** Routes a call's progress, logs and questions to this owner, until the returned function is called. */
  listen(callId: string, listener: CallListener): () => void {
    this.owners.add(callId, listener);
    return () => this.owners.remove(callId, listener);
  }

  progress(update: CallProgress): void {
    for (const owner of this.owners.get(update.callId)) owner.progress?.(update);
  }

  log(message: LogMessage): void {
    if (message.callId) for (const owner of this.owners.get(message.callId)) owner.log?.(message);
  }

  /** A host's question for a call's owner; NO_CLIENT when nobody waits on that call any more. */
  async ask(params: unknown, kind: 'elicit' | 'sample'): Promise<unknown> {
    const { callId, ...rest } = (params ?? {}) as { callId?: string } & Record<string, unknown>;
    const handler = callId ? this.owners.get(callId).findLast((owner) => owner[kind])?.[kind] : undefined;
    if (!handler) {
      throw new TetherError('NO_CLIENT', `No client is waiting on call "${callId ?? '?'}" to answer its ${kind === 'elicit' ? 'question' : 'sampling request'}.`);
    }
    return handler(rest as never);
  }
}

/** Installed before the handshake, so nothing the host says early is missed. */
export function routeHostMessages(rpc: RpcConnection, routes: CallRoutes, sink: HostNoticeSink): void {
  rpc.onRequest(METHODS.ping, () => ({}));
  rpc.onNotification(METHODS.bye, (params) => {
    const bye = Bye.safeParse(params);
    if (bye.success) sink.bye(bye.data);
  });
  rpc.onNotification(METHODS.hostState, (params) => {
    const notice = HostStateNotice.safeParse(params);
    if (notice.success) sink.events.emit('hostState', notice.data);
  });
  rpc.onNotification(METHODS.toolsChanged, () => sink.events.emit('toolsChanged'));
  rpc.onNotification(METHODS.resourcesChanged, () => sink.events.emit('resourcesChanged'));
  rpc.onNotification(METHODS.promptsChanged, () => sink.events.emit('promptsChanged'));
  rpc.onNotification(METHODS.resourceUpdated, (params) => {
    const uri = (params as { uri?: unknown } | undefined)?.uri;
    if (typeof uri === 'string') sink.events.emit('resourceUpdated', uri);
  });
  rpc.onNotification(METHODS.callProgress, (params) => {
    const update = CallProgress.safeParse(params);
    if (update.success) routes.progress(update.data);
  });
  rpc.onNotification(METHODS.log, (params) => {
    const message = LogMessage.safeParse(params);
    if (message.success) routes.log(message.data);
  });
  rpc.onRequest(METHODS.elicit, (params) => routes.ask(params, 'elicit'));
  rpc.onRequest(METHODS.sample, (params) => routes.ask(params, 'sample'));
}
