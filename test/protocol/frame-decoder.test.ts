import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { FrameDecoder, concat } from '../../src/protocol/frame-decoder.js';
import { encodeFrame, frameBytes } from '../../src/protocol/frame-encoder.js';
import { TetherError, type ErrorCode } from '../../src/protocol/errors.js';
import type { Message } from '../../src/protocol/messages.js';

const enc = new TextEncoder();
const dec = new TextDecoder();

const LIMITS = { maxFrameBytes: 1024 * 1024, maxHeaderBytes: 1024 };

function bytes(text: string): Uint8Array {
  return enc.encode(text);
}

function frame(message: Message, maxFrameBytes = LIMITS.maxFrameBytes): Uint8Array {
  return frameBytes(encodeFrame(message, maxFrameBytes));
}

/** A raw frame with a hand-written header block (the blank line is appended). */
function rawFrame(header: string, body: string | Uint8Array): Uint8Array {
  const payload = typeof body === 'string' ? bytes(body) : body;
  return concat([bytes(`${header}\r\n\r\n`), payload]);
}

function texts(bodies: Uint8Array[]): string[] {
  return bodies.map((body) => dec.decode(body));
}

function pushOneByteAtATime(decoder: FrameDecoder, data: Uint8Array): Uint8Array[] {
  const out: Uint8Array[] = [];
  for (let i = 0; i < data.length; i++) out.push(...decoder.push(data.subarray(i, i + 1)));
  return out;
}

function expectTetherError(fn: () => unknown, code: ErrorCode): TetherError {
  let caught: unknown;
  try {
    fn();
  } catch (error) {
    caught = error;
  }
  expect(caught).toBeInstanceOf(TetherError);
  expect((caught as TetherError).code).toBe(code);
  return caught as TetherError;
}

