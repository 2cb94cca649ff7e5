/**
 * The host served over in-memory byte streams (createLinkedStreams), with no TCP at all: the
 * same handshake, methods and at-most-once rules as over a socket, as the MCP SDK's tests run
 * over InMemoryTransport.createLinkedPair().
 */
import { existsSync, mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { clientProof, hostProof, newNonce } from '../../src/discovery/host-proof.js';
import { Host } from '../../src/host/index.js';
import {
  FramedTransport,
  METHODS,
  METHOD_TABLE,
  NOTIFICATION_TABLE,
  PROTOCOL_VERSION,
  RpcConnection,
  TetherError,
  createLinkedStreams,
  requestMethod,
  type Bye,
  type HelloResult,
} from '../../src/protocol/index.js';
import { deferred } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host that listens on no port: it serves only the streams handed to accept(). */
async function streamHost(configure: (host: Host) => void = () => undefined): Promise<{ host: Host; recordsDir: string }> {
  const home = mkdtempSync(join(tmpdir(), 'tether-linked-'));
  const recordsDir = join(home, 'hosts');
  const host = new Host({ kind: 'test', name: 'Linked', version: '1.0.0', projectPath: home, recordsDir, heartbeatMs: 100 });
  configure(host);
  expect(await host.start({ listen: false })).toEqual({ port: undefined });
  cleanups.push(() => host.close());
  return { host, recordsDir };
}

/** A client over one end of a linked pair, the host given the other end; not yet introduced. */
function openStream(host: Host, endpoint = 'memory:1'): RpcConnection {
  const [clientEnd, hostEnd] = createLinkedStreams();
  host.accept(hostEnd, endpoint);
  const rpc = new RpcConnection(new FramedTransport(clientEnd)).start();
  rpc.onRequest(METHODS.ping, () => ({}));
  cleanups.push(() => rpc.close());
  return rpc;
}

/** Opens a stream and completes the handshake with a proof of the host's token. */
async function connect(host: Host, name = 'linked-client'): Promise<{ rpc: RpcConnection; hello: HelloResult }> {
  const rpc = openStream(host);
  const nonce = newNonce();
  const hello = await requestMethod(rpc, METHOD_TABLE.hello, {
    proof: { nonce, mac: clientProof(host.token, nonce) },
    protocolVersion: PROTOCOL_VERSION,
    client: { name },
  });
  // The host knows the token too: it is the editor, not whatever holds the stream's other end.
  expect(hello.proof?.mac).toBe(hostProof(host.token, nonce));
  return { rpc, hello };
}

function closed(rpc: RpcConnection): Promise<TetherError | undefined> {
  return new Promise((resolve) => rpc.onClose(resolve));
}

describe('a host over an in-memory linked pair', () => {
  it('authenticates a stream as it does a socket: no port, no record, the proof checked both ways', async () => {
    const { host, recordsDir } = await streamHost();
    expect(host.port).toBeUndefined();
    const { rpc, hello } = await connect(host);
    expect(hello).toMatchObject({ protocolVersion: PROTOCOL_VERSION, host: { name: 'Linked' }, connectionId: 'c1', state: 'ready' });
    await expect(requestMethod(rpc, METHOD_TABLE.ping, undefined)).resolves.toEqual({});
    expect(host.connectionCount).toBe(1);
    expect(host.status().connections).toEqual([expect.objectContaining({ connectionId: 'c1', endpoint: 'memory:1', client: { name: 'linked-client' } })]);
    expect(existsSync(recordsDir)).toBe(false);
  });

  it('refuses anything before the handshake, and a hello without a proof, closing the stream', async () => {
    const { host } = await streamHost();
    const early = openStream(host);
    const earlyClosed = closed(early);
    await expect(requestMethod(early, METHOD_TABLE.toolsList, undefined)).rejects.toMatchObject({ code: 'HANDSHAKE_REQUIRED' });
    await earlyClosed;

    const tokenSender = openStream(host);
    const tokenClosed = closed(tokenSender);
    await expect(requestMethod(tokenSender, METHOD_TABLE.hello, { token: host.token, protocolVersion: PROTOCOL_VERSION, client: { name: 'old' } })).rejects.toMatchObject({
      code: 'UNAUTHORIZED',
    });
    await tokenClosed;
    expect(host.connectionCount).toBe(0);
  });

  it('runs a call and answers a repeat of its callId from the journal: the tool runs once', async () => {
    let runs = 0;
    const { host } = await streamHost((h) => h.tool({ name: 'build', description: 'Builds', input: z.object({ target: z.string() }), handler: ({ target }) => (runs++, `built ${target}`) }));
    const { rpc } = await connect(host);
    const first = await requestMethod(rpc, METHOD_TABLE.callStart, { callId: 'b-1', tool: 'build', arguments: { target: 'linux' } });
    expect(first).toMatchObject({ callId: 'b-1', replayed: false, result: { content: [{ type: 'text', text: 'built linux' }] } });
    const again = await requestMethod(rpc, METHOD_TABLE.callStart, { callId: 'b-1', tool: 'build', arguments: { target: 'linux' } });
    expect(again).toMatchObject({ callId: 'b-1', replayed: true, result: first.result });
    await expect(requestMethod(rpc, METHOD_TABLE.callStart, { callId: 'b-1', tool: 'build', arguments: { target: 'mac' } })).rejects.toMatchObject({
      code: 'CALL_ID_CONFLICT',
      data: { callId: 'b-1', tool: 'build' },
    });
    expect(runs).toBe(1);
    await expect(requestMethod(rpc, METHOD_TABLE.callStatus, { callId: 'b-1' })).resolves.toMatchObject({ state: 'completed', tool: 'build' });
  });

  it('attaches a repeat sent while the call runs, from another stream, to the one execution', async () => {
    let runs = 0;
    const started = deferred();
    const release = deferred();
    const { host } = await streamHost((h) =>
      h.tool({
        name: 'bake',
        description: 'Bakes lighting',
        handler: async () => {
          runs++;
          started.resolve();
          await release.promise;
          return 'baked';
        },
      }),
    );
    const a = await connect(host, 'agent-a');
    const b = await connect(host, 'agent-b');
    const progress: unknown[] = [];
    b.rpc.onNotification(METHODS.callProgress, (params) => void progress.push(NOTIFICATION_TABLE.callProgress.params.parse(params)));
    const first = requestMethod(a.rpc, METHOD_TABLE.callStart, { callId: 'bake-1', tool: 'bake' });
    await started.promise;
    const repeat = requestMethod(b.rpc, METHOD_TABLE.callStart, { callId: 'bake-1', tool: 'bake' });
    // The repeat is attached once the host says the call is running to it (a heartbeat within 100 ms).
    await expect.poll(() => progress.length).toBeGreaterThan(0);
    release.resolve();
    const [one, two] = await Promise.all([first, repeat]);
    expect(one).toMatchObject({ replayed: false, result: { content: [{ type: 'text', text: 'baked' }] } });
    expect(two).toMatchObject({ replayed: false, result: one.result });
    expect(runs).toBe(1);
    expect(progress[0]).toMatchObject({ callId: 'bake-1', state: 'running' });
  });

  it('answers params that fail their schema with INVALID_PARAMS naming the field, and stays open', async () => {
    const { host } = await streamHost();
    const { rpc } = await connect(host);
    const refused = await rpc.request(METHODS.callStatus, { callId: 42 }).catch((error: unknown) => error);
    expect(refused).toBeInstanceOf(TetherError);
    expect((refused as TetherError).toWire()).toEqual({
      code: -32602,
      message: 'Invalid params for "calls/status": callId: Invalid input: expected string, received number.',
      data: { code: 'INVALID_PARAMS', method: 'calls/status', field: 'callId', issues: [{ path: 'callId', message: 'Invalid input: expected string, received number' }] },
    });
    // A hello after the handshake is refused whatever it says, without closing.
    await expect(rpc.request(METHODS.hello, { nonsense: true })).rejects.toMatchObject({ code: 'INVALID_REQUEST', message: expect.stringContaining('already completed') });
    await expect(requestMethod(rpc, METHOD_TABLE.ping, undefined)).resolves.toEqual({});
  });

  it('says bye over the stream when it closes', async () => {
    const { host } = await streamHost();
    const { rpc } = await connect(host);
    const bye = deferred<Bye>();
    rpc.onNotification(METHODS.bye, (params) => bye.resolve(NOTIFICATION_TABLE.bye.params.parse(params)));
    const gone = closed(rpc);
    await host.close({ reason: 'reload', expectedBackMs: 2_000 });
    expect(await bye.promise).toMatchObject({ reason: 'reload', expectedBackMs: 2_000 });
    await gone;
  });

  it('takes no stream before its journal is loaded: a repeated callId could otherwise run again', () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-linked-'));
    const host = new Host({ kind: 'test', name: 'Unstarted', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
    const [, hostEnd] = createLinkedStreams();
    expect(() => host.accept(hostEnd)).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR', message: expect.stringContaining('Start the host') }));
  });
});
