/**
 * Node's request and response to the Web Request and Response the SDK's transport speaks, and
 * back: hono's adapter (the one the SDK's Node package uses), with one correction for
 * server-sent events.
 */
import type { IncomingMessage, ServerResponse } from 'node:http';
import { getRequestListener, type HttpBindings } from '@hono/node-server';

export type WebHandler = (request: Request, incoming: IncomingMessage) => Response | Promise<Response>;

export function webRequestListener(handler: WebHandler, onError: (error: unknown) => Response): (req: IncomingMessage, res: ServerResponse) => Promise<void> {
  return getRequestListener(
    async (request, env) => {
      const { incoming, outgoing } = env as HttpBindings;
      return sentAsStream(await handler(request, incoming), incoming, outgoing);
    },
    { overrideGlobalObjects: false, errorHandler: onError },
  );
}

/**
 * hono reads the first chunks of a body before it writes the head, so that a body that is
 * already complete gets a Content-Length; when the second read is not ready it waits a timer
 * tick (1 ms or more) and tries once more. A session's SSE stream opens with the event store's
 * priming event and then waits for the call, so every tools/call over POST paid that tick
 * (the head and the result went out together, 1 ms late). An event stream is rarely complete
 * at once: saying it is chunked, which it is anyway, sends the head without the wait.
 * HTTP/1.0 has no chunked encoding; its clients keep hono's way.
 *
 * hono then flushes the head on its own and writes each chunk as it comes: the head and the
 * priming event, both ready now, would leave in two writes (two wake-ups of the client, one
 * more syscall per call). The connection is corked until this turn of the event loop ends, so
 * what is ready now leaves in one write (the SDK's transport enqueues the priming event as it
 * builds the stream); what comes later (the result) is not held.
 *
 * The connection, not the response: from Node 22, a corked response keeps the chunks written
 * to it in a buffer of its own, and its end() sends the last (empty) chunk before that buffer,
 * so a stream that ends within the turn (an initialize or a tools/list, answered at once)
 * reached the client as an empty body. The socket keeps its writes in order, and end()
 * uncorks it fully (Node 20's response.cork() corks the socket too).
 *
 * The headers are changed in place: the SDK's transport builds its Responses with mutable
 * headers (a Response from fetch() or Response.redirect() would refuse).
 */
function sentAsStream(response: Response, incoming: IncomingMessage, outgoing: ServerResponse): Response {
  if (incoming.httpVersion !== '1.0' && response.body && response.headers.get('content-type')?.startsWith('text/event-stream')) {
    response.headers.set('transfer-encoding', 'chunked');
    const socket = outgoing.socket;
    if (socket) {
      socket.cork();
      // An ended response uncorked its socket already, which may carry the next response by now.
      setImmediate(() => {
        if (!outgoing.writableEnded) socket.uncork();
      });
    }
  }
  return response;
}