describe('FrameDecoder: split and merged frames', () => {
  const m1: Message = { jsonrpc: '2.0', id: 1, method: 'ping' };
  const m2: Message = { jsonrpc: '2.0', method: 'notifications/x', params: { a: [1, 2, 3] } };
  const m3: Message = { jsonrpc: '2.0', id: 'abc', result: { ok: true } };

  it('decodes a single whole frame', () => {
    const decoder = new FrameDecoder(LIMITS);
    expect(texts(decoder.push(frame(m1)))).toEqual([JSON.stringify(m1)]);
    expect(decoder.hasPartialFrame).toBe(false);
  });

  it('decodes several frames merged into one chunk, in order', () => {
    const decoder = new FrameDecoder(LIMITS);
    const merged = concat([frame(m1), frame(m2), frame(m3)]);
    expect(texts(decoder.push(merged))).toEqual([m1, m2, m3].map((m) => JSON.stringify(m)));
    expect(decoder.hasPartialFrame).toBe(false);
  });

  it('decodes a frame split in the header, at the blank line, and in the body', () => {
    const data = frame(m2);
    const headerEnd = dec.decode(data).indexOf('\r\n\r\n');
    for (const cut of [3, headerEnd, headerEnd + 1, headerEnd + 2, headerEnd + 3, headerEnd + 4, headerEnd + 10, data.length - 1]) {
      const decoder = new FrameDecoder(LIMITS);
      expect(decoder.push(data.subarray(0, cut)), `cut at ${cut}`).toEqual([]);
      expect(decoder.hasPartialFrame).toBe(true);
      expect(texts(decoder.push(data.subarray(cut))), `cut at ${cut}`).toEqual([JSON.stringify(m2)]);
      expect(decoder.hasPartialFrame).toBe(false);
    }
  });

  it('decodes frames fed one byte at a time', () => {
    const decoder = new FrameDecoder(LIMITS);
    const merged = concat([frame(m1), frame(m2), frame(m3)]);
    expect(texts(pushOneByteAtATime(decoder, merged))).toEqual([m1, m2, m3].map((m) => JSON.stringify(m)));
  });

  it('returns a whole frame and keeps the tail of the next one in the same chunk', () => {
    const decoder = new FrameDecoder(LIMITS);
    const a = frame(m1);
    const b = frame(m3);
    expect(texts(decoder.push(concat([a, b.subarray(0, 7)])))).toEqual([JSON.stringify(m1)]);
    expect(decoder.hasPartialFrame).toBe(true);
    expect(texts(decoder.push(b.subarray(7)))).toEqual([JSON.stringify(m3)]);
  });

  it('ignores empty chunks', () => {
    const decoder = new FrameDecoder(LIMITS);
    expect(decoder.push(new Uint8Array(0))).toEqual([]);
    expect(decoder.hasPartialFrame).toBe(false);
    const data = frame(m1);
    decoder.push(data.subarray(0, 5));
    expect(decoder.push(new Uint8Array(0))).toEqual([]);
    expect(texts(decoder.push(data.subarray(5)))).toEqual([JSON.stringify(m1)]);
  });

  it('property: any message list split into any chunk sizes yields exactly the original bodies in order', () => {
    // Sizes are bounded: FrameDecoder.take() is quadratic in the number of buffered chunks.
    const json = fc.jsonValue({ maxDepth: 2 });
    const messageArb: fc.Arbitrary<Message> = fc.oneof(
      fc.record({
        jsonrpc: fc.constant('2.0' as const),
        id: fc.oneof(fc.integer(), fc.string({ unit: 'grapheme' })),
        method: fc.string({ minLength: 1, unit: 'grapheme' }),
        params: fc.dictionary(fc.string({ unit: 'grapheme' }), json, { maxKeys: 4 }),
      }),
      fc.record({
        jsonrpc: fc.constant('2.0' as const),
        method: fc.string({ minLength: 1, unit: 'grapheme' }),
        params: fc.array(json, { maxLength: 4 }),
      }),
      fc.record({ jsonrpc: fc.constant('2.0' as const), id: fc.nat(), result: json }),
    );
    fc.assert(
      fc.property(fc.array(messageArb, { maxLength: 6 }), fc.array(fc.integer({ min: 1, max: 40 }), { minLength: 1, maxLength: 20 }), fc.boolean(), (messages, sizes, oneByte) => {
        const encoded = messages.map((m) => {
          const frame = frameBytes(encodeFrame(m, LIMITS.maxFrameBytes));
          const bodyLength = new TextEncoder().encode(JSON.stringify(m)).length;
          return { header: frame.subarray(0, frame.length - bodyLength), body: frame.subarray(frame.length - bodyLength) };
        });
        const stream = concat(encoded.flatMap(({ header, body }) => [header, body]));
        const expected = encoded.map(({ body }) => body.join(','));
        // Frame boundaries, as byte offsets in the stream.
        const boundaries = new Set<number>([0]);
        let offset = 0;
        for (const { header, body } of encoded) boundaries.add((offset += header.length + body.length));

        const decoder = new FrameDecoder(LIMITS);
        const got: string[] = [];
        let position = 0;
        let turn = 0;
        const partialMismatches: number[] = [];
        while (position < stream.length) {
          const size = oneByte ? 1 : (sizes[turn++ % sizes.length] as number);
          const chunk = stream.subarray(position, Math.min(stream.length, position + size));
          position += chunk.length;
          for (const body of decoder.push(chunk)) got.push(body.join(','));
          // A frame is partial exactly when the bytes fed so far stop short of a frame boundary.
          if (decoder.hasPartialFrame === boundaries.has(position)) partialMismatches.push(position);
        }
        expect(partialMismatches).toEqual([]);
        expect(got).toEqual(expected);
        expect(decoder.hasPartialFrame).toBe(false);
      }),
      { numRuns: 200 },
    );
  });
});

