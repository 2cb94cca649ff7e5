import { afterEach, describe, expect, it, vi } from 'vitest';
import { CANCEL_REQUEST, RpcConnection, type RequestContext } from '../../src/protocol/connection.js';
import { TetherError, type ErrorCode } from '../../src/protocol/errors.js';
import { FrameDecoder, concat } from '../../src/protocol/frame-decoder.js';
import { encodeFrame } from '../../src/protocol/frame-encoder.js';
import type { FrameLimits } from '../../src/protocol/limits.js';
import { FramedTransport, createLinkedPair, createLinkedStreams } from '../../src/protocol/transport.js';
import { liftedStringsOf } from '../../src/protocol/lifted-strings.js';
import { METHOD_TABLE } from '../../src/protocol/method-table.js';
import { METHODS } from '../../src/protocol/methods.js';
import { createLongStringLifter } from '../../src/link/long-string-lifter.js';
import { nextTurn } from '../helpers/wait-for-event.js';

const open: RpcConnection[] = [];

function pair(limits: Partial<FrameLimits> = {}): [RpcConnection, RpcConnection] {
  const [ta, tb] = createLinkedPair(limits);
  const a = new RpcConnection(ta).start();
  const b = new RpcConnection(tb).start();
  open.push(a, b);
  return [a, b];
}

afterEach(() => {
  for (const connection of open.splice(0)) connection.close();
});

async function rejection(promise: Promise<unknown>): Promise<TetherError> {
  try {
    await promise;
  } catch (error) {
    expect(error).toBeInstanceOf(TetherError);
    return error as TetherError;
  }
  throw new Error('expected the promise to reject');
}

async function expectCode(promise: Promise<unknown>, code: ErrorCode): Promise<TetherError> {
  const error = await rejection(promise);
  expect(error.code).toBe(code);
  return error;
}

/** Resolves with the abort reason once `signal` aborts. */
function aborted(signal: AbortSignal): Promise<unknown> {
  if (signal.aborted) return Promise.resolve(signal.reason);
  return new Promise((resolve) => signal.addEventListener('abort', () => resolve(signal.reason), { once: true }));
}

/** A handler that never answers on its own; it hands its context out and settles when aborted. */
function hangingHandler(): { handler: (params: unknown, context: RequestContext) => Promise<unknown>; context: Promise<RequestContext> } {
  let deliver!: (context: RequestContext) => void;
  const context = new Promise<RequestContext>((resolve) => (deliver = resolve));
  return {
    context,
    handler: (_params, ctx) => {
      deliver(ctx);
      return new Promise((resolve) => ctx.signal.addEventListener('abort', () => resolve({ late: true }), { once: true }));
    },
  };
}

