/**
 * The TCP adapter's backpressure on a real socket pair: a server stops reading from a peer that
 * does not read what it was sent, until it has (or unread answers would pile up in memory);
 * a client always reads (were both to wait, a large message each way would stop both).
 */
import { once } from 'node:events';
import { createServer, connect, type Server, type Socket } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { MAX_UNREAD_OUTPUT_BYTES, SocketByteStream } from '../../src/net/socket-stream.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0).reverse()) cleanup();
});

/** A connected pair: the server's end, and a peer that reads nothing until told to. */
async function pair(): Promise<{ served: Socket; peer: Socket }> {
  const server: Server = createServer();
  server.listen(0, '127.0.0.1');
  await once(server, 'listening');
  const peer = connect((server.address() as { port: number }).port, '127.0.0.1');
  peer.pause();
  const [served] = (await once(server, 'connection')) as [Socket];
  cleanups.push(
    () => server.close(),
    () => peer.destroy(),
    () => served.destroy(),
  );
  return { served, peer };
}

/** More than the kernel's buffers on both ends take, so that most of it waits in the process. */
const FLOOD = 'x'.repeat(32 * 1024 * 1024);

describe('SocketByteStream', () => {
  it("on a server's side, reads nothing more from a peer that leaves what it was sent unread, until it has read it", async () => {
    const { served, peer } = await pair();
    const stream = new SocketByteStream(served, { readOnlyWhatPeerReads: true });
    stream.start({ data: () => undefined, close: () => undefined });
    stream.write(FLOOD);
    expect(served.writableLength).toBeGreaterThan(MAX_UNREAD_OUTPUT_BYTES);
    expect(served.isPaused()).toBe(true);
    peer.resume(); // the peer reads at last
    await once(served, 'drain');
    expect(served.isPaused()).toBe(false);
  });

  it("on a client's side, keeps reading whatever it has left to send", async () => {
    const { served } = await pair();
    const stream = new SocketByteStream(served);
    stream.start({ data: () => undefined, close: () => undefined });
    stream.write(FLOOD);
    expect(served.writableLength).toBeGreaterThan(MAX_UNREAD_OUTPUT_BYTES);
    expect(served.isPaused()).toBe(false);
  });
});
