/**
 * The handshake as a stranger meets it: what it can make a host hold before authenticating
 * (small frames only, a bounded number of connections waiting), and the proof handshake, in
 * which neither side sends the token (docs/protocol.md §6, §14).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { connect, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host, type HostOptions } from '../../src/host/index.js';
import { clientProof, newNonce } from '../../src/discovery/host-proof.js';
import { recordPath } from '../../src/discovery/host-record.js';
import { connectToHost } from '../../src/link/host-client.js';
import { FrameDecoder, HANDSHAKE_MAX_FRAME_BYTES, METHODS, PROTOCOL_VERSION, encodeFrame, frameBytes } from '../../src/protocol/index.js';

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
    const [message] = messagesOf(peer);
    expect(message?.id).toBeNull();
    expect(message?.error?.data).toMatchObject({ code: 'FRAME_TOO_LARGE', beforeHandshake: true, maxFrameBytes: HANDSHAKE_MAX_FRAME_BYTES, length: 1024 * 1024 });
    expect(message?.error?.message).toMatch(/Send tether\/hello first/);
  });

  it('accepts large frames once the peer has passed the handshake', async () => {
    const host = await startHost();
    const session = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => session.rpc.close());
    const text = 'y'.repeat(4 * HANDSHAKE_MAX_FRAME_BYTES);
    const outcome = await session.rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'big', tool: 'length', arguments: { text } });
    expect(outcome.result.content[0]?.text).toBe(String(text.length));
  });

  it('holds at most maxPendingHandshakes strangers: a new connection closes the oldest, so a client always gets in', async () => {
    // A handshake timeout far past the test's own: only the limit can close a stranger here.
    const host = await startHost({ maxPendingHandshakes: 2, handshakeTimeoutMs: 120_000 });
    const port = host.port as number;
    const oldest = await stranger(port);
    const next = await stranger(port);
    // Strangers holding every slot do not keep a client out: the oldest of them makes room.
    const session = await connectToHost({ port, token: host.token });
    cleanups.push(() => session.rpc.close());
    await oldest.closed;
    expect(next.socket.destroyed).toBe(false);
    // An authenticated connection does not count: the next stranger still fits beside `next`.
    const third = await stranger(port);
    const another = await connectToHost({ port, token: host.token });
    cleanups.push(() => another.rpc.close());
    await next.closed;
    expect(third.socket.destroyed).toBe(false);
  });
});

/**
 * Resolves once the host has closed the peer's connection. A host that keeps it open (it took a
 * hello it should have refused) fails the test within `ms`, saying what it answered instead.
 */
async function closedByHost(peer: Stranger, ms = 3_000): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const open = new Promise<'open'>((resolve) => (timer = setTimeout(() => resolve('open'), ms)));
  try {
    if ((await Promise.race([peer.closed, open])) === 'open') {
      expect.fail(`the host kept the connection open for ${ms} ms instead of closing it; it sent: ${JSON.stringify(messagesOf(peer))}`);
    }
  } finally {
    clearTimeout(timer);
  }
}

/** Decodes the frames a stranger received. */
function messagesOf(peer: Stranger): Array<{ id: unknown; result?: unknown; error?: { message: string; data: Record<string, unknown> } }> {
  return new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 1024 }).push(peer.received()).map((body) => JSON.parse(new TextDecoder().decode(body)));
}

describe('what a client says it reads', () => {
  it("is at least the handshake's 64 KiB (under it, not every error fits): less is refused, naming the field, and the host serves on", async () => {
    const host = await startHost();
    const peer = await stranger(host.port as number);
    const hello = { jsonrpc: '2.0' as const, id: 1, method: METHODS.hello, params: { token: host.token, protocolVersion: PROTOCOL_VERSION, client: { name: 'tiny' }, limits: { maxFrameBytes: 10 } } };
    peer.socket.write(frameBytes(encodeFrame(hello, HANDSHAKE_MAX_FRAME_BYTES)));
    await peer.closed;
    const [reply] = messagesOf(peer);
    expect(reply?.error?.data).toMatchObject({ code: 'INVALID_PARAMS', field: 'limits.maxFrameBytes' });
    expect(reply?.error?.message).toContain('at least 65536');
    const client = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => client.rpc.close());
    await expect(client.rpc.request(METHODS.ping)).resolves.toEqual({});
  });
});