describe('RpcConnection: requests and notifications', () => {
  it('answers a request with the handler result and passes params and context', async () => {
    const [a, b] = pair();
    const seen: Array<{ params: unknown; id: unknown; method: string; same: boolean }> = [];
    b.onRequest('add', (params, context) => {
      seen.push({ params, id: context.id, method: context.method, same: context.connection === b });
      const { x, y } = params as { x: number; y: number };
      return { sum: x + y };
    });
    await expect(a.request('add', { x: 2, y: 3 })).resolves.toEqual({ sum: 5 });
    expect(seen).toEqual([{ params: { x: 2, y: 3 }, id: 1, method: 'add', same: true }]);
  });

  it('supports async handlers, concurrent requests and requests in both directions', async () => {
    const [a, b] = pair();
    b.onRequest('echo', async (params) => {
      await new Promise((resolve) => setTimeout(resolve, (params as { delay: number }).delay));
      return params;
    });
    a.onRequest('whoami', () => 'a');
    const slow = a.request('echo', { delay: 20, n: 1 });
    const fast = a.request('echo', { delay: 0, n: 2 });
    await expect(fast).resolves.toEqual({ delay: 0, n: 2 });
    await expect(slow).resolves.toEqual({ delay: 20, n: 1 });
    await expect(b.request('whoami')).resolves.toBe('a');
  });

  it('sends an empty object for a handler that returns nothing', async () => {
    const [a, b] = pair();
    b.onRequest('void', () => undefined);
    await expect(a.request('void')).resolves.toEqual({});
  });

  it('delivers notifications to their handler, and notify() returns true while open', async () => {
    const [a, b] = pair();
    const received: unknown[] = [];
    const got = new Promise<void>((resolve) =>
      b.onNotification('notifications/thing', (params, connection) => {
        received.push(params);
        expect(connection).toBe(b);
        if (received.length === 2) resolve();
      }),
    );
    expect(a.notify('notifications/thing', { n: 1 })).toBe(true);
    expect(a.notify('notifications/thing', { n: 2 })).toBe(true);
    await got;
    expect(received).toEqual([{ n: 1 }, { n: 2 }]);
  });

  it('routes unclaimed requests and notifications to the fallbacks', async () => {
    const [a, b] = pair();
    const notes: unknown[] = [];
    b.onOtherRequest((params, context) => ({ method: context.method, params }));
    b.onOtherNotification((params) => notes.push(params));
    await expect(a.request('any/thing', { q: 1 })).resolves.toEqual({ method: 'any/thing', params: { q: 1 } });
    a.notify('any/note', { z: 1 });
    await vi.waitFor(() => expect(notes).toEqual([{ z: 1 }]));
  });

  it('ignores an unclaimed notification and survives a throwing notification handler', async () => {
    const [a, b] = pair();
    b.onNotification('boom', () => {
      throw new Error('handler bug');
    });
    b.onRequest('ping', () => 'pong');
    a.notify('nobody/listens', {});
    a.notify('boom', {});
    await expect(a.request('ping')).resolves.toBe('pong');
    expect(b.isOpen).toBe(true);
  });
});

