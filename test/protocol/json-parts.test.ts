import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concat } from '../../src/protocol/frame-decoder.js';
import { LONG_STRING_CHARS, STAND_IN, encodeJsonString, jsonParts } from '../../src/protocol/json-parts.js';

/** The parts add up to the bytes of JSON.stringify (compared as buffers: a deep equal of megabytes is slow). */
function expectPlainJson(parts: Uint8Array[], value: unknown): void {
  const got = Buffer.from(concat(parts));
  const want = Buffer.from(JSON.stringify(value));
  if (!got.equals(want)) expect(got.toString('hex')).toBe(want.toString('hex'));
}

/** Any UTF-16 text: lone surrogates, pairs, control characters, quotes, backslashes, non-ASCII. */
const anyText = fc.oneof(
  fc.string({ unit: 'binary' }),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', '\u001f', 'é', '😀', '\ud83d', '\ude00', '\u2028') }),
);

/** A string long enough to be sliced, repeated from any text. */
const longText = fc
  .tuple(anyText.filter((text) => text.length > 0), fc.integer({ min: 0, max: 3 }))
  .map(([text, extra]) => text.repeat(Math.ceil(LONG_STRING_CHARS / text.length)) + 'x'.repeat(extra));

describe('jsonParts: the JSON text of a value, long strings encoded in slices', () => {
  it('encodes any string in any slice size to the bytes of JSON.stringify', () => {
    fc.assert(
      fc.property(anyText, fc.integer({ min: 1, max: 9 }), (text, sliceChars) => {
        const parts: Uint8Array[] = [];
        encodeJsonString(text, parts, sliceChars);
        expectPlainJson(parts, text);
      }),
      { numRuns: 500 },
    );
  });

  it('gives the same bytes as JSON.stringify for values holding long strings anywhere', () => {
    const json = fc.letrec((tie) => ({
      value: fc.oneof(
        { depthSize: 'small' },
        fc.constant(null),
        fc.boolean(),
        fc.double({ noNaN: true, noDefaultInfinity: true }),
        anyText,
        longText,
        fc.array(tie('value'), { maxLength: 3 }),
        fc.dictionary(anyText, tie('value'), { maxKeys: 3 }),
      ),
    })).value;
    fc.assert(
      fc.property(json, longText, (value, text) => {
        const message = { jsonrpc: '2.0', id: 1, result: { content: [{ type: 'text', text }], value } };
        const parts = jsonParts(message);
        expect(parts.length).toBeGreaterThan(1);
        expectPlainJson(parts, message);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a surrogate pair whole where a slice would have cut it', () => {
    // The pair straddles the 1 MiB slice boundary; the slice before it ends one earlier.
    const text = `${'a'.repeat(1024 * 1024 - 1)}😀${'b'.repeat(10)}\ud800`;
    const parts = jsonParts({ text });
    expectPlainJson(parts, { text });
  });

  it('encodes a value whole when one of its strings looks like the stand-in for a long string', () => {
    const text = 'z'.repeat(LONG_STRING_CHARS);
    for (const value of [
      { mimic: STAND_IN, text },
      { text, mimic: STAND_IN },
      { text, mimic: `"${STAND_IN}` },
      { text, [STAND_IN]: 1 },
    ]) {
      expectPlainJson(jsonParts(value), value);
    }
    expect(jsonParts({ mimic: STAND_IN, text })).toHaveLength(1);
  });

  it('keeps a small value in one part', () => {
    const message = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(LONG_STRING_CHARS - 1) }] } };
    expect(jsonParts(message)).toHaveLength(1);
  });
});
