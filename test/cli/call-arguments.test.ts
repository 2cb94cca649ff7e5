/**
 * `key=value` words typed by the tool's input schema (src/cli/call-arguments.ts): a number is
 * a plain decimal, as JSON writes one (`0x10` and `0b11` stay text, for the tool's validation
 * to refuse), and the type is read through local $refs, allOf and const, so that an argument
 * declared a string through a $ref stays a string.
 */
import { describe, expect, it } from 'vitest';
import { withPairs } from '../../src/cli/call-arguments.js';

const typed = (schema: unknown, ...pairs: Array<[string, string]>): Record<string, unknown> => withPairs({}, pairs, schema);

describe('key=value typing', () => {
  const limit = { type: 'object', properties: { limit: { type: 'integer' }, scale: { type: 'number' } } };

  it('reads plain decimal numbers only: hex, binary, octal, padded or signed-plus numbers stay text', () => {
    expect(typed(limit, ['limit', '16'], ['scale', '-1.5e3'])).toEqual({ limit: 16, scale: -1500 });
    for (const text of ['0x10', '0b11', '0o7', ' 5', '5 ', '+5', '.5', '5.', 'Infinity', '1_000', '']) expect(typed(limit, ['limit', text]), text).toEqual({ limit: text });
  });

  it('follows a local $ref (#/$defs and #/definitions): a name declared a string stays a string', () => {
    const schema = {
      type: 'object',
      $defs: { Name: { type: 'string' }, Count: { type: 'integer' } },
      definitions: { Flag: { type: 'boolean' } },
      properties: { name: { $ref: '#/$defs/Name' }, count: { $ref: '#/$defs/Count' }, flag: { $ref: '#/definitions/Flag' } },
    };
    expect(typed(schema, ['name', '42'], ['count', '42'], ['flag', 'true'])).toEqual({ name: '42', count: 42, flag: true });
  });

  it('reads allOf as all of its parts, and a const as its value', () => {
    const schema = {
      type: 'object',
      $defs: { Text: { type: 'string' } },
      properties: {
        label: { allOf: [{ $ref: '#/$defs/Text' }, { minLength: 1 }] },
        mode: { const: 3 },
        kind: { const: '7' },
        ratio: { allOf: [{ type: 'number' }, { type: 'integer' }] },
      },
    };
    expect(typed(schema, ['label', '1e3'], ['mode', '3'], ['kind', '7'], ['ratio', '2'])).toEqual({ label: '1e3', mode: 3, kind: '7', ratio: 2 });
  });

  it('follows a $ref to the properties themselves, and stops at a $ref that refers to itself', () => {
    const schema = { $ref: '#/$defs/Args', $defs: { Args: { type: 'object', properties: { id: { type: 'string' } } }, Loop: { $ref: '#/$defs/Loop' } } };
    expect(typed(schema, ['id', '12'])).toEqual({ id: '12' });
    const looping = { type: 'object', $defs: { Loop: { $ref: '#/$defs/Loop' } }, properties: { x: { $ref: '#/$defs/Loop' } } };
    // Untyped in the end: read as JSON when it reads as JSON.
    expect(typed(looping, ['x', '12'])).toEqual({ x: 12 });
  });
});
