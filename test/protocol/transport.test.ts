import { Socket } from 'node:net';
import fc from 'fast-check';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { FrameDecoder, concat } from '../../src/protocol/frame-decoder.js';
import { encodeFrame, frameBytes, type Frame } from '../../src/protocol/frame-encoder.js';
import { TetherError } from '../../src/protocol/errors.js';
import { SocketByteStream } from '../../src/net/socket-stream.js';
import type { Message, RequestId } from '../../src/protocol/messages.js';
import { FramedTransport, createLinkedPair, createLinkedStreams, type ByteStream, type Transport, type TransportHandlers } from '../../src/protocol/transport.js';

const enc = new TextEncoder();

/** A hand-driven ByteStream: the test feeds incoming bytes and reads what was written. */
class FakeStream implements ByteStream {
  private handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void } | undefined;
  readonly written: Uint8Array[] = [];
  closed = false;
  endCalls = 0;

  start(handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void }): void {
    this.handlers = handlers;
  }

  write(frame: Frame): void {
    if (this.closed) return;
    this.written.push(frameBytes(frame).slice());
  }

  end(): void {
    this.endCalls++;
    this.closed = true;
  }

  feed(data: Uint8Array | string): void {
    this.handlers!.data(typeof data === 'string' ? enc.encode(data) : data);
  }

  remoteClose(): void {
    this.closed = true;
    this.handlers!.close();
  }

  /** Every message written so far, decoded from its frames. */
  sent(): Array<Record<string, unknown>> {
    const decoder = new FrameDecoder({ maxFrameBytes: 1 << 24, maxHeaderBytes: 1 << 16 });
    return decoder.push(concat(this.written)).map((body) => JSON.parse(new TextDecoder().decode(body)) as Record<string, unknown>);
  }
}

interface Recorder {
  handlers: TransportHandlers;
  messages: Message[];
  malformed: Array<{ error: TetherError; id: RequestId | null }>;
  closes: Array<TetherError | undefined>;
  closed: Promise<TetherError | undefined>;
}

function recorder(): Recorder {
  let resolveClosed!: (error: TetherError | undefined) => void;
  const rec: Recorder = {
    messages: [],
    malformed: [],
    closes: [],
    closed: new Promise((resolve) => (resolveClosed = resolve)),
    handlers: {
      message: (message) => rec.messages.push(message),
      malformed: (error, id) => rec.malformed.push({ error, id }),
      close: (error) => {
        rec.closes.push(error);
        resolveClosed(error);
      },
    },
  };
  return rec;
}

function frame(message: unknown, maxFrameBytes = 1 << 20): Uint8Array {
  return frameBytes(encodeFrame(message as Message, maxFrameBytes));
}

function rawFrame(body: string | Uint8Array): Uint8Array {
  const bytes = typeof body === 'string' ? enc.encode(body) : body;
  return concat([enc.encode(`Content-Length: ${bytes.length}\r\n\r\n`), bytes]);
}

function setup(limits: ConstructorParameters<typeof FramedTransport>[1] = {}) {
  const stream = new FakeStream();
  const transport = new FramedTransport(stream, limits);
  const rec = recorder();
  transport.start(rec.handlers);
  return { stream, transport, rec };
}

const ping: Message = { jsonrpc: '2.0', id: 1, method: 'ping' };
const note: Message = { jsonrpc: '2.0', method: 'notifications/x', params: { n: 1 } };

afterEach(() => {
  vi.useRealTimers();
});