describe('RpcConnection: errors', () => {
  it('answers an unknown method with METHOD_NOT_FOUND', async () => {
    const [a] = pair();
    const error = await expectCode(a.request('no/such/method', {}), 'METHOD_NOT_FOUND');
    expect(error.rpcCode).toBe(-32601);
    expect(error.data).toEqual({ method: 'no/such/method' });
    expect(error.message).toContain('no/such/method');
  });

  it('carries a TetherError thrown by a handler to the caller with the same code, message and data', async () => {
    const [a, b] = pair();
    b.onRequest('sync', () => {
      throw new TetherError('UNKNOWN_TOOL', 'No tool "x".', { tool: 'x' });
    });
    b.onRequest('async', async () => {
      throw new TetherError('DUPLICATE_CALL', 'Busy compiling.', { retryAfterMs: 500 });
    });
    const syncError = await expectCode(a.request('sync'), 'UNKNOWN_TOOL');
    expect(syncError.message).toBe('No tool "x".');
    expect(syncError.data).toEqual({ tool: 'x' });
    const asyncError = await expectCode(a.request('async'), 'DUPLICATE_CALL');
    expect(asyncError.data).toEqual({ retryAfterMs: 500 });
  });

  it('turns a plain Error (thrown or rejected) into INTERNAL_ERROR with its message', async () => {
    const [a, b] = pair();
    b.onRequest('throws', () => {
      throw new Error('kaput');
    });
    b.onRequest('rejects', () => Promise.reject(new RangeError('out of range')));
    const thrown = await expectCode(a.request('throws'), 'INTERNAL_ERROR');
    expect(thrown.message).toBe('kaput');
    const rejected = await expectCode(a.request('rejects'), 'INTERNAL_ERROR');
    expect(rejected.message).toBe('out of range');
  });

  it('answers with FRAME_TOO_LARGE instead of a result too large for the frame limit, and keeps serving', async () => {
    const [a, b] = pair({ maxFrameBytes: 2048 });
    b.onRequest('huge', () => ({ blob: 'x'.repeat(5000) }));
    b.onRequest('small', () => ({ ok: true }));
    const error = await expectCode(a.request('huge'), 'FRAME_TOO_LARGE');
    // It was the answer that could not travel: the request itself was handled (a call ran).
    expect(error.data).toMatchObject({ maxFrameBytes: 2048, method: 'huge', handled: true });
    expect(error.message).toMatch(/The request itself was handled/);
    await expect(a.request('small')).resolves.toEqual({ ok: true });
    expect(a.isOpen && b.isOpen).toBe(true);
  });

  it('answers with an error instead of a result that cannot be serialized, saying the request was handled', async () => {
    const [a, b] = pair();
    b.onRequest('bigint', () => ({ n: 10n }));
    const error = await expectCode(a.request('bigint'), 'INTERNAL_ERROR');
    expect(error.data).toMatchObject({ method: 'bigint', handled: true, reason: expect.stringContaining('BigInt') });
    expect(error.message).toMatch(/cannot be encoded as JSON .*The request itself was handled/);
  });

  it('answers calls/start whose answer its own writer cannot encode with an error, async or not; never throws out of the connection', async () => {
    const unhandled: unknown[] = [];
    const onUnhandled = (reason: unknown): void => void unhandled.push(reason);
    process.on('unhandledRejection', onUnhandled);
    try {
      const [a, b] = pair();
      // What a host answers for a tool whose structuredContent holds a BigInt: the hand writer of
      // calls/start answers (callStartResultJson) is the one serialization, and it throws.
      const answer = (callId: string) => ({ callId, result: { content: [{ type: 'text', text: 'ok' }], structuredContent: { total: 1n } }, replayed: false, startedAt: 1, finishedAt: 2 });
      b.handle(METHOD_TABLE.callStart, ({ callId }) => (callId === 'async' ? Promise.resolve(answer(callId)) : answer(callId)) as never);
      for (const callId of ['async', 'sync']) {
        // Unanswered before the fix: the writer's throw went nowhere (a rejection no one handles).
        const error = await expectCode(a.request(METHODS.callStart, { callId, tool: 't' }, { timeoutMs: 5_000 }), 'INTERNAL_ERROR');
        expect(error.data).toMatchObject({ method: METHODS.callStart, handled: true, reason: expect.stringContaining('BigInt') });
        expect(error.message).toContain("a call's tool has run, and its effects have happened");
      }
      // Still serving.
      b.onRequest('ok', () => ({ ok: true }));
      await expect(a.request('ok')).resolves.toEqual({ ok: true });
      await nextTurn();
      expect(unhandled).toEqual([]);
      expect(a.isOpen && b.isOpen).toBe(true);
    } finally {
      process.off('unhandledRejection', onUnhandled);
    }
  });

  it('rejects a request whose params are too large to send, without closing', async () => {
    const [a, b] = pair({ maxFrameBytes: 2048 });
    let calls = 0;
    b.onRequest('take', () => ++calls);
    await expectCode(a.request('take', { blob: 'x'.repeat(5000) }), 'FRAME_TOO_LARGE');
    await expect(a.request('take', {})).resolves.toBe(1);
  });

  it('answers a malformed frame: INVALID_REQUEST to the recovered id, PARSE_ERROR to id null', async () => {
    const [raw, served] = createLinkedStreams();
    const connection = new RpcConnection(new FramedTransport(served)).start();
    open.push(connection);
    const received: Uint8Array[] = [];
    raw.start({ data: (chunk) => received.push(chunk), close: () => undefined });
    const enc = new TextEncoder();
    const rawFrame = (text: string) => concat([enc.encode(`Content-Length: ${enc.encode(text).length}\r\n\r\n`), enc.encode(text)]);
    raw.write([rawFrame('{"id":41,"method":"ping"}'), rawFrame('{not json')]);
    const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 1024 });
    const replies: Array<Record<string, unknown>> = [];
    await vi.waitFor(() => {
      for (const body of decoder.push(concat(received.splice(0)))) replies.push(JSON.parse(new TextDecoder().decode(body)));
      expect(replies).toHaveLength(2);
    });
    expect(replies).toEqual([
      { jsonrpc: '2.0', id: 41, error: expect.objectContaining({ code: -32600, data: { code: 'INVALID_REQUEST' } }) },
      { jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32700, data: { code: 'PARSE_ERROR' } }) },
    ]);
    expect(connection.isOpen).toBe(true);
  });
});

