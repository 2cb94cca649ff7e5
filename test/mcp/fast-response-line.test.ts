/**
 * The fast path writes a plain result's response line itself (tool-result-wire.ts has the
 * result's JSON built, fast-call-transport.ts the line around it) instead of the SDK's
 * `JSON.stringify` of the message: the bytes must be the SDK's (`serializeMessage`:
 * `JSON.stringify(message) + '\n'`), for every result the fast path writes that way and every
 * id. Results it does not build itself (the SDK's parse reshapes them) carry no `json`.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { resultLine } from '../../src/mcp/fast-path/fast-call-transport.js';
import { wireToolResult } from '../../src/mcp/fast-path/tool-result-wire.js';
import { LONG_STRING_CHARS } from '../../src/protocol/json-parts.js';
import { commonToolResults } from '../protocol/json-arbitraries.js';

/** What the SDK writes for a result response. */
const sdkLine = (id: string | number, result: unknown): string => `${JSON.stringify({ result, jsonrpc: '2.0', id })}\n`;

/** Strings with what JSON escapes: quotes, backslashes, control characters, lone surrogates, U+2028, non-ASCII. */
const text = fc.oneof(
  fc.string({ unit: 'binary', maxLength: 40 }),
  fc.string({ unit: fc.constantFrom('"', '\\', '\n', '\u0000', '\u001f', '\u2028', '\ud800', '\udfff', 'é', '😀', 'a', '/'), maxLength: 20 }),
  fc.constant(''),
);
// As parsed from the host's JSON: a plain object (a `__proto__` key is left to the SDK's parse).
const structured = fc
  .dictionary(
    text.filter((key) => key !== '__proto__'),
    fc.jsonValue(),
    { maxKeys: 5 },
  )
  .map((d) => ({ ...d }));
const id = fc.oneof(fc.integer({ min: Number.MIN_SAFE_INTEGER, max: Number.MAX_SAFE_INTEGER }), text);

/** Results of the common shape: keys in the schema's order, each maybe absent or undefined. */
const commonResult = commonToolResults(text, structured);

describe('the fast path’s own response line', () => {
  it('is the SDK’s line for every result of the common shape and every id', () => {
    fc.assert(
      fc.property(commonResult, id, (result, requestId) => {
        const wire = wireToolResult(result as never);
        expect(wire.ok).toBe(true);
        if (!wire.ok) return;
        expect(wire.json).toBeDefined();
        expect(resultLine(requestId, wire.json as string)).toBe(sdkLine(requestId, wire.value));
        // The result it stands for is the one given, unchanged (as the SDK's parse returns it).
        expect(wire.value).toBe(result);
      }),
      { numRuns: 2000 },
    );
  });

  it('is not built for results the SDK’s parse reshapes (those go through send)', () => {
    const reshaped = [
      { isError: false, content: [{ type: 'text', text: 'keys out of order' }] },
      { content: [{ type: 'image', data: 'AAAA', mimeType: 'image/png' }] },
      { content: [{ text: 'key order', type: 'text' }] },
      { content: [], _meta: { a: 1 } },
      { structuredContent: { a: 1 } },
      { content: [{ type: 'text', text: 'x', annotations: { priority: 1 } }] },
    ];
    for (const result of reshaped) {
      const wire = wireToolResult(result as never);
      expect(wire.ok && wire.json).toBeFalsy();
    }
  });

  it('is not built for a result that holds a long string: the SDK writes it whole, unparsed', () => {
    const long = 'é'.repeat(LONG_STRING_CHARS);
    for (const result of [{ content: [{ type: 'text', text: long }] }, { content: [], structuredContent: { nested: [long] } }]) {
      const wire = wireToolResult(result as never);
      expect(wire.ok && wire.json).toBeUndefined();
      expect(wire.ok && wire.value).toBe(result);
    }
  });

  it('writes a few known lines exactly', () => {
    const one = wireToolResult({ content: [{ type: 'text', text: 'ping' }] });
    expect(one.ok && resultLine(2, one.json as string)).toBe('{"result":{"content":[{"type":"text","text":"ping"}]},"jsonrpc":"2.0","id":2}\n');
    const both = wireToolResult({ content: [], structuredContent: { n: 1, s: 'a"b' }, isError: true });
    expect(both.ok && resultLine('a"\u2028', both.json as string)).toBe('{"result":{"content":[],"structuredContent":{"n":1,"s":"a\\"b"},"isError":true},"jsonrpc":"2.0","id":"a\\"\u2028"}\n');
  });
});