describe('FramedTransport: delivery', () => {
  it('delivers messages from split and merged frames, in order', () => {
    const { stream, rec } = setup();
    const data = concat([frame(ping), frame(note)]);
    stream.feed(data.subarray(0, 10));
    expect(rec.messages).toEqual([]);
    stream.feed(data.subarray(10));
    expect(rec.messages).toEqual([ping, note]);
    expect(rec.malformed).toEqual([]);
  });

  it('reports a body that is not JSON as PARSE_ERROR and keeps serving', () => {
    const { stream, transport, rec } = setup();
    stream.feed(concat([rawFrame('{"jsonrpc":"2.0",'), frame(ping)]));
    expect(rec.malformed).toHaveLength(1);
    expect(rec.malformed[0]!.error).toBeInstanceOf(TetherError);
    expect(rec.malformed[0]!.error.code).toBe('PARSE_ERROR');
    expect(rec.malformed[0]!.error.message).toMatch(/not valid JSON/);
    expect(rec.malformed[0]!.id).toBeNull();
    expect(rec.messages).toEqual([ping]);
    stream.feed(frame(note));
    expect(rec.messages).toEqual([ping, note]);
    expect(transport.closed).toBe(false);
    expect(rec.closes).toEqual([]);
    expect(stream.written).toEqual([]);
  });

  it('reports a body that is not valid UTF-8 as PARSE_ERROR and keeps serving', () => {
    const { stream, transport, rec } = setup();
    // "{}" with a lone continuation byte and an overlong encoding inside.
    stream.feed(rawFrame(new Uint8Array([0x7b, 0x80, 0xc0, 0xaf, 0x7d])));
    expect(rec.malformed.map((m) => [m.error.code, m.id])).toEqual([['PARSE_ERROR', null]]);
    expect(rec.malformed[0]!.error.message).toMatch(/UTF-8/);
    stream.feed(frame(ping));
    expect(rec.messages).toEqual([ping]);
    expect(transport.closed).toBe(false);
  });

  it('reports an invalid JSON-RPC message as INVALID_REQUEST with the id recovered', () => {
    const { stream, transport, rec } = setup();
    const bad: Array<[unknown, RequestId | null]> = [
      [{ id: 7, method: 'ping' }, 7], // no jsonrpc member
      [{ jsonrpc: '1.0', id: 'abc', method: 'ping' }, 'abc'],
      [{ jsonrpc: '2.0', id: 8, method: '' }, 8],
      [{ jsonrpc: '2.0', id: 9, method: 'x', params: 5 }, 9],
      [{ jsonrpc: '2.0', id: 10 }, 10], // neither method nor result
      [{ jsonrpc: '2.0', id: 11, error: 'oops' }, 11],
      [{ jsonrpc: '2.0', id: { nested: true }, method: 'x' }, null],
      [{ method: 'ping' }, null],
      [[{ jsonrpc: '2.0', id: 1, method: 'ping' }], null], // batches are not supported
      [42, null],
      [null, null],
    ];
    stream.feed(concat([...bad.map(([value]) => rawFrame(JSON.stringify(value))), frame(ping)]));
    expect(rec.malformed.map((m) => m.error.code)).toEqual(bad.map(() => 'INVALID_REQUEST'));
    expect(rec.malformed.map((m) => m.id)).toEqual(bad.map(([, id]) => id));
    expect(rec.malformed[0]!.error.message).toMatch(/jsonrpc/);
    expect(rec.messages).toEqual([ping]);
    expect(transport.closed).toBe(false);
  });

  it('refuses a message nested past maxDepth as INVALID_REQUEST under its id, before parsing it, and keeps serving', () => {
    const { stream, transport, rec } = setup({ maxDepth: 8 });
    const nested = (depth: number) => '['.repeat(depth) + ']'.repeat(depth);
    // Brackets inside strings do not count; the id is found before the first nested value.
    const deep = `{"jsonrpc":"2.0","id":"deep-1","method":"calls/start","params":{"arguments":${nested(7)}}}`;
    const fine = `{"jsonrpc":"2.0","id":2,"method":"x","params":{"s":"${'['.repeat(50)}","a":${nested(6)}}}`;
    const noId = `{"jsonrpc":"2.0","method":"x","params":${nested(100_000)}}`;
    stream.feed(concat([rawFrame(deep), rawFrame(fine), rawFrame(noId), frame(ping)]));
    expect(rec.malformed.map((m) => [m.error.code, m.id, m.error.data])).toEqual([
      ['INVALID_REQUEST', 'deep-1', { maxDepth: 8 }],
      ['INVALID_REQUEST', null, { maxDepth: 8 }],
    ]);
    expect(rec.malformed[0]!.error.message).toMatch(/nests deeper than 8 levels/);
    expect(rec.messages.map((m) => ('id' in m ? m.id : undefined))).toEqual([2, 1]);
    expect(transport.closed).toBe(false);
  });

  it('without maxDepth, nesting is left to the parser', () => {
    const { stream, rec } = setup();
    stream.feed(rawFrame(`{"jsonrpc":"2.0","id":3,"method":"x","params":{"a":${'['.repeat(200)}${']'.repeat(200)}}}`));
    expect(rec.malformed).toEqual([]);
    expect(rec.messages).toHaveLength(1);
  });

  it('delivers through createLinkedPair, asynchronously, in both directions', async () => {
    const [a, b] = createLinkedPair();
    const ra = recorder();
    const rb = recorder();
    a.start(ra.handlers);
    b.start(rb.handlers);
    a.send(ping);
    b.send(note);
    expect(rb.messages).toEqual([]); // like a socket: never synchronous
    await vi.waitFor(() => expect(rb.messages).toEqual([ping]));
    await vi.waitFor(() => expect(ra.messages).toEqual([note]));
    a.close();
    expect(await rb.closed).toBeUndefined();
    expect(b.closed).toBe(true);
  });

  it('createLinkedStreams keeps bytes written before the reader starts', async () => {
    const [left, right] = createLinkedStreams();
    const transport = new FramedTransport(right);
    left.write(encodeFrame(ping, 1000));
    await Promise.resolve();
    await Promise.resolve();
    const rec = recorder();
    transport.start(rec.handlers);
    await vi.waitFor(() => expect(rec.messages).toEqual([ping]));
  });
});

