/**
 * The methods an authenticated connection serves, each registered through the method table
 * (its params validated and typed there): calls, tools, resources, prompts, completion, ping
 * and host/status, all answered from what the network side holds, so they are answered while
 * the main thread is blocked.
 */
import { METHODS, METHOD_TABLE, TetherError, type Registration, type RpcConnection } from '../protocol/index.js';
import type { CallObserver } from './call-observer.js';
import { helloRepeated } from './handshake.js';
import type { HostCore } from './host-core.js';

/** Resources one connection may follow at once: each is kept until unsubscribed, so the count is bounded. */
export const MAX_SUBSCRIPTIONS = 1_024;

/** The connection being served: it observes the calls it starts, and follows resources. */
export interface ServedConnection extends CallObserver {
  readonly rpc: RpcConnection;
  readonly subscriptions: Set<string>;
}

export function serveHostMethods(connection: ServedConnection, core: HostCore): Registration[] {
  const { rpc, subscriptions } = connection;
  const { calls, catalog } = core;
  // Whatever it says, a second hello is refused, without closing (its params are not read).
  rpc.onRequest(METHODS.hello, () => {
    throw helloRepeated();
  });
  rpc.onOtherRequest(undefined).onOtherNotification(undefined);
  return [
    rpc.handle(METHOD_TABLE.ping, () => ({})),
    rpc.handle(METHOD_TABLE.hostStatus, () => core.status()),
    rpc.handle(METHOD_TABLE.toolsList, () => ({ tools: core.toolDescriptors() })),
    rpc.handle(METHOD_TABLE.callStart, (params, context) => calls.start(params, connection, context.abandoned)),
    rpc.handle(METHOD_TABLE.callStatus, ({ callId }) => calls.status(callId)),
    rpc.handle(METHOD_TABLE.callCancel, ({ callId, reason }) => calls.cancel(callId, reason)),
    rpc.handle(METHOD_TABLE.resourcesList, () => ({ resources: catalog.listResources() })),
    rpc.handle(METHOD_TABLE.resourceTemplatesList, () => ({ resourceTemplates: catalog.listTemplates() })),
    rpc.handle(METHOD_TABLE.resourcesRead, async ({ uri }) => ({ contents: await catalog.read(uri) })),
    rpc.handle(METHOD_TABLE.resourcesSubscribe, ({ uri }) => {
      if (!subscriptions.has(uri) && subscriptions.size >= MAX_SUBSCRIPTIONS) {
        throw new TetherError('INVALID_PARAMS', `This connection already follows ${MAX_SUBSCRIPTIONS} resources, the most one may; unsubscribe from some first.`, {
          field: 'uri',
          limit: MAX_SUBSCRIPTIONS,
        });
      }
      subscriptions.add(uri);
      return {};
    }),
    rpc.handle(METHOD_TABLE.resourcesUnsubscribe, ({ uri }) => {
      subscriptions.delete(uri);
      return {};
    }),
    rpc.handle(METHOD_TABLE.promptsList, () => ({ prompts: catalog.listPrompts() })),
    rpc.handle(METHOD_TABLE.promptsGet, ({ name, arguments: args }) => catalog.getPrompt(name, args)),
    rpc.handle(METHOD_TABLE.complete, (params) => catalog.complete(params)),
  ];
}
