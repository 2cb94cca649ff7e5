/**
 * The Node-to-Web adapter sends the head of an event stream at once, with what is ready of its
 * body: hono's adapter, left to itself, waits a timer tick before the head of a stream whose
 * first chunk is ready (the event store's priming event) and whose second is not, which cost
 * every SSE POST 1 ms; told the body is chunked, it writes the head and the event apart.
 */
import { createServer, request, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { webRequestListener } from '../../src/http/web-adapter.js';

let server: Server | undefined;
afterEach(() => {
  server?.closeAllConnections();
  server?.close();
});

const PRIMING = 'id: 1\nretry: 1000\ndata: \n\n';

/**
 * Serves a stream that sends one event and stays open. Says whether a timer ran before the
 * head went out, and how many writes the socket took until the client had the event.
 */
async function serveOpenStream(contentType: string): Promise<{ headBeforeTimerTick: boolean; writes: number }> {
  const listener = webRequestListener(
    () => new Response(new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode(PRIMING)) }), { headers: { 'content-type': contentType } }),
    () => new Response(null, { status: 500 }),
  );
  let headFirst: boolean | undefined;
  let writes = 0;
  server = createServer((req, res) => {
    const socket = req.socket as unknown as Record<'_write' | '_writev', (...args: unknown[]) => unknown>;
    for (const method of ['_write', '_writev'] as const) {
      const original = socket[method].bind(socket);
      socket[method] = (...args: unknown[]) => {
        writes++;
        return original(...args);
      };
    }
    let ticked = false;
    setTimeout(() => (ticked = true), 0);
    const writeHead = res.writeHead.bind(res) as (...args: unknown[]) => typeof res;
    res.writeHead = ((...args: unknown[]) => {
      headFirst ??= !ticked;
      return writeHead(...args);
    }) as typeof res.writeHead;
    void listener(req, res);
  });
  await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve, reject) => {
    request({ port, host: '127.0.0.1', method: 'POST' }, (res) => {
      let body = '';
      res.on('data', (chunk: Buffer) => {
        body += chunk.toString();
        if (body.includes(PRIMING)) resolve();
      });
    })
      .on('error', reject)
      .end('{}');
  });
  return { headBeforeTimerTick: headFirst as boolean, writes };
}

describe('webRequestListener', () => {
  it('writes the head of an event stream before any timer runs, in one write with the event that is ready', async () => {
    expect(await serveOpenStream('text/event-stream')).toEqual({ headBeforeTimerTick: true, writes: 1 });
  });

  it("leaves other bodies to hono's Content-Length probing (which waits a tick for an open stream)", async () => {
    expect((await serveOpenStream('application/octet-stream')).headBeforeTimerTick).toBe(false);
  });

  it('sends a stream that ends within the turn whole (Node 22 dropped what a corked response held at its end)', async () => {
    const result = 'event: message\ndata: {"result":{}}\n\n';
    const listener = webRequestListener(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => {
              controller.enqueue(new TextEncoder().encode(PRIMING));
              controller.enqueue(new TextEncoder().encode(result));
              controller.close();
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
      () => new Response(null, { status: 500 }),
    );
    server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const answer = await fetch(`http://127.0.0.1:${port}/`, { method: 'POST', body: '{}', signal: AbortSignal.timeout(5_000) });
    expect(await answer.text()).toBe(PRIMING + result);
  });

  it('sends what the stream produces later too: the cork holds only what was ready at once', async () => {
    let push!: (text: string) => void;
    const listener = webRequestListener(
      () =>
        new Response(
          new ReadableStream<Uint8Array>({
            start: (controller) => {
              controller.enqueue(new TextEncoder().encode(PRIMING));
              push = (text) => controller.enqueue(new TextEncoder().encode(text));
            },
          }),
          { headers: { 'content-type': 'text/event-stream' } },
        ),
      () => new Response(null, { status: 500 }),
    );
    server = createServer((req, res) => void listener(req, res));
    await new Promise<void>((resolve) => server!.listen(0, '127.0.0.1', resolve));
    const { port } = server.address() as AddressInfo;
    const result = 'event: message\ndata: {"result":{}}\n\n';
    const received = await new Promise<string>((resolve, reject) => {
      request({ port, host: '127.0.0.1', method: 'POST' }, (res) => {
        let body = '';
        res.on('data', (chunk: Buffer) => {
          body += chunk.toString();
          // The priming event arrived: only now does the "result" exist.
          if (body === PRIMING) push(result);
          if (body.endsWith(result)) resolve(body);
        });
      })
        .on('error', reject)
        .end('{}');
    });
    expect(received).toBe(PRIMING + result);
  });
});
