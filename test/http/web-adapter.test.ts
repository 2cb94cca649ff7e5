/**
 * The Node-to-Web adapter sends the head of an event stream at once: hono's adapter, left to
 * itself, waits a timer tick before the head of a stream whose first chunk is ready (the
 * event store's priming event) and whose second is not, which cost every SSE POST 1 ms.
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

/** Serves a stream that sends one event and stays open; says whether a timer ran before the head went out. */
async function headBeforeTimerTick(contentType: string): Promise<boolean> {
  const listener = webRequestListener(
    () =>
      new Response(
        new ReadableStream<Uint8Array>({ start: (controller) => controller.enqueue(new TextEncoder().encode('id: 1\nretry: 1000\ndata: \n\n')) }),
        { headers: { 'content-type': contentType } },
      ),
    () => new Response(null, { status: 500 }),
  );
  let headFirst: boolean | undefined;
  server = createServer((req, res) => {
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
      res.once('data', () => resolve());
    })
      .on('error', reject)
      .end('{}');
  });
  return headFirst as boolean;
}

describe('webRequestListener', () => {
  it('writes the head of an event stream before any timer runs', async () => {
    expect(await headBeforeTimerTick('text/event-stream')).toBe(true);
  });

  it("leaves other bodies to hono's Content-Length probing (which waits a tick for an open stream)", async () => {
    expect(await headBeforeTimerTick('application/octet-stream')).toBe(false);
  });
});
