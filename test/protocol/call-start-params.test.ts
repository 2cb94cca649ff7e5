/**
 * `calls/start` params read without zod (call-start-params.ts) are what the schema's parse
 * returns, key order included, and only params the schema accepts are read so: anything
 * else goes to the schema, whose refusal is the answer. The usual params take the fast read.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { fastCallStartParams } from '../../src/protocol/call-start-params.js';
import { METHOD_TABLE } from '../../src/protocol/method-table.js';
import { CallStartParams } from '../../src/protocol/methods.js';

/** Keys in order at every level, and the values: what JSON.stringify and a key walk would see. */
function shapeOf(value: unknown): unknown {
  if (typeof value !== 'object' || value === null) return value;
  if (Array.isArray(value)) return value.map(shapeOf);
  return Object.entries(value).map(([key, item]) => [key, shapeOf(item)]);
}

const text = (max: number): fc.Arbitrary<string> => fc.string({ maxLength: max, unit: 'binary' });
const oddValue = fc.oneof(fc.constant(undefined), fc.constant(null), fc.integer(), fc.double(), fc.boolean(), text(5), fc.array(fc.integer(), { maxLength: 2 }), fc.constant({}));
/** Mostly `usual`, sometimes anything else. */
const mostly = <T>(usual: fc.Arbitrary<T>): fc.Arbitrary<unknown> => fc.oneof({ arbitrary: usual, weight: 5 }, { arbitrary: oddValue, weight: 1 });
const agent = fc.oneof(
  { arbitrary: fc.record({ name: text(210), version: text(210) }, { requiredKeys: ['name'] }), weight: 4 },
  fc.record({ version: text(3), name: text(3) }),
  fc.record({ name: text(3), extra: oddValue }),
  oddValue,
);
const args = mostly(fc.dictionary(fc.oneof(text(4), fc.constantFrom('__proto__', '0', '1')), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }));
/** Params near the usual ones: each key maybe missing, maybe odd, rarely one too many. */
const params = fc
  .record(
    {
      callId: mostly(text(210)),
      tool: mostly(text(6)),
      arguments: args,
      deadlineMs: mostly(fc.oneof(fc.integer({ min: -5, max: 2 ** 31 }), fc.constantFrom(0, 1.5, 2 ** 53, Number.NaN))),
      attachOnly: mostly(fc.boolean()),
      agent,
      other: fc.option(oddValue, { freq: 10 }),
    },
    { requiredKeys: ['callId', 'tool'] },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);
/**
 * Params of the usual shape, every member of its type (any one missing): most of them are
 * read, so that the comparison below runs on hundreds of params, not on the few dozen that
 * `params` gives by chance (about 80 in 3,000, and under 60 in some runs).
 */
const usualParams = fc
  .record(
    {
      callId: text(210),
      tool: text(6),
      arguments: fc.dictionary(text(4), fc.jsonValue({ maxDepth: 2 }), { maxKeys: 4 }),
      deadlineMs: fc.integer({ min: 1, max: 2 ** 31 }),
      attachOnly: fc.boolean(),
      agent: fc.record({ name: text(20), version: text(20) }, { requiredKeys: ['name'] }),
    },
    { requiredKeys: ['callId', 'tool'] },
  )
  .map((value) => JSON.parse(JSON.stringify(value)) as unknown);

describe('fastCallStartParams', () => {
  it('gives what the schema gives, or leaves the params to it', () => {
    let read = 0;
    fc.assert(
      fc.property(fc.oneof({ arbitrary: params, weight: 4 }, { arbitrary: usualParams, weight: 1 }, { arbitrary: fc.jsonValue({ maxDepth: 3 }), weight: 1 }), (raw) => {
        const fast = fastCallStartParams(raw);
        if (fast === undefined) return;
        read++;
        const parsed = CallStartParams.safeParse(raw);
        expect(parsed.success).toBe(true);
        expect(shapeOf(fast)).toStrictEqual(shapeOf(parsed.data));
        // A copy, as the schema's: a handler that changes the arguments changes no one else's.
        if (typeof raw === 'object' && raw !== null && 'arguments' in raw) expect(fast.arguments).not.toBe(raw.arguments);
      }),
      { numRuns: 3000 },
    );
    // The comparison ran on many params, not on none.
    expect(read).toBeGreaterThan(60);
  });

  it('reads the usual params (what the link sends) itself', () => {
    const usual = [
      { callId: 'c-1', tool: 'echo', arguments: { text: 'ping' } },
      { callId: 'c-2', tool: 'echo', arguments: { text: 'ping' }, agent: { name: 'claude-code', version: '1.0.0' } },
      { callId: 'c-3', tool: 'build', arguments: {}, deadlineMs: 60_000, attachOnly: true, agent: { name: 'cursor' } },
      { tool: 'echo', callId: 'c-4' },
    ];
    for (const raw of usual) {
      const fast = fastCallStartParams(JSON.parse(JSON.stringify(raw)));
      expect(fast).toBeDefined();
      expect(shapeOf(fast)).toStrictEqual(shapeOf(CallStartParams.parse(raw)));
    }
    expect(METHOD_TABLE.callStart.fastParams).toBe(fastCallStartParams);
  });

  it('leaves to the schema what it refuses or changes', () => {
    const refusedOrChanged = [
      undefined,
      null,
      [],
      { callId: '', tool: 'echo' },
      { callId: 'x'.repeat(201), tool: 'echo' },
      { callId: 'c', tool: '' },
      { callId: 'c', tool: 'echo', arguments: [] },
      { callId: 'c', tool: 'echo', deadlineMs: 0 },
      { callId: 'c', tool: 'echo', deadlineMs: 1.5 },
      { callId: 'c', tool: 'echo', deadlineMs: 2 ** 53 },
      { callId: 'c', tool: 'echo', attachOnly: 'yes' },
      { callId: 'c', tool: 'echo', agent: { name: '' } },
      { callId: 'c', tool: 'echo', agent: { name: 'a', extra: 1 } },
      { callId: 'c', tool: 'echo', unknown: 1 },
      JSON.parse('{"callId":"c","tool":"echo","arguments":{"__proto__":{"x":1}}}') as unknown,
    ];
    for (const raw of refusedOrChanged) expect(fastCallStartParams(raw)).toBeUndefined();
  });
});