describe('FrameDecoder: headers', () => {
  it('accepts Content-Length in any letter case and without a space after the colon', () => {
    for (const name of ['content-length', 'CONTENT-LENGTH', 'Content-length', 'cOnTeNt-LeNgTh']) {
      const decoder = new FrameDecoder(LIMITS);
      expect(texts(decoder.push(rawFrame(`${name}:5`, 'hello'))), name).toEqual(['hello']);
    }
    const decoder = new FrameDecoder(LIMITS);
    expect(texts(decoder.push(rawFrame('Content-Length:   5   ', 'hello')))).toEqual(['hello']);
  });

  it('accepts and ignores extra headers, before or after Content-Length', () => {
    const decoder = new FrameDecoder(LIMITS);
    const data = concat([rawFrame('X-Trace: 42\r\nContent-Length: 2', '{}'), rawFrame('Content-Length: 4\r\nX-Other: a:b:c', 'null')]);
    expect(texts(decoder.push(data))).toEqual(['{}', 'null']);
  });

  it('accepts a Content-Type with a UTF-8 charset or no charset', () => {
    for (const type of [
      'application/vscode-jsonrpc; charset=utf-8',
      'application/vscode-jsonrpc; charset=UTF-8',
      'application/json; charset=utf8',
      'application/json; charset="utf-8"',
      'application/json',
    ]) {
      const decoder = new FrameDecoder(LIMITS);
      expect(texts(decoder.push(rawFrame(`Content-Length: 2\r\nContent-Type: ${type}`, '{}'))), type).toEqual(['{}']);
    }
  });

  it('refuses a Content-Type with any other charset', () => {
    for (const charset of ['iso-8859-1', 'utf-16', 'UTF-16LE', 'ascii', 'latin1']) {
      const decoder = new FrameDecoder(LIMITS);
      expectTetherError(() => decoder.push(rawFrame(`Content-Length: 2\r\nContent-Type: application/json; charset=${charset}`, '{}')), 'HEADER_INVALID');
    }
  });

  it('refuses a header without Content-Length', () => {
    const decoder = new FrameDecoder(LIMITS);
    const error = expectTetherError(() => decoder.push(rawFrame('Content-Type: application/json', '{}')), 'HEADER_INVALID');
    expect(error.message).toMatch(/Content-Length/);
  });

  it('refuses an empty header block', () => {
    const decoder = new FrameDecoder(LIMITS);
    expectTetherError(() => decoder.push(bytes('\r\n\r\n{}')), 'HEADER_INVALID');
  });

  it('refuses a non-numeric, signed, fractional, empty or absurdly long Content-Length', () => {
    for (const value of ['abc', '-1', '+1', '1.5', '0x10', '1e3', '', '5 5', '1234567890123456']) {
      const decoder = new FrameDecoder(LIMITS);
      expectTetherError(() => decoder.push(rawFrame(`Content-Length: ${value}`, '{}')), 'HEADER_INVALID');
    }
  });

  it('property: the plain header every peer writes decodes exactly as the general parser reads it', () => {
    // "Content-Length: N" is read from the bytes on a fast path; another letter case forces the
    // general parser, so the two must agree on every length, spelling and outcome.
    fc.assert(
      fc.property(fc.stringMatching(/^[0-9]{1,16}$/), fc.string({ maxLength: 3 }), fc.integer({ min: 1, max: 7 }), (digits, suffix, step) => {
        const outcomes = ['Content-Length: ', 'content-length: '].map((name) => {
          const decoder = new FrameDecoder({ maxFrameBytes: 64, maxHeaderBytes: 64 });
          const data = concat([bytes(`${name}${digits}${suffix}\r\n\r\n`), bytes('x'.repeat(80))]);
          const bodies: string[] = [];
          try {
            for (let at = 0; at < data.length; at += step) bodies.push(...texts(decoder.push(data.subarray(at, at + step))));
            return { bodies };
          } catch (error) {
            return { bodies, code: (error as TetherError).code };
          }
        });
        expect(outcomes[0]).toEqual(outcomes[1]);
      }),
    );
  });

  it('refuses a header line without a colon', () => {
    const decoder = new FrameDecoder(LIMITS);
    expectTetherError(() => decoder.push(rawFrame('Content-Length: 2\r\ngarbage', '{}')), 'HEADER_INVALID');
  });

  it('accepts a header block of exactly maxHeaderBytes, even fed one byte at a time', () => {
    const limits = { maxFrameBytes: 1000, maxHeaderBytes: 64 };
    const prefix = 'Content-Length: 2\r\nX-Pad: ';
    const header = prefix + 'a'.repeat(limits.maxHeaderBytes - prefix.length);
    expect(header.length).toBe(limits.maxHeaderBytes);
    expect(texts(pushOneByteAtATime(new FrameDecoder(limits), rawFrame(header, '{}')))).toEqual(['{}']);
    expect(texts(new FrameDecoder(limits).push(rawFrame(header, '{}')))).toEqual(['{}']);
  });

  it('refuses a header block one byte longer than maxHeaderBytes', () => {
    const limits = { maxFrameBytes: 1000, maxHeaderBytes: 64 };
    const prefix = 'Content-Length: 2\r\nX-Pad: ';
    const header = prefix + 'a'.repeat(limits.maxHeaderBytes - prefix.length + 1);
    const error = expectTetherError(() => new FrameDecoder(limits).push(rawFrame(header, '{}')), 'HEADER_INVALID');
    expect(error.data).toEqual({ maxHeaderBytes: 64 });
    expectTetherError(() => pushOneByteAtATime(new FrameDecoder(limits), rawFrame(header, '{}')), 'HEADER_INVALID');
  });

  it('gives up on a header that never ends before buffering much more than maxHeaderBytes', () => {
    const limits = { maxFrameBytes: 1000, maxHeaderBytes: 64 };
    const decoder = new FrameDecoder(limits);
    // LF-only line endings never form the CRLFCRLF blank line.
    const endless = bytes('Content-Length: 2\n\n' + 'x'.repeat(1000));
    let fedWhenThrown = -1;
    for (let i = 0; i < endless.length && fedWhenThrown < 0; i++) {
      try {
        decoder.push(endless.subarray(i, i + 1));
      } catch (error) {
        expect(error).toBeInstanceOf(TetherError);
        expect((error as TetherError).code).toBe('HEADER_INVALID');
        fedWhenThrown = i + 1;
      }
    }
    expect(fedWhenThrown).toBeGreaterThan(0);
    expect(fedWhenThrown).toBeLessThanOrEqual(limits.maxHeaderBytes + 4);
  });

  it('accepts a body of exactly maxFrameBytes', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 100, maxHeaderBytes: 64 });
    const body = 'y'.repeat(100);
    expect(texts(decoder.push(rawFrame('Content-Length: 100', body)))).toEqual([body]);
  });

  it('throws FRAME_TOO_LARGE as soon as the header is parsed, before any body byte arrives', () => {
    const decoder = new FrameDecoder({ maxFrameBytes: 100, maxHeaderBytes: 64 });
    const header = bytes('Content-Length: 101\r\n\r\n');
    // Nothing is thrown until the blank line completes...
    for (let i = 0; i < header.length - 1; i++) expect(decoder.push(header.subarray(i, i + 1))).toEqual([]);
    // ...and the last header byte triggers it, with no body sent at all.
    const error = expectTetherError(() => decoder.push(header.subarray(header.length - 1)), 'FRAME_TOO_LARGE');
    expect(error.data).toEqual({ length: 101, maxFrameBytes: 100 });
  });

  it('throws FRAME_TOO_LARGE for a huge declared length without waiting for the body', () => {
    const decoder = new FrameDecoder(LIMITS);
    const error = expectTetherError(() => decoder.push(bytes('Content-Length: 999999999999999\r\n\r\n')), 'FRAME_TOO_LARGE');
    expect(error.data.length).toBe(999999999999999);
  });
});

