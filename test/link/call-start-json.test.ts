import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callStartJson } from '../../src/link/call-start-json.js';
import { concat } from '../../src/protocol/frame-decoder.js';
import { frameBytes, type Frame } from '../../src/protocol/frame-encoder.js';
import { JsonParams } from '../../src/protocol/json-params.js';
import { LONG_STRING_CHARS, jsonBody, quoteJson } from '../../src/protocol/json-parts.js';
import { RpcConnection } from '../../src/protocol/connection.js';
import { FramedTransport, type ByteStream } from '../../src/protocol/transport.js';
import { METHODS, type CallStartParams } from '../../src/protocol/index.js';
import { anyJson, anyText, expectJsonOrUnchanged } from '../protocol/json-arbitraries.js';

const longText = anyText.filter((text) => text.length > 0).map((text) => text.repeat(Math.ceil(LONG_STRING_CHARS / text.length)));
const args = fc.oneof(
  { arbitrary: fc.dictionary(anyText, anyJson, { maxKeys: 4 }), weight: 6 },
  { arbitrary: anyJson, weight: 2 },
  { arbitrary: fc.record({ text: longText, value: anyJson }), weight: 1 },
);

/** A member the fronts leave out, or write with undefined (JSON.stringify drops both). */
function maybe<T>(value: fc.Arbitrary<T>): fc.Arbitrary<{ value: T } | { value: undefined } | undefined> {
  return fc.oneof(
    fc.constant(undefined),
    fc.constant({ value: undefined }),
    value.map((v) => ({ value: v })),
  );
}

/** Names that come back call after call (the last one is remembered), and any other. */
const names = fc.oneof(fc.constantFrom('echo', 'a"b', 'é', ''), anyText);

/** The fronts' agents: `{ name }` and `{ name, version }`. */
const frontAgent = fc.record({ name: names, version: fc.option(names, { nil: undefined }) }, { requiredKeys: ['name'] });
/** And every other shape one could take. */
const anyAgent = fc.oneof(
  frontAgent,
  fc.record({ name: anyText, version: anyText, extra: anyJson }),
  fc.record({ version: anyText, name: anyText }),
  fc.record({ name: anyJson, version: anyJson }, { requiredKeys: [] }),
  anyJson,
);

/** Params built as the fronts build them (callId, tool, arguments, deadlineMs, agent), and as a re-attach adds attachOnly. */
function paramsOf(shape: {
  callId: fc.Arbitrary<unknown>;
  arguments: fc.Arbitrary<unknown>;
  deadlineMs: fc.Arbitrary<unknown>;
  agent: fc.Arbitrary<unknown>;
  attachOnly: fc.Arbitrary<unknown>;
}): fc.Arbitrary<CallStartParams> {
  return fc
    .record({
      callId: shape.callId,
      tool: fc.oneof(names, shape.callId),
      arguments: maybe(shape.arguments),
      deadlineMs: maybe(shape.deadlineMs),
      agent: maybe(shape.agent),
      attachOnly: maybe(shape.attachOnly),
    })
    .map(({ callId, tool, arguments: given, deadlineMs, agent, attachOnly }) => {
      const built: Record<string, unknown> = { callId, tool };
      if (given) built.arguments = given.value;
      if (deadlineMs) built.deadlineMs = deadlineMs.value;
      if (agent) built.agent = agent.value;
      const sent = attachOnly ? { ...built, attachOnly: attachOnly.value } : built;
      return sent as unknown as CallStartParams;
    });
}

/** What the fronts send: strings, a positive integer, a boolean, arguments without long strings. */
const frontParams = paramsOf({
  callId: fc.oneof(fc.uuid(), anyText),
  arguments: fc.oneof(fc.dictionary(anyText, anyJson, { maxKeys: 4 }), anyJson),
  deadlineMs: fc.integer({ min: 1 }),
  agent: frontAgent,
  attachOnly: fc.boolean(),
});
/** And anything else the type would let through, or not. */
const params = fc.oneof(frontParams, paramsOf({ callId: fc.oneof(anyText, anyJson), arguments: args, deadlineMs: fc.oneof(fc.integer(), fc.double(), anyJson), agent: anyAgent, attachOnly: anyJson }));