describe('FramedTransport: framing faults close the connection', () => {
  it('answers an oversize frame with an id-null FRAME_TOO_LARGE error frame, then closes with that error', () => {
    const { stream, transport, rec } = setup({ maxFrameBytes: 1000 });
    stream.feed('Content-Length: 1001\r\n\r\n');
    const sent = stream.sent();
    expect(sent).toHaveLength(1);
    expect(sent[0]).toMatchObject({
      jsonrpc: '2.0',
      id: null,
      error: { code: -32003, data: { code: 'FRAME_TOO_LARGE', length: 1001, maxFrameBytes: 1000 } },
    });
    expect(rec.closes).toHaveLength(1);
    expect(rec.closes[0]).toBeInstanceOf(TetherError);
    expect(rec.closes[0]!.code).toBe('FRAME_TOO_LARGE');
    expect(transport.closed).toBe(true);
    expect(stream.endCalls).toBe(1);
    // Nothing more is read, and the stream's own close does not report a second time.
    stream.feed(frame(ping));
    stream.remoteClose();
    expect(rec.messages).toEqual([]);
    expect(rec.closes).toHaveLength(1);
  });

  it('answers an invalid header with an id-null HEADER_INVALID error frame, then closes with that error', () => {
    const { stream, transport, rec } = setup();
    stream.feed('Content-Length: lots\r\n\r\n{}');
    expect(stream.sent()).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32004, data: { code: 'HEADER_INVALID' } }) }]);
    expect(rec.closes.map((error) => error?.code)).toEqual(['HEADER_INVALID']);
    expect(transport.closed).toBe(true);
  });

  it('the error frame reaches the peer over linked streams before the close', async () => {
    const [raw, served] = createLinkedStreams();
    const transport = new FramedTransport(served, { maxFrameBytes: 1000 });
    const rec = recorder();
    transport.start(rec.handlers);
    const received: Uint8Array[] = [];
    let rawClosed!: () => void;
    const rawClosedPromise = new Promise<void>((resolve) => (rawClosed = resolve));
    raw.start({ data: (chunk) => received.push(chunk), close: () => rawClosed() });
    raw.write([enc.encode('Content-Length: 1001\r\n\r\n')]);
    expect((await rec.closed)?.code).toBe('FRAME_TOO_LARGE');
    await rawClosedPromise;
    const bodies = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 1024 }).push(concat(received));
    expect(bodies.map((body) => JSON.parse(new TextDecoder().decode(body)))).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32003 }) }]);
  });
});