describe('FrameDecoder: hasPartialFrame', () => {
  it('tracks every stage of a frame', () => {
    const decoder = new FrameDecoder(LIMITS);
    expect(decoder.hasPartialFrame).toBe(false);
    decoder.push(bytes('Content-'));
    expect(decoder.hasPartialFrame).toBe(true); // part of a header
    decoder.push(bytes('Length: 3\r\n\r\n'));
    expect(decoder.hasPartialFrame).toBe(true); // header complete, no body byte yet
    decoder.push(bytes('12'));
    expect(decoder.hasPartialFrame).toBe(true); // part of the body
    expect(texts(decoder.push(bytes('3')))).toEqual(['123']);
    expect(decoder.hasPartialFrame).toBe(false); // idle between frames
  });

  it('is false after a zero-length frame', () => {
    const decoder = new FrameDecoder(LIMITS);
    decoder.push(bytes('Content-Length: 0\r\n\r'));
    expect(decoder.hasPartialFrame).toBe(true);
    const bodies = decoder.push(bytes('\n'));
    expect(bodies).toHaveLength(1);
    expect(bodies[0]!.length).toBe(0);
    expect(decoder.hasPartialFrame).toBe(false);
  });
});

describe('FrameDecoder: bodies', () => {
  it('yields zero-length bodies, alone and between other frames', () => {
    const decoder = new FrameDecoder(LIMITS);
    const data = concat([rawFrame('Content-Length: 0', ''), rawFrame('Content-Length: 2', '{}'), rawFrame('Content-Length: 0', '')]);
    const bodies = decoder.push(data);
    expect(bodies.map((b) => b.length)).toEqual([0, 2, 0]);
    expect(texts(bodies)).toEqual(['', '{}', '']);
  });

  it('counts Content-Length in bytes, not characters, for multi-byte UTF-8', () => {
    const text = JSON.stringify({ s: 'héllo wörld ✓ 日本語 😀' });
    const body = bytes(text);
    expect(body.length).toBeGreaterThan(text.length);
    const second = '{"n":1}';
    const data = concat([rawFrame(`Content-Length: ${body.length}`, body), rawFrame(`Content-Length: ${second.length}`, second)]);
    expect(texts(new FrameDecoder(LIMITS).push(data))).toEqual([text, second]);
    // Split inside multi-byte sequences too.
    expect(texts(pushOneByteAtATime(new FrameDecoder(LIMITS), data))).toEqual([text, second]);
  });

  it('encodeFrame announces the byte length of a multi-byte body', () => {
    const message: Message = { jsonrpc: '2.0', method: 'm', params: { s: '€😀' } };
    const encoded = frameBytes(encodeFrame(message, 1000));
    const body = bytes(JSON.stringify(message));
    expect(dec.decode(encoded)).toBe(`Content-Length: ${body.length}\r\n\r\n${JSON.stringify(message)}`);
    expect(texts(new FrameDecoder(LIMITS).push(encoded))).toEqual([JSON.stringify(message)]);
  });

  it('leaves a body containing CRLFCRLF intact', () => {
    const body = '"a\r\n\r\nb"';
    const decoder = new FrameDecoder(LIMITS);
    expect(texts(decoder.push(concat([rawFrame(`Content-Length: ${body.length}`, body), rawFrame('Content-Length: 1', '1')])))).toEqual([body, '1']);
  });
});

