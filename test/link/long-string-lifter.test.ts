/**
 * Lifting long strings out of frames: whatever JSON goes in, the parsed text with its
 * placeholders, materialized, is exactly what JSON.parse gives; a literal that is not valid
 * JSON is never lifted (the frame is parsed whole, which reports the fault).
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { createLongStringLifter, liftLongStrings, placeholderFor } from '../../src/link/long-string-lifter.js';

const encode = (text: string): Uint8Array => new TextEncoder().encode(text);

describe('liftLongStrings', () => {
  it('round-trips any JSON value: parse(text) materialized equals JSON.parse(body)', () => {
    fc.assert(
      fc.property(fc.jsonValue({ stringUnit: 'binary' }), fc.integer({ min: 2, max: 24 }), (value, minStringBytes) => {
        const body = encode(JSON.stringify(value));
        const cut = liftLongStrings(body, minStringBytes);
        const expected = JSON.parse(JSON.stringify(value)) as unknown;
        if (!cut) return; // nothing long enough to lift
        expect(cut.lifted.materialize(JSON.parse(cut.text))).toEqual(expected);
      }),
      { numRuns: 400 },
    );
  });

  it('keeps a "__proto__" key as JSON.parse does: an own property, not the copy\'s prototype', () => {
    // Found by the property above (seed -1824159605): the copy assigned out["__proto__"].
    const text = `{"__proto__":{"polluted":true},"long":"${'x'.repeat(40)}","nested":{"__proto__":0}}`;
    const cut = liftLongStrings(encode(text), 10)!;
    const materialized = cut.lifted.materialize(JSON.parse(cut.text)) as Record<string, unknown>;
    expect(materialized).toEqual(JSON.parse(text));
    expect(Object.keys(materialized)).toEqual(['__proto__', 'long', 'nested']);
    expect(Object.getPrototypeOf(materialized)).toBe(Object.prototype);
    expect((materialized as { polluted?: unknown }).polluted).toBeUndefined();
  });

  it('lifts strings full of escapes, quotes, backslashes, control characters and non-ASCII text', () => {
    const text = `say "hi" \\ C:\\Users\\ana \u0001\t\n é ✓ 😀 \u2028 `.repeat(500);
    const body = encode(
      JSON.stringify({
        result: {
          content: [
            { type: 'text', text },
            { type: 'text', text: 'short' },
          ],
        },
      }),
    );
    const cut = liftLongStrings(body, 1000)!;
    expect(cut.text.length).toBeLessThan(300);
    expect(cut.lifted.materialize(JSON.parse(cut.text))).toEqual({
      result: {
        content: [
          { type: 'text', text },
          { type: 'text', text: 'short' },
        ],
      },
    });
  });

  it('never lifts a literal that is not valid JSON: raw control characters, bad escapes, bad UTF-8, no closing quote', () => {
    const long = 'x'.repeat(100);
    for (const literal of [`"${long}\n"`, `"${long}\\q"`, `"${long}\\u12G4"`, `"${long}\\u12"`]) {
      expect(liftLongStrings(encode(`{"a":${literal}}`), 10), literal).toBeUndefined();
    }
    const badUtf8 = encode(`{"a":"${long}"}`);
    badUtf8[20] = 0xff;
    expect(liftLongStrings(badUtf8, 10)).toBeUndefined();
    expect(liftLongStrings(encode(`{"a":"${long}`), 10)).toBeUndefined();
  });

  it('leaves small frames alone, so the common case costs nothing', () => {
    const lift = createLongStringLifter({ minFrameBytes: 1000, minStringBytes: 10 });
    expect(lift(encode(JSON.stringify({ a: 'y'.repeat(500) })))).toBeUndefined();
    expect(lift(encode(JSON.stringify({ a: 'y'.repeat(2000) })))).toBeDefined();
  });

  it('makes placeholders of letters and digits, a multiple of 4 long: valid text and valid base64', () => {
    for (const index of [0, 7, 12345678]) {
      const placeholder = placeholderFor(index);
      expect(placeholder).toMatch(/^[A-Za-z0-9]+$/);
      expect(placeholder.length % 4).toBe(0);
      expect(() => atob(placeholder)).not.toThrow();
    }
  });
});