const ids = fc.oneof(fc.nat(), fc.integer(), fc.double(), anyText);

/** Compared as bytes, in hex when they differ: a diff of two long JSON texts reads better so. */
function expectSameBytes(got: Uint8Array, want: Uint8Array): void {
  if (!Buffer.from(got).equals(Buffer.from(want))) expect(Buffer.from(got).toString('hex')).toBe(Buffer.from(want).toString('hex'));
}

function bodyBytes(body: string | Uint8Array[]): Uint8Array {
  return typeof body === 'string' ? Buffer.from(body) : concat(body);
}

/** A stream that keeps what is written to it. */
class Recorder implements ByteStream {
  readonly written: Uint8Array[] = [];
  closed = false;
  start(): void {}
  write(frame: Frame): void {
    this.written.push(frameBytes(frame).slice());
  }
  end(): void {
    this.closed = true;
  }
}

/** The frame an RpcConnection writes for its first request with these params. */
function firstFrame(params: unknown): Uint8Array {
  const stream = new Recorder();
  const rpc = new RpcConnection(new FramedTransport(stream));
  rpc.request(METHODS.callStart, params).catch(() => undefined);
  rpc.close();
  return stream.written[0]!;
}

describe('callStartJson: the calls/start params with their JSON written by hand', () => {
  it('quotes any string as JSON.stringify does', () => {
    fc.assert(
      fc.property(anyText, (text) => {
        expect(quoteJson(text)).toBe(JSON.stringify(text));
      }),
      { numRuns: 3000 },
    );
  });

  it('gives the JSON.stringify bytes of the params, whatever they hold', () => {
    fc.assert(
      // Arguments holding a long string are left to the frame writer, which slices them.
      fc.property(params, (sent) => expectJsonOrUnchanged(callStartJson(sent), sent)),
      { numRuns: 3000 },
    );
  });

  it('writes the JSON itself for every params a front sends', () => {
    fc.assert(
      fc.property(frontParams, (sent) => {
        const made = callStartJson(sent);
        expect(made).toBeInstanceOf(JsonParams);
        expect((made as JsonParams).json).toBe(JSON.stringify(sent));
      }),
      { numRuns: 2000 },
    );
  });

  it('makes the frame body JSON.stringify makes of the message, for any id', () => {
    fc.assert(
      fc.property(params, ids, fc.boolean(), (sent, id, request) => {
        const envelope = request ? { jsonrpc: '2.0' as const, id, method: METHODS.callStart } : { jsonrpc: '2.0' as const, method: METHODS.callStart };
        // Another method now and then: the envelope remembers the last method's JSON.
        const other = { jsonrpc: '2.0' as const, method: 'calls/"other"', params: new JsonParams(1, '1') };
        expect(jsonBody(other)).toBe(JSON.stringify({ ...other, params: 1 }));
        expectSameBytes(bodyBytes(jsonBody({ ...envelope, params: callStartJson(sent) })), Buffer.from(JSON.stringify({ ...envelope, params: sent })));
      }),
      { numRuns: 1000 },
    );
  });

  it('has an RpcConnection write the frame it writes for the params themselves', () => {
    fc.assert(
      fc.property(params, (sent) => expectSameBytes(firstFrame(callStartJson(sent)), firstFrame(sent))),
      { numRuns: 300 },
    );
  });

  it('leaves arguments that hold a long string to the frame writer, which slices them', () => {
    const sent = { callId: 'c', tool: 't', arguments: { text: 'x'.repeat(LONG_STRING_CHARS) } };
    expect(callStartJson(sent)).toBe(sent);
    const body = jsonBody({ jsonrpc: '2.0', id: 1, method: METHODS.callStart, params: sent });
    expect(typeof body).not.toBe('string');
  });

  it('writes the members in the order the fronts build them', () => {
    const made = callStartJson({ callId: 'c', tool: 't', arguments: {}, deadlineMs: 5, agent: { name: 'a', version: '1' }, attachOnly: true });
    expect((made as JsonParams).json).toBe('{"callId":"c","tool":"t","arguments":{},"deadlineMs":5,"agent":{"name":"a","version":"1"},"attachOnly":true}');
  });
});
