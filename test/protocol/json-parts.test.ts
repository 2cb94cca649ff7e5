import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { concat } from '../../src/protocol/frame-decoder.js';
import { LONG_STRING_CHARS, STAND_IN, encodeJsonString, jsonBody } from '../../src/protocol/json-parts.js';

/** The body is the bytes of JSON.stringify (compared as buffers: a deep equal of megabytes is slow). */
function expectPlainJson(body: string | Uint8Array[], value: unknown): void {
  const got = typeof body === 'string' ? Buffer.from(body) : Buffer.from(concat(body));
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
  .tuple(
    anyText.filter((text) => text.length > 0),
    fc.integer({ min: 0, max: 3 }),
  )
  .map(([text, extra]) => text.repeat(Math.ceil(LONG_STRING_CHARS / text.length)) + 'x'.repeat(extra));

describe('jsonBody: the JSON of a value, long strings encoded in slices', () => {
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
        const body = jsonBody(message);
        expect(typeof body).not.toBe('string');
        expectPlainJson(body, message);
      }),
      { numRuns: 40 },
    );
  });

  it('keeps a surrogate pair whole where a slice would have cut it', () => {
    // The pair straddles the 1 MiB slice boundary; the slice before it ends one earlier.
    const text = `${'a'.repeat(1024 * 1024 - 1)}😀${'b'.repeat(10)}\ud800`;
    expectPlainJson(jsonBody({ text }), { text });
  });

  it('encodes a value whole when one of its strings looks like the stand-in for a long string', () => {
    const text = 'z'.repeat(LONG_STRING_CHARS);
    for (const value of [
      { mimic: STAND_IN, text },
      { text, mimic: STAND_IN },
      { text, mimic: `"${STAND_IN}` },
      { text, [STAND_IN]: 1 },
    ]) {
      expectPlainJson(jsonBody(value), value);
    }
    expect(jsonBody({ mimic: STAND_IN, text })).toBe(JSON.stringify({ mimic: STAND_IN, text }));
  });

  it('gives a value without long strings as its JSON text', () => {
    const message = { jsonrpc: '2.0', id: 7, result: { content: [{ type: 'text', text: 'x'.repeat(LONG_STRING_CHARS - 1) }] } };
    expect(jsonBody(message)).toBe(JSON.stringify(message));
  });
});