describe('RpcConnection: timeouts and cancellation', () => {
  it('rejects with REQUEST_TIMEOUT after timeoutMs and cancels the peer handler via notifications/cancelled', async () => {
    const [a, b] = pair();
    const hanging = hangingHandler();
    b.onRequest('slow', hanging.handler);
    const started = Date.now();
    const error = await expectCode(a.request('slow', {}, { timeoutMs: 30 }), 'REQUEST_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(25);
    expect(error.data).toEqual({ method: 'slow', timeoutMs: 30 });
    const context = await hanging.context;
    const reason = await aborted(context.signal);
    expect(reason).toBeInstanceOf(TetherError);
    expect((reason as TetherError).code).toBe('CANCELLED');
    // The late answer of the cancelled handler is ignored and the connection keeps working.
    b.onRequest('ping', () => 'pong');
    await expect(a.request('ping')).resolves.toBe('pong');
  });

  it('sends notifications/cancelled naming the abandoned request id', async () => {
    const [a, b] = pair();
    const hanging = hangingHandler();
    b.onRequest('slow', hanging.handler);
    const request = a.request('slow', {}, { timeoutMs: 10 });
    const context = await hanging.context;
    await expectCode(request, 'REQUEST_TIMEOUT');
    await aborted(context.signal);
    // Replace the built-in cancel handler to observe the wire notification itself.
    const seen: unknown[] = [];
    b.onNotification(CANCEL_REQUEST, (params) => seen.push(params));
    const again = a.request('slow', {}, { timeoutMs: 10 });
    await expectCode(again, 'REQUEST_TIMEOUT');
    await vi.waitFor(() => expect(seen).toHaveLength(1));
    expect(seen[0]).toMatchObject({ requestId: 2, reason: expect.any(String) });
    expect(context.id).toBe(1);
  });

  it('does not time out a request that is answered in time, and clears its timer', async () => {
    const [a, b] = pair();
    b.onRequest('quick', () => 'done');
    await expect(a.request('quick', {}, { timeoutMs: 1000 })).resolves.toBe('done');
  });

  it('rejects with CANCELLED when the caller aborts, and the peer handler signal fires', async () => {
    const [a, b] = pair();
    const hanging = hangingHandler();
    b.onRequest('slow', hanging.handler);
    const controller = new AbortController();
    const request = a.request('slow', {}, { signal: controller.signal });
    const context = await hanging.context;
    expect(context.signal.aborted).toBe(false);
    controller.abort();
    await expectCode(request, 'CANCELLED');
    expect(((await aborted(context.signal)) as TetherError).code).toBe('CANCELLED');
  });

  it('tells a handler that never built its signal, through context.abandoned, and a signal read later is already aborted', async () => {
    const [a, b] = pair();
    let context!: RequestContext;
    const heard: TetherError[] = [];
    const abandoned = new Promise<void>((resolve) =>
      b.onRequest('slow', (_params, ctx) => {
        context = ctx;
        ctx.abandoned.onAbort((reason) => {
          heard.push(reason);
          resolve();
        });
        return new Promise(() => undefined);
      }),
    );
    const controller = new AbortController();
    const request = a.request('slow', {}, { signal: controller.signal });
    await vi.waitFor(() => expect(context).toBeDefined());
    controller.abort();
    await expectCode(request, 'CANCELLED');
    await abandoned;
    expect(heard.map((reason) => reason.code)).toEqual(['CANCELLED']);
    expect(context.abandoned.reason).toBe(heard[0]);
    expect(context.signal.aborted).toBe(true);
    expect(context.signal.reason).toBe(heard[0]);
  });

  it('keeps a TetherError abort reason as the rejection', async () => {
    const [a, b] = pair();
    const hanging = hangingHandler();
    b.onRequest('slow', hanging.handler);
    const controller = new AbortController();
    const request = a.request('slow', {}, { signal: controller.signal });
    await hanging.context;
    const reason = new TetherError('DEADLINE_EXCEEDED', 'too late');
    controller.abort(reason);
    expect(await rejection(request)).toBe(reason);
  });

  it('rejects at once, sending nothing, when the signal is already aborted', async () => {
    const [a, b] = pair();
    let calls = 0;
    b.onRequest('count', () => ++calls);
    const controller = new AbortController();
    controller.abort();
    await expectCode(a.request('count', {}, { signal: controller.signal }), 'CANCELLED');
    await expect(a.request('count')).resolves.toBe(1);
    expect(calls).toBe(1);
  });
});

describe('RpcConnection: closing', () => {
  it('rejects pending requests with CONNECTION_CLOSED and aborts running handlers, on both sides', async () => {
    const [a, b] = pair();
    const onB = hangingHandler();
    const onA = hangingHandler();
    b.onRequest('slow', onB.handler);
    a.onRequest('slow', onA.handler);
    const fromA = a.request('slow');
    const fromB = b.request('slow');
    const [contextOnB, contextOnA] = await Promise.all([onB.context, onA.context]);
    a.close();
    // The closing side, synchronously: its handler's signal fires and its own request fails.
    expect(contextOnA.signal.aborted).toBe(true);
    expect((contextOnA.signal.reason as TetherError).code).toBe('CONNECTION_CLOSED');
    await expectCode(fromA, 'CONNECTION_CLOSED');
    // The peer sees the close too.
    await expectCode(fromB, 'CONNECTION_CLOSED');
    expect(((await aborted(contextOnB.signal)) as TetherError).code).toBe('CONNECTION_CLOSED');
    expect(b.isOpen).toBe(false);
    expect(b.closedWith).toBeUndefined();
  });

  it('records the close reason and names it in CONNECTION_CLOSED', async () => {
    const [a, b] = pair();
    b.onRequest('slow', hangingHandler().handler);
    const pending = a.request('slow');
    const reason = new TetherError('EVICTED', 'Another client took over.');
    const listener = vi.fn();
    a.onClose(listener);
    a.close(reason);
    expect(a.closedWith).toBe(reason);
    expect(listener).toHaveBeenCalledWith(reason);
    const error = await expectCode(pending, 'CONNECTION_CLOSED');
    expect(error.message).toContain('Another client took over.');
    expect(error.data).toEqual({ cause: { code: 'EVICTED', message: 'Another client took over.', data: {} } });
    await expectCode(a.request('anything'), 'CONNECTION_CLOSED');
  });

  it('close() is idempotent and onClose listeners run exactly once', async () => {
    const [a, b] = pair();
    const onA = vi.fn();
    const onB = vi.fn();
    a.onClose(onA);
    b.onClose(onB);
    a.close();
    a.close(new TetherError('INTERNAL_ERROR', 'again'));
    a.close();
    expect(a.state).toBe('closed');
    expect(a.isOpen).toBe(false);
    expect(a.closedWith).toBeUndefined();
    await vi.waitFor(() => expect(onB).toHaveBeenCalledTimes(1));
    b.close();
    // Listeners added after the close are called on their own turn: once both have been, any
    // repeat call the closes above made or queued has happened too.
    await Promise.all([a, b].map((end) => new Promise((resolve) => end.onClose(resolve))));
    await nextTurn();
    expect(onA).toHaveBeenCalledTimes(1);
    expect(onB).toHaveBeenCalledTimes(1);
  });

  it('calls an onClose listener registered after the close, once, with the reason', async () => {
    const [a] = pair();
    const reason = new TetherError('DUPLICATE_CALL', 'bye');
    a.close(reason);
    const late = vi.fn();
    a.onClose(late);
    await vi.waitFor(() => expect(late).toHaveBeenCalledTimes(1));
    expect(late).toHaveBeenCalledWith(reason);
    // A listener added later still is called after any repeat call of this one would have been.
    await new Promise((resolve) => a.onClose(resolve));
    await nextTurn();
    expect(late).toHaveBeenCalledTimes(1);
  });

  it('notify() returns false and request() rejects once closed', async () => {
    const [a, b] = pair();
    a.close();
    expect(a.notify('anything', {})).toBe(false);
    await expectCode(a.request('anything'), 'CONNECTION_CLOSED');
    await vi.waitFor(() => expect(b.isOpen).toBe(false));
    expect(b.notify('anything')).toBe(false);
  });

  it('drops the answer of a handler that finishes after the close', async () => {
    const [a, b] = pair();
    let finish!: () => void;
    const started = new Promise<void>((resolve) =>
      b.onRequest('late', () => {
        resolve();
        return new Promise((done) => (finish = () => done('too late')));
      }),
    );
    const request = a.request('late');
    await started;
    b.close();
    finish();
    await expectCode(request, 'CONNECTION_CLOSED');
  });

  it('frames sent before close() are flushed to the peer', async () => {
    const [a, b] = pair();
    const notes: unknown[] = [];
    b.onNotification('last/words', (params) => notes.push(params));
    a.notify('last/words', { n: 1 });
    a.close();
    await vi.waitFor(() => expect(b.isOpen).toBe(false));
    expect(notes).toEqual([{ n: 1 }]);
  });
});

describe('RpcConnection: framing faults', () => {
  it('closes the connection when the peer sends an oversize frame, rejecting pending requests', async () => {
    const [raw, served] = createLinkedStreams();
    const connection = new RpcConnection(new FramedTransport(served, { maxFrameBytes: 1000 })).start();
    open.push(connection);
    raw.start({ data: () => undefined, close: () => undefined });
    const pending = connection.request('anything');
    const closed = new Promise<TetherError | undefined>((resolve) => connection.onClose(resolve));
    raw.write(encodeFrame({ jsonrpc: '2.0', method: 'm', params: { s: 'x'.repeat(2000) } }, 1 << 20));
    expect((await closed)?.code).toBe('FRAME_TOO_LARGE');
    const error = await expectCode(pending, 'CONNECTION_CLOSED');
    expect(error.data).toMatchObject({ cause: { code: 'FRAME_TOO_LARGE' } });
    expect(connection.closedWith?.code).toBe('FRAME_TOO_LARGE');
  });
});

describe('lifted strings', () => {
  it('keeps placeholders only in the result of a request that asked for them; every other message gets the real strings', async () => {
    const [sa, sb] = createLinkedStreams();
    const client = new RpcConnection(new FramedTransport(sa, {}, createLongStringLifter({ minFrameBytes: 0, minStringBytes: 100 }))).start();
    const server = new RpcConnection(new FramedTransport(sb)).start();
    open.push(client, server);
    const long = 'long "text" \\ é\n'.repeat(100);
    server.onRequest('big', () => ({ text: long }));
    const notified = new Promise<unknown>((resolve) => client.onNotification('note', resolve));
    const asked = new Promise<unknown>((resolve) => client.onRequest('ask', (params) => (resolve(params), {})));

    const kept = await client.request<{ text: string }>('big', undefined, { keepLiftedStrings: true });
    expect(kept.text).not.toBe(long);
    expect(liftedStringsOf(kept)?.materialize(kept)).toEqual({ text: long });

    const real = await client.request<{ text: string }>('big');
    expect(real).toEqual({ text: long });
    expect(liftedStringsOf(real)).toBeUndefined();

    server.notify('note', { text: long });
    await server.request('ask', { text: long });
    expect(await notified).toEqual({ text: long });
    expect(await asked).toEqual({ text: long });
  });
});
