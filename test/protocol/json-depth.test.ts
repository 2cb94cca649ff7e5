/**
 * The nesting-depth check before parsing (json-depth.ts) answers as the plain byte-by-byte
 * walk it replaced, for any bytes and any bound: its shortcut (counting '{' and '[' first)
 * may only skip the walk where the walk would have said no.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { MAX_MESSAGE_DEPTH, nestsDeeperThan } from '../../src/protocol/json-depth.js';

/** The walk as it was first written: one loop, a flag for "inside a string". */
function referenceNestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < bytes.length; i++) {
    const byte = bytes[i];
    if (inString) {
      if (byte === 0x5c) i++;
      else if (byte === 0x22) inString = false;
    } else if (byte === 0x22) {
      inString = true;
    } else if (byte === 0x7b || byte === 0x5b) {
      if (++depth > maxDepth) return true;
    } else if (byte === 0x7d || byte === 0x5d) {
      depth--;
    }
  }
  return false;
}

const encoder = new TextEncoder();
/** Bytes made mostly of what the walk looks at: brackets, quotes, escapes. */
const structuralBytes = fc.array(fc.constantFrom(...encoder.encode('{}[]"\\a :,')), { maxLength: 300 }).map((bytes) => Uint8Array.from(bytes));
const jsonBytes = fc.jsonValue({ maxDepth: 12 }).map((value) => encoder.encode(JSON.stringify(value)));

describe('nestsDeeperThan', () => {
  it('answers as the byte-by-byte walk for any bytes and bound', () => {
    fc.assert(
      fc.property(fc.oneof(structuralBytes, jsonBytes), fc.integer({ min: 0, max: 12 }), (bytes, maxDepth) => {
        expect(nestsDeeperThan(bytes, maxDepth)).toBe(referenceNestsDeeperThan(bytes, maxDepth));
        // A Buffer (what a socket gives) has an indexOf of its own.
        expect(nestsDeeperThan(Buffer.from(bytes), maxDepth)).toBe(referenceNestsDeeperThan(bytes, maxDepth));
      }),
      { numRuns: 2000 },
    );
  });

  it('refuses a deep body, not brackets that only stand in strings', () => {
    const deep = encoder.encode(`${'['.repeat(MAX_MESSAGE_DEPTH + 1)}${']'.repeat(MAX_MESSAGE_DEPTH + 1)}`);
    expect(nestsDeeperThan(deep, MAX_MESSAGE_DEPTH)).toBe(true);
    const quoted = encoder.encode(JSON.stringify({ text: '['.repeat(10 * MAX_MESSAGE_DEPTH), escaped: '\\"[[' }));
    expect(nestsDeeperThan(quoted, MAX_MESSAGE_DEPTH)).toBe(false);
    const exactly = encoder.encode(`${'{"a":'.repeat(MAX_MESSAGE_DEPTH)}1${'}'.repeat(MAX_MESSAGE_DEPTH)}`);
    expect(nestsDeeperThan(exactly, MAX_MESSAGE_DEPTH)).toBe(false);
    expect(nestsDeeperThan(exactly, MAX_MESSAGE_DEPTH - 1)).toBe(true);
  });
});