describe('large frames', () => {
  it.each([
    ['a stranger', false],
    ['an authenticated peer', true],
  ])('receives a large body from %s split anywhere, between small frames, into exactly the bytes sent', (_, trusted) => {
    const limits = { maxFrameBytes: 8 * 1024 * 1024, maxHeaderBytes: 1024 };
    const big: Message = { jsonrpc: '2.0', id: 2, result: { text: 'é"\\x'.repeat(400_000) } };
    const stream = concat([frame({ jsonrpc: '2.0', id: 1, result: {} }), frame(big, limits.maxFrameBytes), frame({ jsonrpc: '2.0', method: 'after' })]);
    fc.assert(
      fc.property(fc.array(fc.integer({ min: 1, max: stream.length - 1 }), { maxLength: 12 }), (cuts) => {
        const decoder = new FrameDecoder(limits);
        if (trusted) decoder.trustPeer();
        const points = [0, ...[...new Set(cuts)].sort((a, b) => a - b), stream.length];
        const bodies: Uint8Array[] = [];
        for (let i = 1; i < points.length; i++) bodies.push(...decoder.push(stream.subarray(points[i - 1], points[i])));
        expect(texts(bodies).map((t) => JSON.parse(t) as unknown)).toEqual([{ jsonrpc: '2.0', id: 1, result: {} }, big, { jsonrpc: '2.0', method: 'after' }]);
        expect(decoder.hasPartialFrame).toBe(false);
      }),
      { numRuns: 60 },
    );
  });

  it('sizes a buffer from a header alone only for an authenticated peer', () => {
    const limits = { maxFrameBytes: 128 * 1024 * 1024, maxHeaderBytes: 1024 };
    const length = 64 * 1024 * 1024;
    const opening = concat([new TextEncoder().encode(`Content-Length: ${length}\r\n\r\n`), new Uint8Array(1024).fill(0x20)]);
    const arrayBuffersAfter = (trusted: boolean): number => {
      const decoder = new FrameDecoder(limits);
      if (trusted) decoder.trustPeer();
      const before = process.memoryUsage().arrayBuffers;
      decoder.push(opening);
      const grown = process.memoryUsage().arrayBuffers - before;
      expect(decoder.hasPartialFrame).toBe(true);
      return grown;
    };
    expect(arrayBuffersAfter(false)).toBeLessThan(length / 2);
    expect(arrayBuffersAfter(true)).toBeGreaterThanOrEqual(length);
  });
});
