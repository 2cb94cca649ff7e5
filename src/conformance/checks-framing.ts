/**
 * Framing, with hand-written frames on raw sockets: frames split and merged across writes,
 * the size and header limits, bodies that are not JSON, stalled frames and idle connections.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { METHODS } from '../protocol/index.js';
import { assert, expectWireError, show } from './assertions.js';
import { authenticated } from './context.js';
import { CheckSkipped } from './errors.js';
import { helloFrame, request, type RawConnection } from './raw-connection.js';
import type { Check, CheckContext } from './types.js';

/** Longer frame timeouts would make the timeout checks slow; the host can be started with a short one. */
const MAX_TESTABLE_FRAME_TIMEOUT_MS = 5_000;
/** Far more than a hello needs (a few hundred bytes), far less than maxFrameBytes (64 MiB by default). */
const BEFORE_HELLO_BYTES = 1_000_000;

function frameTimeoutOf({ hello }: CheckContext): number {
  const { frameTimeoutMs } = hello.limits;
  if (frameTimeoutMs > MAX_TESTABLE_FRAME_TIMEOUT_MS) {
    throw new CheckSkipped(`the host's frameTimeoutMs is ${frameTimeoutMs} ms (over ${MAX_TESTABLE_FRAME_TIMEOUT_MS}); start it with a shorter one (sandbox: --frame-timeout-ms 500)`);
  }
  return frameTimeoutMs;
}

async function expectPong(connection: RawConnection, id: number, what: string): Promise<void> {
  await connection.write(request(id, METHODS.ping));
  const response = await connection.response(id, what);
  assert('result' in response, `${what}: ping failed with ${show('error' in response ? response.error : undefined)}`);
}