describe('FramedTransport: stalled frames', () => {
  const frameTimeoutMs = 50;

  it('closes with FRAME_TIMEOUT when a partial frame stalls, after telling the peer', () => {
    vi.useFakeTimers();
    const { stream, transport, rec } = setup({ frameTimeoutMs });
    stream.feed('Content-Length: 10\r\n\r\n{"a"');
    vi.advanceTimersByTime(frameTimeoutMs - 1);
    expect(transport.closed).toBe(false);
    vi.advanceTimersByTime(1);
    expect(transport.closed).toBe(true);
    expect(rec.closes.map((error) => error?.code)).toEqual(['FRAME_TIMEOUT']);
    expect(rec.closes[0]!.data).toEqual({ frameTimeoutMs });
    expect(stream.sent()).toEqual([{ jsonrpc: '2.0', id: null, error: expect.objectContaining({ code: -32005, data: { code: 'FRAME_TIMEOUT', frameTimeoutMs } }) }]);
    expect(stream.endCalls).toBe(1);
  });

  it('also times out a half-received header and a complete header with no body yet', () => {
    vi.useFakeTimers();
    for (const partial of ['Content-Len', 'Content-Length: 4\r\n\r\n']) {
      const { stream, rec } = setup({ frameTimeoutMs });
      stream.feed(partial);
      vi.advanceTimersByTime(frameTimeoutMs);
      expect(
        rec.closes.map((error) => error?.code),
        JSON.stringify(partial),
      ).toEqual(['FRAME_TIMEOUT']);
    }
  });

  it('never times out an idle connection', () => {
    vi.useFakeTimers();
    const { stream, transport, rec } = setup({ frameTimeoutMs });
    vi.advanceTimersByTime(frameTimeoutMs * 20);
    stream.feed(frame(ping));
    vi.advanceTimersByTime(frameTimeoutMs * 20);
    expect(transport.closed).toBe(false);
    expect(rec.closes).toEqual([]);
    expect(rec.messages).toEqual([ping]);
    expect(stream.written).toEqual([]);
    expect(vi.getTimerCount()).toBe(0);
  });

  it('restarts the stall clock on every chunk and stops it when the frame completes', () => {
    vi.useFakeTimers();
    const { stream, transport, rec } = setup({ frameTimeoutMs });
    const data = frame({ jsonrpc: '2.0', method: 'slow', params: { text: 'x'.repeat(40) } });
    // Trickle the frame in over far longer than the timeout, never pausing for a full timeout.
    for (let i = 0; i < 10; i++) {
      stream.feed(data.subarray(i * 5, i * 5 + 5));
      vi.advanceTimersByTime(frameTimeoutMs - 10);
    }
    expect(transport.closed).toBe(false);
    stream.feed(data.subarray(50));
    expect(rec.messages).toHaveLength(1);
    vi.advanceTimersByTime(frameTimeoutMs * 10);
    expect(transport.closed).toBe(false);
    expect(rec.closes).toEqual([]);
  });

  it('real timers: a stalled frame closes the transport and the peer hears FRAME_TIMEOUT', async () => {
    const [raw, served] = createLinkedStreams();
    const transport = new FramedTransport(served, { frameTimeoutMs });
    const rec = recorder();
    transport.start(rec.handlers);
    const received: Uint8Array[] = [];
    raw.start({ data: (chunk) => received.push(chunk), close: () => undefined });
    const started = Date.now();
    raw.write([enc.encode('Content-Length: 100\r\n\r\n{')]);
    expect((await rec.closed)?.code).toBe('FRAME_TIMEOUT');
    expect(Date.now() - started).toBeGreaterThanOrEqual(frameTimeoutMs - 5);
    await vi.waitFor(() => expect(received.length).toBeGreaterThan(0));
    const [body] = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 1024 }).push(concat(received));
    expect(JSON.parse(new TextDecoder().decode(body))).toMatchObject({ id: null, error: { code: -32005 } });
  });

  it('disarms the stall timer when the transport is closed', () => {
    vi.useFakeTimers();
    const { stream, transport } = setup({ frameTimeoutMs });
    stream.feed('Content-Length: 10\r\n\r\n{');
    expect(vi.getTimerCount()).toBe(1);
    transport.close();
    expect(vi.getTimerCount()).toBe(0);
  });

  it('disarms the stall timer when the stream closes under a partial frame', () => {
    vi.useFakeTimers();
    const { stream, rec } = setup({ frameTimeoutMs });
    stream.feed('Content-Length: 10\r\n\r\n{');
    stream.remoteClose();
    expect(vi.getTimerCount()).toBe(0);
    vi.advanceTimersByTime(frameTimeoutMs * 2);
    expect(rec.closes).toEqual([undefined]);
  });

  // Regression: onData() re-arms the stall timer after delivering the chunk's frames even when a
  // handler closed the transport meanwhile, so a closed transport keeps a live timer.
  it('leaves no stall timer behind when a message handler closes the transport mid-chunk', () => {
    vi.useFakeTimers();
    const stream = new FakeStream();
    const transport: Transport = new FramedTransport(stream, { frameTimeoutMs });
    const rec = recorder();
    transport.start({ ...rec.handlers, message: () => transport.close() });
    // One whole frame followed by the start of the next, in a single chunk.
    stream.feed(concat([frame(ping), enc.encode('Content-Len')]));
    expect(transport.closed).toBe(true);
    expect(vi.getTimerCount()).toBe(0);
  });
});

