import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/errors.js';
import { FrameDecoder } from '../../src/protocol/frame-decoder.js';

/**
 * The decoder reads the usual header (`Content-Length: N\r\n\r\n`) on a fast path and any
 * other through the general parser. Whatever the header's form and however the bytes arrive,
 * the bodies and the faults are those the frames say: every valid frame's body in order, then
 * HEADER_INVALID for the first header that is not one.
 */
const LIMITS = { maxFrameBytes: 1 << 20, maxHeaderBytes: 128 };
const encoder = new TextEncoder();

const validHeader = (length: number): fc.Arbitrary<string> =>
  fc.constantFrom(
    `Content-Length: ${length}\r\n\r\n`,
    `content-length: ${length}\r\n\r\n`,
    `Content-Length:${length}\r\n\r\n`,
    `Content-Length:  ${length}  \r\n\r\n`,
    `Content-Length: ${String(length).padStart(15, '0')}\r\n\r\n`,
    `Content-Type: application/json; charset=utf-8\r\nContent-Length: ${length}\r\n\r\n`,
    `Content-Length: ${length}\r\nX-Other: 1\r\n\r\n`,
  );
const invalidHeader = (length: number): fc.Arbitrary<string> =>
  fc.constantFrom(
    `Content-Length: ${String(length).padStart(16, '0')}\r\n\r\n`,
    `Content-Length: -${length}\r\n\r\n`,
    `Content-Length: \r\n\r\n`,
    `X-Other: 1\r\n\r\n`,
    `Content-Length ${length}\r\n\r\n`,
    `Content-Length: ${length}\r\nContent-Type: text/plain; charset=latin1\r\n\r\n`,
    `Content-Length: ${length}${' '.repeat(200)}\r\n\r\n`,
  );

const frames = fc.array(
  fc.tuple(fc.string({ maxLength: 30 }), fc.boolean()).chain(([body, valid]) => {
    const length = encoder.encode(body).length;
    return (valid ? validHeader(length) : invalidHeader(length)).map((header) => ({ header, body, valid }));
  }),
  { maxLength: 6 },
);

describe('FrameDecoder: headers of every form, in any chunks', () => {
  it('gives the valid frames before the first invalid header, then HEADER_INVALID', () => {
    fc.assert(
      fc.property(frames, fc.array(fc.integer({ min: 1, max: 50 }), { minLength: 1, maxLength: 10 }), (list, sizes) => {
        const stream = encoder.encode(list.map(({ header, body }) => header + body).join(''));
        const firstInvalid = list.findIndex((f) => !f.valid);
        const expected = (firstInvalid < 0 ? list : list.slice(0, firstInvalid)).map((f) => f.body);
        const decoder = new FrameDecoder(LIMITS);
        const got: string[] = [];
        let fault: unknown;
        let position = 0;
        for (let turn = 0; position < stream.length && fault === undefined; turn++) {
          const chunk = stream.subarray(position, position + (sizes[turn % sizes.length] as number));
          position += chunk.length;
          try {
            for (const body of decoder.push(chunk)) got.push(new TextDecoder().decode(body));
          } catch (error) {
            fault = error;
          }
        }
        if (fault === undefined && firstInvalid >= 0) {
          try {
            decoder.push(new Uint8Array(0));
          } catch (error) {
            fault = error;
          }
        }
        expect(got).toEqual(expected);
        if (firstInvalid < 0) {
          expect(fault).toBeUndefined();
          expect(decoder.hasPartialFrame).toBe(false);
        } else {
          // A header too long for the window may still be waiting for its blank line; any fault is HEADER_INVALID.
          if (fault !== undefined) expect((fault as TetherError).code).toBe('HEADER_INVALID');
          else expect(decoder.hasPartialFrame).toBe(true);
        }
      }),
      { numRuns: 3000 },
    );
  });
});