describe('the proof handshake', () => {
  it("a client proves it knows the token without sending it and checks the host's proof; the same proof again is refused", async () => {
    const host = await startHost();
    const nonce = newNonce();
    const proof = { nonce, mac: clientProof(host.token, nonce) };
    const first = await stranger(host.port as number);
    first.socket.write(frameOf({ jsonrpc: '2.0', id: 1, method: 'tether/hello', params: { proof, protocolVersion: 1, client: { name: 'test' } } }));
    await expect.poll(() => messagesOf(first).length).toBe(1);
    expect(messagesOf(first)[0]?.result).toMatchObject({ proof: { mac: expect.any(String) } });

    // What a program that saw this hello (holding the port during a reload, say) could try.
    const replay = await stranger(host.port as number);
    replay.socket.write(frameOf({ jsonrpc: '2.0', id: 1, method: 'tether/hello', params: { proof, protocolVersion: 1, client: { name: 'replay' } } }));
    await closedByHost(replay);
    expect(messagesOf(replay)[0]?.error?.data).toMatchObject({ code: 'UNAUTHORIZED' });

    // The reference client always takes the proof path, and checks the answer.
    const session = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => session.rpc.close());
    expect(session.hello.proof?.mac).toEqual(expect.any(String));
  });

  it('refuses a proof made from another token with UNAUTHORIZED', async () => {
    const host = await startHost();
    await expect(connectToHost({ port: host.port as number, token: 'not-the-token' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
  });

  it('refuses the token itself, even the right one, without naming the token or the records folder', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    const host = await startHost({ recordsDir: join(home, 'hosts') });
    const peer = await stranger(host.port as number);
    peer.socket.write(frameOf({ jsonrpc: '2.0', id: 1, method: 'tether/hello', params: { token: host.token, protocolVersion: 1, client: { name: 'old-client' } } }));
    await peer.closed;
    const [reply] = messagesOf(peer);
    expect(reply?.error?.data).toMatchObject({ code: 'UNAUTHORIZED' });
    expect(reply?.error?.message).toContain('proof');
    expect(reply?.error?.message).not.toContain(host.token);
    expect(reply?.error?.message).not.toContain(home);
  });

  it('gives every listener its own token, and says in its record that clients prove themselves', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    const recordsDir = join(home, 'hosts');
    const first = await startHost({ recordsDir, instanceId: 'same-editor' });
    const record = JSON.parse(readFileSync(recordPath(recordsDir, 'same-editor'), 'utf8')) as { auth?: string; token: string };
    expect(record).toMatchObject({ auth: 'proof', token: first.token });
    await first.close({ reason: 'reload', expectedBackMs: 100 });
    // The same editor after a domain reload: a new listener, a new token, in the rewritten record.
    const second = await startHost({ recordsDir, instanceId: 'same-editor' });
    expect(second.token).not.toBe(first.token);
    expect(JSON.parse(readFileSync(recordPath(recordsDir, 'same-editor'), 'utf8'))).toMatchObject({ auth: 'proof', token: second.token });

    // A token given by the embedder is kept across listeners and is their proof key too: a proof
    // sent to one (or to whatever held the port) does not open the next.
    const token = 'a-token-kept-across-reloads-000000';
    const kept = await startHost({ recordsDir, instanceId: 'kept-token', token });
    expect(JSON.parse(readFileSync(recordPath(recordsDir, 'kept-token'), 'utf8'))).toMatchObject({ auth: 'proof', token });
    const nonce = newNonce();
    const proof = { nonce, mac: clientProof(token, nonce) };
    const seen = await stranger(kept.port as number);
    seen.socket.write(frameOf({ jsonrpc: '2.0', id: 1, method: 'tether/hello', params: { proof, protocolVersion: 1, client: { name: 'test' } } }));
    await expect.poll(() => messagesOf(seen).length).toBe(1);
    expect(messagesOf(seen)[0]?.result).toBeDefined();
    await kept.close({ reason: 'reload', expectedBackMs: 100 });
    const next = await startHost({ recordsDir, instanceId: 'kept-token', token });
    const replay = await stranger(next.port as number);
    replay.socket.write(frameOf({ jsonrpc: '2.0', id: 1, method: 'tether/hello', params: { proof, protocolVersion: 1, client: { name: 'replay' } } }));
    await closedByHost(replay);
    expect(messagesOf(replay)[0]?.error?.data).toMatchObject({ code: 'UNAUTHORIZED' });
  });
});

function frameOf(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message));
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]);
}
