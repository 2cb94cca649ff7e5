/**
 * The JSON-RPC requests of one HTTP session that its server has not answered yet, watched on
 * the transport both ways: a request from the client is unanswered until the server sends its
 * response, or until the client cancels it (the SDK then sends none).
 *
 * This outlives the HTTP exchange on purpose. When a client's SSE stream drops, its request
 * runs on and the answer goes to the event store for the client to resume with
 * Last-Event-ID; ending the session then (evicted to make room, reaped as idle) would close
 * its server, abort the request and cancel the call at the editor. So while any request is
 * unanswered the session holds one registry pin, and gives it back with the last answer.
 */
import type { JSONRPCMessage, RequestId, WebStandardStreamableHTTPServerTransport } from '@modelcontextprotocol/server';

export class UnansweredRequests {
  /**
   * How many requests are unanswered under each id: a client that breaks the rule that ids be
   * unique among its requests in flight (re-sending one whose stream dropped, say) has two, and
   * the first answer must not give the pin back while the second runs.
   */
  private readonly ids = new Map<RequestId, number>();
  private unpin: (() => void) | undefined;

  /** `pin` pins the session in its registry and returns the release. */
  constructor(private readonly pin: () => () => void) {}

  get size(): number {
    let size = 0;
    for (const count of this.ids.values()) size += count;
    return size;
  }

  /** Starts watching a (new) transport; what an earlier one had open is forgotten. */
  watch(transport: WebStandardStreamableHTTPServerTransport): void {
    this.clear();
    const deliver = transport.onmessage;
    transport.onmessage = (message, extra) => {
      if ('method' in message) {
        if ('id' in message) this.asked(message.id);
        else if (message.method === 'notifications/cancelled') {
          const cancelled = (message.params as { requestId?: RequestId } | undefined)?.requestId;
          if (cancelled !== undefined) this.answered(cancelled);
        }
      }
      deliver?.(message, extra);
    };
    const send = transport.send.bind(transport);
    transport.send = (message: JSONRPCMessage, options) => {
      if (!('method' in message) && 'id' in message && message.id !== null && message.id !== undefined) this.answered(message.id);
      return send(message, options);
    };
  }

  /** Forgets every request and gives the pin back (the server closed: nothing is left to answer). */
  clear(): void {
    this.ids.clear();
    this.unpin?.();
    this.unpin = undefined;
  }

  private asked(id: RequestId): void {
    this.ids.set(id, (this.ids.get(id) ?? 0) + 1);
    this.unpin ??= this.pin();
  }

  private answered(id: RequestId): void {
    const count = this.ids.get(id);
    if (count === undefined) return;
    if (count > 1) this.ids.set(id, count - 1);
    else this.ids.delete(id);
    if (this.ids.size === 0) this.clear();
  }
}
