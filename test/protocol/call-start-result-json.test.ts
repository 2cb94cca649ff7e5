import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { callStartResultJson, timestampJson } from '../../src/protocol/call-start-result-json.js';
import { RpcConnection } from '../../src/protocol/connection.js';
import { concat } from '../../src/protocol/frame-decoder.js';
import { frameBytes, type Frame } from '../../src/protocol/frame-encoder.js';
import { METHOD_TABLE, METHODS, type CallStartResult } from '../../src/protocol/index.js';
import { JsonParams } from '../../src/protocol/json-params.js';
import { LONG_STRING_CHARS, jsonBody } from '../../src/protocol/json-parts.js';
import { FramedTransport, type ByteStream } from '../../src/protocol/transport.js';
import { anyJson, anyText, expectJsonOrUnchanged } from './json-arbitraries.js';

const json = anyJson;
const longText = anyText.filter((text) => text.length > 0).map((text) => text.repeat(Math.ceil(LONG_STRING_CHARS / text.length)));

/** Epoch times now and in any year, and every other number a timestamp field could hold. */
const timestamps = fc.oneof(
  fc.integer({ min: 1_700_000_000_000, max: 1_900_000_000_000 }),
  fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }),
  fc.constantFrom(999_999, 1_000_000, 1_000_001, 1_999_999_999, 1_000_000_000_000, Number.MAX_SAFE_INTEGER, Number.MAX_SAFE_INTEGER + 1, 2 ** 60, 1e21, -0, -1_700_000_000_000),
  fc.double(),
  fc.integer(),
);

/** Results as tools return them (text, structured content, isError), and any other JSON. */
const results = fc.oneof(
  fc.record({ content: fc.array(fc.record({ type: fc.constant('text'), text: anyText }), { maxLength: 3 }) }),
  fc.record(
    { content: fc.array(fc.record({ type: fc.constant('text'), text: anyText })), structuredContent: fc.dictionary(anyText, json, { maxKeys: 3 }), isError: fc.boolean() },
    { requiredKeys: ['content'] },
  ),
  fc.record({ content: fc.constant([{ type: 'text', text: 'x' }]), huge: longText }),
  json,
);

/** Answers as the host builds them (outcomeOf): callId, result, replayed, attachedTo for an alias, startedAt, finishedAt. */
const hostAnswers = fc
  .record({
    callId: fc.oneof(fc.uuid(), anyText),
    result: results,
    replayed: fc.boolean(),
    attachedTo: fc.option(fc.oneof(fc.uuid(), anyText), { nil: undefined }),
    startedAt: timestamps,
    finishedAt: timestamps,
  })
  .map(
    ({ callId, result, replayed, attachedTo, startedAt, finishedAt }) => ({ callId, result, replayed, ...(attachedTo === undefined ? {} : { attachedTo }), startedAt, finishedAt }) as CallStartResult,
  );

/** And answers of other shapes: members in another order, missing, undefined, extra, of other types. */
const otherAnswers = fc
  .array(fc.tuple(fc.constantFrom('callId', 'result', 'replayed', 'attachedTo', 'startedAt', 'finishedAt', 'extra', 'toJSON'), fc.oneof(json, results, timestamps, fc.constant(undefined))), {
    maxLength: 8,
  })
  .map((members) => Object.fromEntries(members) as unknown as CallStartResult);

const answers = fc.oneof(
  { arbitrary: hostAnswers, weight: 3 },
  { arbitrary: otherAnswers, weight: 1 },
  { arbitrary: fc.constantFrom(undefined, null, 'text', 1, []) as unknown as fc.Arbitrary<CallStartResult>, weight: 1 },
);

function bodyText(body: string | Uint8Array[]): string {
  return typeof body === 'string' ? body : Buffer.from(concat(body)).toString('utf8');
}

/** A stream that keeps what is written to it, and delivers what a test pushes. */
class Recorder implements ByteStream {
  readonly written: Uint8Array[] = [];
  closed = false;
  push: ((chunk: Uint8Array) => void) | undefined;
  start(handlers: { data(chunk: Uint8Array): void }): void {
    this.push = (chunk) => handlers.data(chunk);
  }
  write(frame: Frame): void {
    this.written.push(frameBytes(frame).slice());
  }
  end(): void {
    this.closed = true;
  }
}

describe('timestampJson', () => {
  it('writes any number as JSON.stringify does, call after call', () => {
    fc.assert(
      fc.property(fc.array(timestamps, { minLength: 1, maxLength: 20 }), (sequence) => {
        for (const ms of sequence) expect(timestampJson(ms)).toBe(JSON.stringify(ms));
      }),
      { numRuns: 3000 },
    );
  });
});

describe('callStartResultJson: the answer to calls/start with its JSON written by hand', () => {
  it('gives the JSON.stringify text of the answer whenever it writes it, and writes every host answer without a long string', () => {
    fc.assert(
      fc.property(answers, (answer) => expectJsonOrUnchanged(callStartResultJson(answer), answer)),
      { numRuns: 5000 },
    );
    // The host's own answers are written by hand unless their result holds a long string.
    fc.assert(
      fc.property(hostAnswers, (answer) => {
        const holdsLong = JSON.stringify(answer.result ?? null).length > LONG_STRING_CHARS;
        const plainNumbers = Number.isFinite(answer.startedAt) && Number.isFinite(answer.finishedAt);
        if (!holdsLong && plainNumbers && answer.result !== undefined) expect(callStartResultJson(answer)).toBeInstanceOf(JsonParams);
      }),
      { numRuns: 2000 },
    );
  });

  it('gives the JSON.stringify text of the response the connection builds around it, for any id', () => {
    fc.assert(
      fc.property(answers, fc.oneof(fc.nat(), fc.integer(), anyText), (answer, id) => {
        const response = { jsonrpc: '2.0' as const, id, result: callStartResultJson(answer) ?? {} };
        expect(bodyText(jsonBody(response))).toBe(JSON.stringify({ jsonrpc: '2.0', id, result: answer ?? {} }));
      }),
      { numRuns: 1500 },
    );
  });

  it('is what a connection serving calls/start writes, byte for byte the frame of the plain answer', async () => {
    expect(METHOD_TABLE.callStart.resultJson).toBe(callStartResultJson);
    await fc.assert(
      fc.asyncProperty(hostAnswers, fc.oneof(fc.nat(), anyText), async (answer, id) => {
        const stream = new Recorder();
        const rpc = new RpcConnection(new FramedTransport(stream)).start();
        rpc.handle(METHOD_TABLE.callStart, async () => answer);
        const request = JSON.stringify({ jsonrpc: '2.0', id, method: METHODS.callStart, params: { callId: 'c-1', tool: 'echo' } });
        stream.push?.(frameBytes(`Content-Length: ${Buffer.byteLength(request)}\r\n\r\n${request}`));
        await new Promise((resolve) => setImmediate(resolve));
        const plain = JSON.stringify({ jsonrpc: '2.0', id, result: answer });
        expect(stream.written).toHaveLength(1);
        expect(Buffer.from(stream.written[0]!).equals(Buffer.from(`Content-Length: ${Buffer.byteLength(plain)}\r\n\r\n${plain}`))).toBe(true);
        rpc.close();
      }),
      { numRuns: 300 },
    );
  });
});
