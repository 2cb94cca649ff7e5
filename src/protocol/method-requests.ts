/**
 * Requests and notifications typed by the method table: the method named once, its params
 * checked by the compiler, its answer typed, with no cast at the call site.
 */
import type { RequestOptions, RpcConnection } from './connection.js';
import type { MethodArgs, MethodResult, MethodSpec, NotificationParams, NotificationSpec } from './method-table.js';

/**
 * Sends a request of the method table; the answer is typed by the method. It is not validated
 * (a relay keeps a host's answer as it came, lifted strings and all): where a peer's answer
 * must be held to the protocol, `spec.result.parse(answer)` checks it whole.
 */
export function requestMethod<S extends MethodSpec>(rpc: RpcConnection, spec: S, params: MethodArgs<S>, options?: RequestOptions): Promise<MethodResult<S>> {
  return rpc.request<MethodResult<S>>(spec.method, params, options);
}

/** Sends a notification of the notification table; false when nothing was sent (see RpcConnection.notify). */
export function notifyMethod<S extends NotificationSpec>(rpc: RpcConnection, spec: S, params: NotificationParams<S>): boolean {
  return rpc.notify(spec.method, params);
}
