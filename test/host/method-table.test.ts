/**
 * The method table as the host serves it: a handler registered with RpcConnection.handle gets
 * its params validated (INVALID_PARAMS otherwise, the same error parseParams has always sent),
 * its registration comes back as a disposable, and requestMethod names the method once.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { METHOD_TABLE, RpcConnection, TetherError, createLinkedPair, parseParams, requestMethod, CallRef } from '../../src/protocol/index.js';

const cleanups: Array<() => void> = [];
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup();
});

function pair(): [RpcConnection, RpcConnection] {
  const [a, b] = createLinkedPair();
  const client = new RpcConnection(a).start();
  const server = new RpcConnection(b).start();
  cleanups.push(
    () => client.close(),
    () => server.close(),
  );
  return [client, server];
}

describe('RpcConnection.handle and requestMethod', () => {
  it('hands the handler validated params, defaults applied, and types the answer by the method', async () => {
    const [client, server] = pair();
    const seen: unknown[] = [];
    server.handle(METHOD_TABLE.promptsGet, (params) => {
      seen.push(params);
      return { messages: [{ role: 'user' as const, content: { type: 'text' as const, text: `hello ${params.name}` } }] };
    });
    const answer = await requestMethod(client, METHOD_TABLE.promptsGet, { name: 'greet' });
    expect(answer.messages[0]?.content).toEqual({ type: 'text', text: 'hello greet' });
    expect(seen).toEqual([{ name: 'greet', arguments: {} }]);
  });

  it('answers params that fail the schema with exactly the error parseParams throws, and never calls the handler', async () => {
    const [client, server] = pair();
    let calls = 0;
    server.handle(METHOD_TABLE.callStatus, () => (calls++, { callId: 'x', tool: 't', state: 'queued' as const, queuedAt: 0 }));
    const expected = (() => {
      try {
        parseParams(CallRef, {}, METHOD_TABLE.callStatus.method);
      } catch (error) {
        return (error as TetherError).toWire();
      }
      throw new Error('parseParams took params it should refuse');
    })();
    const refused = await client.request(METHOD_TABLE.callStatus.method, {}).catch((error: unknown) => error);
    expect((refused as TetherError).toWire()).toEqual(expected);
    expect(expected).toMatchObject({ code: -32602, data: { code: 'INVALID_PARAMS', method: 'calls/status', field: 'callId' } });
    expect(calls).toBe(0);
    expect(client.isOpen).toBe(true);
  });

  it('lets onInvalidParams answer instead (the handshake closes after its error)', async () => {
    const [client, server] = pair();
    server.handle(METHOD_TABLE.callStatus, () => ({ callId: 'x', tool: 't', state: 'queued' as const, queuedAt: 0 }), {
      onInvalidParams: (error) => {
        throw new TetherError('HANDSHAKE_REQUIRED', `refused: ${error.code}`);
      },
    });
    await expect(client.request(METHOD_TABLE.callStatus.method, { callId: '' })).rejects.toMatchObject({ code: 'HANDSHAKE_REQUIRED', message: 'refused: INVALID_PARAMS' });
  });

  it('returns a disposable registration that removes its own handler, never a newer one', async () => {
    const [client, server] = pair();
    const first = server.handle(METHOD_TABLE.ping, () => ({ from: 'first' }));
    await expect(requestMethod(client, METHOD_TABLE.ping, undefined)).resolves.toEqual({ from: 'first' });
    first.dispose();
    await expect(requestMethod(client, METHOD_TABLE.ping, undefined)).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND' });

    const second = server.handle(METHOD_TABLE.ping, () => ({ from: 'second' }));
    first.dispose(); // stale: the method is the second registration's now
    await expect(requestMethod(client, METHOD_TABLE.ping, undefined)).resolves.toEqual({ from: 'second' });
    second.dispose();
    second.dispose(); // idempotent
    await expect(requestMethod(client, METHOD_TABLE.ping, undefined)).rejects.toMatchObject({ code: 'METHOD_NOT_FOUND' });
  });
});
