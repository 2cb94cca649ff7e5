/**
 * What a stranger can make a host hold before it has authenticated: small frames only, and a
 * bounded number of connections waiting to shake hands (docs/protocol.md §14, "Bounded input").
 */
import { mkdtempSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host, type HostOptions } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { FrameDecoder, HANDSHAKE_MAX_FRAME_BYTES, METHODS } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(options: Partial<HostOptions> = {}): Promise<Host> {
  const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), ...options });
  host.tool({ name: 'length', description: 'Counts characters', input: z.object({ text: z.string() }), annotations: { readOnlyHint: true }, handler: ({ text }) => String(text.length) });
  await host.start();
  cleanups.push(() => host.close());
  return host;
}

/** A raw TCP peer that never says hello: what it received, and when the host closed it. */
interface Stranger {
  socket: Socket;
  received: () => Buffer;
  closed: Promise<void>;
}

async function stranger(port: number): Promise<Stranger> {
  const socket = connect({ port, host: '127.0.0.1' });
  cleanups.push(() => void socket.destroy());
  const chunks: Buffer[] = [];
  socket.on('data', (chunk: Buffer) => chunks.push(chunk));
  socket.on('error', () => undefined);
  const closed = new Promise<void>((resolve) => socket.once('close', () => resolve()));
  await new Promise<void>((resolve, reject) => {
    socket.once('connect', resolve);
    socket.once('error', reject);
  });
  return { socket, received: () => Buffer.concat(chunks), closed };
}

describe('before the handshake', () => {
  it('refuses a frame larger than the handshake limit at its header, with a typed error, and closes', async () => {
    const host = await startHost();
    const peer = await stranger(host.port as number);
    // Announce 1 MiB and send a little of it: nothing past the header is needed to refuse it.
    peer.socket.write(`Content-Length: ${1024 * 1024}\r\n\r\n${'x'.repeat(1000)}`);
    await peer.closed;
    const [body] = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 1024 }).push(peer.received());
    const message = JSON.parse(new TextDecoder().decode(body)) as { id: null; error: { message: string; data: Record<string, unknown> } };
    expect(message.id).toBeNull();
    expect(message.error.data).toMatchObject({ code: 'FRAME_TOO_LARGE', beforeHandshake: true, maxFrameBytes: HANDSHAKE_MAX_FRAME_BYTES, length: 1024 * 1024 });
    expect(message.error.message).toMatch(/Send tether\/hello first/);
  });

  it('accepts large frames once the peer has passed the handshake', async () => {
    const host = await startHost();
    const session = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => session.rpc.close());
    const text = 'y'.repeat(4 * HANDSHAKE_MAX_FRAME_BYTES);
    const outcome = await session.rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'big', tool: 'length', arguments: { text } });
    expect(outcome.result.content[0]?.text).toBe(String(text.length));
  });

  it('holds at most maxPendingHandshakes strangers at once and refuses the next, until one leaves', async () => {
    // A handshake timeout far past the test's own: only the refusal can close the third one.
    const host = await startHost({ maxPendingHandshakes: 2, handshakeTimeoutMs: 120_000 });
    const port = host.port as number;
    const first = await stranger(port);
    await stranger(port);
    const refused = await stranger(port);
    await refused.closed;
    expect(refused.received().length).toBe(0);

    first.socket.destroy();
    await first.closed;
    // The host sees the close on its next turn: a client connecting now may still race it.
    await expect.poll(async () => {
      try {
        const session = await connectToHost({ port, token: host.token, timeoutMs: 1_000 });
        session.rpc.close();
        return true;
      } catch {
        return false;
      }
    }).toBe(true);
  });
});
