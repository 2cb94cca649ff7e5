import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { canonicalJson } from '../../src/protocol/canonical-json.js';

type Json = null | boolean | number | string | Json[] | { [key: string]: Json };

/**
 * Rebuilds a JSON value with every object's keys in a different order, chosen by `seed`.
 * Object.fromEntries creates own properties even for a "__proto__" key, like JSON.parse does.
 */
function reorder(value: Json, seed: number): Json {
  if (Array.isArray(value)) return value.map((item, i) => reorder(item, seed + i + 1));
  if (value === null || typeof value !== 'object') return value;
  const entries = Object.entries(value);
  const shuffled = entries
    .map((entry, i) => ({ entry, rank: Math.imul(i + 1, 2654435761) ^ Math.imul(seed + 7, 40503) }))
    .sort((x, y) => (x.rank >>> 0) - (y.rank >>> 0))
    .map(({ entry: [key, child] }, i) => [key, reorder(child, seed * 31 + i)] as const);
  return Object.fromEntries(shuffled) as Json;
}

function reverseKeys(value: Json): Json {
  if (Array.isArray(value)) return value.map(reverseKeys);
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value)
      .reverse()
      .map(([key, child]) => [key, reverseKeys(child)]),
  ) as Json;
}

/** JSON values without "__proto__" keys (see the separate, known-failing test for those). */
const json = fc.jsonValue({ maxDepth: 4 }).filter((value) => !JSON.stringify(value).includes('"__proto__"')) as fc.Arbitrary<Json>;

describe('canonicalJson', () => {
  it('sorts keys at every depth', () => {
    expect(canonicalJson({ b: 1, a: { d: [{ z: 1, y: 2 }], c: null } })).toBe('{"a":{"c":null,"d":[{"y":2,"z":1}]},"b":1}');
  });

  it('keeps array order', () => {
    expect(canonicalJson([3, 1, 2])).toBe('[3,1,2]');
    expect(canonicalJson({ list: ['b', 'a', { y: 1, x: 2 }] })).toBe('{"list":["b","a",{"x":2,"y":1}]}');
    expect(canonicalJson([3, 1, 2])).not.toBe(canonicalJson([1, 2, 3]));
  });

  it('serializes primitives like JSON.stringify', () => {
    for (const value of [null, true, false, 0, -1.5, 'text "quoted" ✓', '']) expect(canonicalJson(value)).toBe(JSON.stringify(value));
  });

  it('drops undefined members like JSON.stringify', () => {
    expect(canonicalJson({ b: undefined, a: 1 })).toBe('{"a":1}');
    expect(canonicalJson([undefined, 1])).toBe('[null,1]');
  });

  it('property: is invariant under key reordering at every depth', () => {
    fc.assert(
      fc.property(json, fc.integer(), (value, seed) => {
        const canonical = canonicalJson(value);
        expect(canonicalJson(reorder(value, seed))).toBe(canonical);
        expect(canonicalJson(reverseKeys(value))).toBe(canonical);
      }),
      { numRuns: 300 },
    );
  });

  it('property: preserves the value (parses back to an equal value)', () => {
    fc.assert(
      fc.property(json, (value) => {
        expect(JSON.parse(canonicalJson(value))).toEqual(JSON.parse(JSON.stringify(value)));
      }),
      { numRuns: 300 },
    );
  });

  it('property: is idempotent and lists the (non-index) keys of every object sorted', () => {
    fc.assert(
      fc.property(json, (value) => {
        const canonical = canonicalJson(value);
        expect(canonicalJson(JSON.parse(canonical))).toBe(canonical);
        const check = (v: unknown): void => {
          if (Array.isArray(v)) v.forEach(check);
          else if (v !== null && typeof v === 'object') {
            // A JS object always lists integer-like keys first, in numeric order; the rest are sorted.
            const keys = Object.keys(v).filter((key) => !/^(0|[1-9]\d{0,8})$/.test(key));
            expect(keys).toEqual([...keys].sort());
            Object.values(v).forEach(check);
          }
        };
        check(JSON.parse(canonical));
      }),
      { numRuns: 200 },
    );
  });

  it('property: reordering array elements changes the result', () => {
    fc.assert(
      fc.property(fc.uniqueArray(fc.integer(), { minLength: 2, maxLength: 10 }), (items) => {
        expect(canonicalJson([...items].reverse())).not.toBe(canonicalJson(items));
      }),
      { numRuns: 100 },
    );
  });

  // canonicalJson skips the copy when keys are already in order: either way, the text must be
  // the one the copying form gives (journals on disk hold hashes of it).
  it('property: gives the text of the plain sort-and-copy form, for keys in order or not', () => {
    const copySorted = (value: unknown): unknown => {
      if (Array.isArray(value)) return value.map(copySorted);
      if (value === null || typeof value !== 'object') return value;
      return Object.fromEntries(
        Object.keys(value)
          .sort()
          .map((key) => [key, copySorted((value as Record<string, unknown>)[key])]),
      );
    };
    const anyJson = fc.jsonValue({ maxDepth: 4 }) as fc.Arbitrary<Json>;
    fc.assert(
      fc.property(anyJson, (value) => {
        const expected = JSON.stringify(copySorted(value));
        expect(canonicalJson(value)).toBe(expected);
        expect(canonicalJson(JSON.parse(expected))).toBe(expected);
      }),
      { numRuns: 300 },
    );
    // Integer-like keys, which objects list first in numeric order, and values that are not plain.
    for (const value of [JSON.parse('{"10":1,"9":2,"a":3}'), { b: 1, a: [{ d: 1, c: 2 }] }, { at: new Date(0) }, [undefined, { b: undefined, a: 1 }]]) {
      expect(canonicalJson(value)).toBe(JSON.stringify(copySorted(value)));
    }
  });

  it('tells apart objects that differ only in a value', () => {
    expect(canonicalJson({ a: 1, b: 2 })).not.toBe(canonicalJson({ b: 1, a: 2 }));
  });

  // Regression: sortKeys() copies members with `out[key] = ...` into a plain object, so an own
  // "__proto__" member (as JSON.parse produces) sets the copy's prototype instead and vanishes.
  // Distinct arguments then share one canonical form, e.g. {"__proto__":1} and {}.
  it('keeps an own "__proto__" member, as JSON.parse produces it', () => {
    const value = JSON.parse('{"b":2,"__proto__":{"x":1}}') as unknown;
    expect(canonicalJson(value)).toBe('{"__proto__":{"x":1},"b":2}');
    expect(canonicalJson(JSON.parse('{"__proto__":1}'))).not.toBe(canonicalJson({}));
  });
});
