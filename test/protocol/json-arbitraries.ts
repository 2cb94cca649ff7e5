/** Generators and the check for the property tests that hold hand-written JSON to JSON.stringify. */
import fc from 'fast-check';
import { expect } from 'vitest';
import { JsonParams } from '../../src/protocol/json-params.js';

/** Any UTF-16 text: lone surrogates, pairs, control characters, quotes, backslashes, non-ASCII. */
export const anyText = fc.oneof(fc.string({ unit: 'binary' }), fc.string({ unit: fc.constantFrom('a', '"', '\\', '\n', '\u0000', '\u001f', 'é', '😀', '\ud83d', '\ude00', '\u2028', '\u007f') }));

/** Values of every JSON shape, with keys and strings of any text. */
export const anyJson = fc.letrec((tie) => ({
  value: fc.oneof(
    { depthSize: 'small' },
    fc.constant(null),
    fc.boolean(),
    fc.double(),
    fc.integer(),
    anyText,
    fc.array(tie('value'), { maxLength: 3 }),
    fc.dictionary(anyText, tie('value'), { maxKeys: 3 }),
  ),
})).value;

/**
 * What a hand-written JSON maker (callStartJson, callStartResultJson) must give for `sent`:
 * its JSON.stringify text beside the value itself, or, for what it leaves to the frame writer
 * (a long string, a shape it does not know), the value unchanged.
 */
export function expectJsonOrUnchanged(made: unknown, sent: unknown): void {
  if (made instanceof JsonParams) {
    expect(made.json).toBe(JSON.stringify(sent));
    expect(made.value).toBe(sent);
  } else expect(made).toBe(sent);
}

/**
 * Tool results of the common shape (tool-result-json.ts) from the given texts and structured
 * contents: their keys in the MCP schema's order, each optional one absent, undefined or set.
 */
export function commonToolResults(text: fc.Arbitrary<string>, structured: fc.Arbitrary<Record<string, unknown>>): fc.Arbitrary<Record<string, unknown>> {
  return fc
    .record(
      {
        content: fc.array(
          text.map((t) => ({ type: 'text', text: t })),
          { maxLength: 4 },
        ),
        structuredContent: fc.option(structured, { nil: undefined }),
        isError: fc.option(fc.boolean(), { nil: undefined }),
      },
      { requiredKeys: ['content'] },
    )
    .map((result) => {
      // fc.record writes the keys it sets in the order given, but an order of our own is what is tested.
      const ordered: Record<string, unknown> = {};
      for (const key of ['content', 'structuredContent', 'isError']) if (key in result) ordered[key] = (result as Record<string, unknown>)[key];
      return ordered;
    });
}
