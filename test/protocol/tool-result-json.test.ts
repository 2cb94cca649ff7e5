/**
 * The common tool result's JSON, written from its shape (tool-result-json.ts) by hosts for
 * every calls/start answer and by `tether mcp`'s fast path for every response: the bytes must
 * be `JSON.stringify`'s, or nothing where a long string is left to the sliced encoder; and a
 * result of any other shape must not pass for a common one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { LONG_STRING_CHARS } from '../../src/protocol/json-parts.js';
import { commonToolResultJson, isCommonToolResult } from '../../src/protocol/tool-result-json.js';
import { anyJson, anyText, commonToolResults } from './json-arbitraries.js';

/** Now and then a text long enough to be encoded in slices. */
const text = fc.oneof({ arbitrary: anyText, weight: 9 }, { arbitrary: anyText.map((t) => `${t}${'x'.repeat(LONG_STRING_CHARS)}`), weight: 1 });
// As parsed from JSON: a plain object (a `__proto__` key of its own is not a common result's).
const structured = fc
  .dictionary(
    anyText.filter((key) => key !== '__proto__'),
    fc.oneof({ arbitrary: anyJson, weight: 9 }, { arbitrary: text, weight: 1 }),
    { maxKeys: 3 },
  )
  .map((members) => ({ ...members }));

const commonResults = commonToolResults(text, structured);

function holdsLongString(value: unknown): boolean {
  if (typeof value === 'string') return value.length >= LONG_STRING_CHARS;
  if (typeof value !== 'object' || value === null) return false;
  return Object.entries(value).some(([key, member]) => key.length >= LONG_STRING_CHARS || holdsLongString(member));
}

describe('the common tool result’s JSON', () => {
  it('is JSON.stringify’s, or left to the sliced encoder exactly when it holds a long string', () => {
    fc.assert(
      fc.property(commonResults, (result) => {
        expect(isCommonToolResult(result)).toBe(true);
        const json = commonToolResultJson(result as never);
        if (holdsLongString(result)) expect(json).toBeUndefined();
        else expect(json).toBe(JSON.stringify(result));
      }),
      { numRuns: 1000 },
    );
  });

  it('is written for nothing else: any JSON it takes for a common result is written as JSON.stringify writes it', () => {
    fc.assert(
      fc.property(anyJson, (value) => {
        if (!isCommonToolResult(value)) return;
        const json = commonToolResultJson(value);
        if (json !== undefined) expect(json).toBe(JSON.stringify(value));
      }),
      { numRuns: 2000 },
    );
  });

  it('does not take results of other shapes for common ones', () => {
    class Result {
      content = [];
    }
    const structuredWithOwnProto = JSON.parse('{"__proto__": {"a": 1}}') as unknown;
    const others: unknown[] = [
      { isError: false, content: [] },
      { structuredContent: {}, content: [] },
      { content: [], _meta: { a: 1 } },
      { content: [{ text: 'key order', type: 'text' }] },
      { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] },
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { content: [{ type: 'text', text: 1 }] },
      { content: [{ type: 'text' }] },
      { content: {} },
      { structuredContent: {} },
      { content: [], structuredContent: [] },
      { content: [], structuredContent: null },
      { content: [], structuredContent: structuredWithOwnProto },
      { content: [], structuredContent: { toJSON: () => 'its own' } },
      { content: [], isError: 'true' },
      new Result(),
      [],
      null,
      'text',
    ];
    for (const result of others) expect(isCommonToolResult(result), JSON.stringify(result)).toBe(false);
  });
});
