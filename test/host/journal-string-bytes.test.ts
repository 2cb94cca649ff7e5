import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { stringBytes } from '../../src/host/call-journal.js';

/** The walk it replaced: Object.values at every level. */
function byValues(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length;
  if (depth === 0 || value === null || typeof value !== 'object') return 0;
  let bytes = 0;
  for (const item of Object.values(value)) bytes += byValues(item, depth - 1);
  return bytes;
}

describe('stringBytes: what a finished read-only call is counted against the budget', () => {
  it('counts any JSON value (results and arguments, whatever their keys) as the Object.values walk did', () => {
    fc.assert(
      fc.property(fc.jsonValue({ maxDepth: 6 }), fc.dictionary(fc.constantFrom('__proto__', 'toJSON', 'length', '0', 'a'), fc.jsonValue()), fc.nat({ max: 6 }), (value, odd, depth) => {
        expect(stringBytes(value, depth)).toBe(byValues(value, depth));
        expect(stringBytes(odd, depth)).toBe(byValues(odd, depth));
        expect(stringBytes(JSON.parse(JSON.stringify(odd)), depth)).toBe(byValues(JSON.parse(JSON.stringify(odd)), depth));
      }),
      { numRuns: 3000 },
    );
  });
});