export const framingChecks: readonly Check[] = [
  {
    id: 'framing.byte-by-byte',
    requirement: 'FR-1',
    title: 'a hello sent in 1-byte writes is answered',
    async run({ target, raw }) {
      const connection = await raw();
      await connection.writeBytewise(helloFrame('bytewise', target));
      const response = await connection.response('bytewise', 'the answer to a hello written byte by byte');
      assert('result' in response, `the hello failed: ${show('error' in response ? response.error : undefined)}`);
    },
  },
  {
    id: 'framing.merged-frames',
    requirement: 'FR-2',
    title: 'two frames in one write are both answered',
    async run(context) {
      const connection = await authenticated(context);
      await connection.write(Buffer.concat([request(2, METHODS.ping), request(3, METHODS.toolsList)]));
      const ping = await connection.response(2, 'the answer to the first frame (ping)');
      const list = await connection.response(3, 'the answer to the second frame (tools/list)');
      assert('result' in ping, `ping failed: ${show(ping)}`);
      assert('result' in list, `tools/list failed: ${show(list)}`);
    },
  },
  {
    id: 'framing.frame-too-large',
    requirement: 'FR-3',
    title: 'a header announcing more than limits.maxFrameBytes gets FRAME_TOO_LARGE, then the connection closes',
    async run(context) {
      // The header alone must be refused: a host that waited for the body would buffer it first.
      await expectFatal(context, `Content-Length: ${context.hello.limits.maxFrameBytes + 1}\r\n\r\n`, 'FRAME_TOO_LARGE', 'an oversize frame header');
    },
  },
  {
    id: 'framing.header-invalid',
    requirement: 'FR-4',
    title: 'a malformed header gets HEADER_INVALID, then the connection closes',
    async run(context) {
      await expectFatal(context, 'Content-Length: twelve\r\n\r\n{"jsonrpc":"2.0"}', 'HEADER_INVALID', 'a malformed header');
    },
  },
  {
    id: 'framing.parse-error',
    requirement: 'FR-5',
    title: 'a body that is not JSON gets PARSE_ERROR and the connection keeps serving',
    async run(context) {
      const connection = await authenticated(context);
      const body = Buffer.from('{"jsonrpc":"2.0","id":7,', 'utf8');
      await connection.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
      const error = await connection.streamError('the PARSE_ERROR response');
      expectWireError(error.error, 'PARSE_ERROR', 'a body that is not JSON');
      await expectPong(connection, 8, 'a ping after the PARSE_ERROR');
      assert(!connection.isClosed, 'the host closed the connection after a PARSE_ERROR');
    },
  },
  {
    id: 'framing.nesting-depth',
    requirement: 'FR-8',
    title: 'a message nested 10,000 levels deep gets INVALID_REQUEST under its id, and the connection keeps serving',
    async run(context) {
      const connection = await authenticated(context);
      // A few kilobytes on the wire; parsed without a bound, megabytes of them cost a host gigabytes.
      const depth = 10_000;
      const body = Buffer.from(`{"jsonrpc":"2.0","id":9,"method":"ping","params":{"nested":${'['.repeat(depth)}${']'.repeat(depth)}}}`, 'utf8');
      await connection.write(Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`), body]));
      const response = await connection.response(9, 'the answer to a message nested 10,000 levels deep');
      expectWireError('error' in response ? response.error : undefined, 'INVALID_REQUEST', 'a message nested 10,000 levels deep');
      await expectPong(connection, 10, 'a ping after the deeply nested message');
    },
  },
  {
    id: 'framing.frame-timeout',
    requirement: 'FR-6',
    title: 'a partial frame stalled for limits.frameTimeoutMs gets FRAME_TIMEOUT, then the connection closes',
    timeoutMs: 15_000,
    async run(context) {
      const frameTimeoutMs = frameTimeoutOf(context);
      // Silent to pings: an answer would land in the middle of the partial frame (a client cannot answer mid-frame either).
      const connection = await authenticated(context, { answerPings: false });
      await connection.write('Content-Length: 64\r\n\r\n{"jsonrpc":"2.0",');
      const stalledAt = Date.now();
      const error = await connection.streamError('the FRAME_TIMEOUT error frame', frameTimeoutMs * 2 + 1_000).catch((failure: unknown) => {
        if (!connection.isClosed || connection.pings.length === 0) throw failure;
        throw new CheckSkipped(
          `the host dropped the connection for a ping it could not answer (its frame was partial) before its frameTimeoutMs (${frameTimeoutMs} ms) passed: start it with a ping interval longer than its frame timeout`,
        );
      });
      const elapsed = Date.now() - stalledAt;
      expectWireError(error.error, 'FRAME_TIMEOUT', 'a stalled partial frame');
      // Timers never fire early; a little slack covers clock granularity.
      assert(elapsed >= frameTimeoutMs - 20, `FRAME_TIMEOUT came after ${elapsed} ms, before the advertised ${frameTimeoutMs} ms`);
      await connection.expectClose('after FRAME_TIMEOUT');
    },
  },
  {
    id: 'framing.idle-connection',
    requirement: 'FR-7',
    title: 'a connection idle for longer than frameTimeoutMs stays open',
    timeoutMs: 15_000,
    async run(context) {
      const frameTimeoutMs = frameTimeoutOf(context);
      const connection = await authenticated(context);
      // Nothing to wait for: the check is that nothing happens while the connection is idle.
      const idleMs = Math.round(frameTimeoutMs * 1.5) + 100;
      const closedEarly = await Promise.race([connection.closed.then(() => true), delay(idleMs, false)]);
      assert(!closedEarly, `the host closed an idle connection (no partial frame) within ${idleMs} ms`);
      await expectPong(connection, 2, `a ping after ${idleMs} ms idle`);
    },
  },
  {
    id: 'framing.before-hello-limit',
    requirement: 'FR-9',
    title: `before the hello, a header announcing a ${BEFORE_HELLO_BYTES.toLocaleString('en-US')}-byte body gets FRAME_TOO_LARGE, then the connection closes`,
    async run({ hello, raw }) {
      // Under maxFrameBytes, or the check would be FR-3's: only a smaller limit before the hello refuses it.
      if (hello.limits.maxFrameBytes <= BEFORE_HELLO_BYTES) throw new CheckSkipped(`the host's maxFrameBytes (${hello.limits.maxFrameBytes}) is no larger than the frame this check sends`);
      const connection = await raw();
      // The header alone must be refused: a host that waited for the body would buffer a megabyte for a stranger.
      await connection.write(`Content-Length: ${BEFORE_HELLO_BYTES}\r\n\r\n`);
      const error = await connection.streamError(`the error frame for a ${BEFORE_HELLO_BYTES}-byte frame before the hello`, 2_000);
      expectWireError(error.error, 'FRAME_TOO_LARGE', `a ${BEFORE_HELLO_BYTES}-byte frame before the hello`);
      await connection.expectClose(`after refusing a ${BEFORE_HELLO_BYTES}-byte frame before the hello`);
    },
  },
];

/** Framing is lost after `bytes`: the host must answer with an id-less `code` error frame, then close. */
async function expectFatal(context: Parameters<typeof authenticated>[0], bytes: string, code: Parameters<typeof expectWireError>[1], what: string): Promise<void> {
  const connection = await authenticated(context);
  await connection.write(bytes);
  const error = await connection.streamError(`the error frame for ${what}`);
  expectWireError(error.error, code, what);
  await connection.expectClose(`after ${what}`);
}