describe('FramedTransport: sending and closing', () => {
  it('encodeFrame accepts a body of exactly maxFrameBytes and refuses one byte more', () => {
    const message: Message = { jsonrpc: '2.0', method: 'm', params: { s: '' } };
    const base = enc.encode(JSON.stringify(message)).length;
    // 2, 3 and 4 bytes a character (the last a surrogate pair): the limit counts UTF-8 bytes.
    const text = 'é😀€'.repeat(4);
    const extra = 4 * (2 + 4 + 3);
    const fits: Message = { jsonrpc: '2.0', method: 'm', params: { s: text } };
    const bytes = frameBytes(encodeFrame(fits, base + extra));
    const header = `Content-Length: ${base + extra}\r\n\r\n`;
    expect(new TextDecoder().decode(bytes.subarray(0, header.length))).toBe(header);
    expect(bytes.length - header.length).toBe(base + extra);
    let caught: unknown;
    try {
      encodeFrame(fits, base + extra - 1);
    } catch (error) {
      caught = error;
    }
    expect(caught).toBeInstanceOf(TetherError);
    expect((caught as TetherError).code).toBe('FRAME_TOO_LARGE');
    expect((caught as TetherError).data).toEqual({ length: base + extra, maxFrameBytes: base + extra - 1 });
  });

  it('encodeFrame writes an ordinary message as one string, and any message as its header and the UTF-8 of its JSON', () => {
    // A socket counts UTF-8 natively; its frames must be the very frames of the portable count.
    const socket = new SocketByteStream(new Socket());
    const socketCount = (text: string): number => socket.utf8Length(text);
    const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', 'é', '€', '😀', '\ud83d', '\ude00', '\u2028') }));
    // Long enough, now and then, to take the path in parts (at 64 Ki UTF-16 units).
    const sized = fc.tuple(anyText, fc.integer({ min: 0, max: 70_000 })).map(([text, pad]) => (pad > 60_000 ? text + 'x'.repeat(pad) : text));
    fc.assert(
      fc.property(sized, fc.dictionary(anyText, anyText, { maxKeys: 3 }), (text, extra) => {
        const message = { jsonrpc: '2.0', id: 1, result: { text, extra } } as Message;
        const encoded = encodeFrame(message, 1 << 24);
        const json = JSON.stringify(message);
        if (json.length < 64 * 1024) expect(typeof encoded).toBe('string');
        const body = enc.encode(json);
        expect(Buffer.from(frameBytes(encoded)).equals(Buffer.from(concat([enc.encode(`Content-Length: ${body.length}\r\n\r\n`), body])))).toBe(true);
        // Compared as bytes: a deep toEqual of 64 KiB byte arrays took seconds a run under load.
        const counted = encodeFrame(message, 1 << 24, socketCount);
        expect(typeof counted).toBe(typeof encoded);
        expect(Buffer.from(frameBytes(counted)).equals(Buffer.from(frameBytes(encoded)))).toBe(true);
      }),
      { numRuns: 300 },
    );
  });

  it("send() writes the length the stream's own count gives, when the stream has one", () => {
    const counted: string[] = [];
    const stream = new (class extends FakeStream {
      readonly offset = 1000;
      // A method that reads its stream (the transport must call it on the stream), and a count
      // no portable one would give, so the header shows whose count it is.
      utf8Length(text: string): number {
        counted.push(text);
        return enc.encode(text).length + this.offset;
      }
    })();
    const transport = new FramedTransport(stream);
    transport.start(recorder().handlers);
    const message: Message = { jsonrpc: '2.0', method: 'm', params: { s: 'é€😀' } };
    transport.send(message);
    const json = JSON.stringify(message);
    expect(counted).toEqual([json]);
    const header = new TextDecoder().decode(stream.written[0]).split('\r\n\r\n')[0];
    expect(header).toBe(`Content-Length: ${enc.encode(json).length + 1000}`);
  });

  it('send() throws FRAME_TOO_LARGE for an oversize message, writes nothing and stays open', () => {
    const { stream, transport, rec } = setup({ maxFrameBytes: 64 });
    expect(() => transport.send({ jsonrpc: '2.0', method: 'big', params: { s: 'x'.repeat(100) } })).toThrow(expect.objectContaining({ code: 'FRAME_TOO_LARGE' }));
    expect(stream.written).toEqual([]);
    expect(transport.closed).toBe(false);
    transport.send(ping);
    expect(stream.sent()).toEqual([ping]);
    expect(rec.closes).toEqual([]);
  });

  it('close() is idempotent, keeps the first error and reports once', () => {
    const { stream, transport, rec } = setup();
    const first = new TetherError('EVICTED', 'displaced');
    transport.close(first);
    transport.close(new TetherError('INTERNAL_ERROR', 'second'));
    transport.close();
    stream.remoteClose();
    expect(rec.closes).toEqual([first]);
    expect(stream.endCalls).toBe(1);
    expect(transport.closed).toBe(true);
  });

  it('silently drops sends and ignores data once closed', () => {
    const { stream, transport, rec } = setup({ maxFrameBytes: 64 });
    transport.close();
    expect(() => transport.send(ping)).not.toThrow();
    expect(() => transport.send({ jsonrpc: '2.0', method: 'big', params: { s: 'x'.repeat(100) } })).not.toThrow();
    expect(stream.written).toEqual([]);
    stream.feed(frame(ping));
    expect(rec.messages).toEqual([]);
  });

  it('reports a close by the stream with no error', () => {
    const { stream, transport, rec } = setup();
    stream.remoteClose();
    expect(rec.closes).toEqual([undefined]);
    expect(transport.closed).toBe(true);
  });
});
