/** Handshake: the hello answer, and every way the host must refuse a connection and close it. */
import { PROOF_AUTH, clientProof, hostProof, newNonce, secretsMatch } from '../discovery/host-proof.js';
import { HelloResult, METHODS, PROTOCOL_VERSION, type ResponseMessage } from '../protocol/index.js';
import { assert, assertEqual, expectRejection, expectWireError, show } from './assertions.js';
import { KIT, readCounter, uniqueId } from './kit.js';
import { helloFrame, request } from './raw-connection.js';
import type { Check } from './types.js';

const UNSUPPORTED_VERSION = 999;
/** How long a connection may take to complete its hello, at most (protocol.md §5). */
const HANDSHAKE_TIMEOUT_MS = 10_000;

export const handshakeChecks: readonly Check[] = [
  {
    id: 'handshake.valid-hello',
    requirement: 'HS-1',
    title: 'a valid hello returns version, identity, capabilities, limits, heartbeat, state and connectionId',
    async run({ target, raw }) {
      const connection = await raw();
      const hello = helloResultOf(await connection.hello(target));
      assertEqual(hello.protocolVersion, PROTOCOL_VERSION, 'protocolVersion');
      assertEqual(hello.host.instanceId, target.record.instanceId, 'host.instanceId (vs. the host record)');
      assertEqual(hello.host.pid, target.record.pid, 'host.pid (vs. the host record)');
      assertEqual(hello.host.projectPath, target.record.projectPath, 'host.projectPath (vs. the host record)');
      assertEqual(hello.host.kind, target.record.kind, 'host.kind (vs. the host record)');
      assert(hello.connectionId.length > 0, 'connectionId is empty');
      assert(hello.heartbeatMs > 0, `heartbeatMs must be positive, got ${hello.heartbeatMs}`);
      const { maxFrameBytes, maxHeaderBytes, frameTimeoutMs } = hello.limits;
      assert(maxFrameBytes > 0 && maxHeaderBytes > 0 && frameTimeoutMs > 0, `limits must be positive: ${show(hello.limits)}`);

      // A connection id names one connection: a second one must get another.
      const other = helloResultOf(await (await raw()).hello(target));
      assert(other.connectionId !== hello.connectionId, `two connections got the same connectionId "${hello.connectionId}"`);
    },
  },
  {
    id: 'handshake.wrong-token',
    requirement: 'HS-2',
    title: 'a wrong token is refused with UNAUTHORIZED, then the connection closes',
    async run({ raw }) {
      const connection = await raw();
      const response = await connection.hello({ token: uniqueId('wrong-token') });
      expectWireError('error' in response ? response.error : undefined, 'UNAUTHORIZED', 'hello with a wrong token');
      await connection.expectClose('after refusing a wrong token');
    },
  },
  {
    id: 'handshake.unsupported-version',
    requirement: 'HS-3',
    title: `protocol version ${UNSUPPORTED_VERSION} is refused with UNSUPPORTED_VERSION and data.supported, then the connection closes`,
    async run({ target, raw }) {
      const connection = await raw();
      const response = await connection.hello(target, UNSUPPORTED_VERSION);
      const error = expectWireError('error' in response ? response.error : undefined, 'UNSUPPORTED_VERSION', `hello with protocolVersion ${UNSUPPORTED_VERSION}`);
      const supported = error.data?.supported;
      assert(
        Array.isArray(supported) && supported.length > 0 && supported.every((v) => Number.isInteger(v)) && !supported.includes(UNSUPPORTED_VERSION),
        `data.supported must list the versions the host speaks, got ${show(supported)}`,
      );
      await connection.expectClose('after refusing an unsupported version');
    },
  },
  {
    id: 'handshake.required',
    requirement: 'HS-4',
    title: 'a request before the hello (tools/list) is refused with HANDSHAKE_REQUIRED, then the connection closes',
    async run({ raw }) {
      const connection = await raw();
      await connection.write(request(1, METHODS.toolsList));
      const response = await connection.response(1, 'the answer to tools/list before the hello');
      expectWireError('error' in response ? response.error : undefined, 'HANDSHAKE_REQUIRED', 'tools/list before the hello');
      await connection.expectClose('after refusing a request before the hello');
    },
  },
  {
    id: 'handshake.nothing-before-hello',
    requirement: 'HS-5',
    title: 'a tool call pipelined before the hello in the same write is not processed',
    needs: [KIT.count, KIT.read],
    async run({ target, raw, connect }) {
      const key = uniqueId('before-hello');
      const callId = uniqueId('before-hello-call');
      const connection = await raw();
      // One write, so the host has the hello in hand when it sees the call: it still must not
      // run it, nor accept the hello and a second call that follow the refused frame.
      const early = request(1, METHODS.callStart, { callId, tool: KIT.count, arguments: { key } });
      const late = request(3, METHODS.callStart, { callId: `${callId}-late`, tool: KIT.count, arguments: { key } });
      await connection.write(Buffer.concat([early, helloFrame(2, target), late]));
      const response = await connection.response(1, 'the answer to calls/start before the hello');
      expectWireError('error' in response ? response.error : undefined, 'HANDSHAKE_REQUIRED', 'calls/start before the hello');
      await connection.expectClose('after refusing a call before the hello');

      const session = await connect();
      assertEqual(await readCounter(session, key), 0, `counter "${key}" (the refused call must not have run)`);
      await expectRejection(session.status(callId), 'UNKNOWN_CALL', 'calls/status of the refused call (it must not have been journaled)');
      await expectRejection(session.status(`${callId}-late`), 'UNKNOWN_CALL', 'calls/status of the call pipelined after the refusal');
    },
  },
  {
    id: 'handshake.proof',
    requirement: 'HS-6',
    title: 'the record says "auth": "proof"; a proof hello gets the host\'s own proof; a wrong or replayed proof, or the token itself, is refused with UNAUTHORIZED',
    async run({ target, raw }) {
      assert(target.record.auth === PROOF_AUTH, `the host record says "auth": ${show(target.record.auth)}, not "proof": clients prove they know the token and never send it (protocol.md §12, §14)`);
      const nonce = newNonce();
      const hello = helloResultOf(await (await raw()).helloWithProof({ nonce, mac: clientProof(target.token, nonce) }));
      assert(hello.proof !== undefined && secretsMatch(hello.proof.mac, hostProof(target.token, nonce)), `the host's proof is missing or wrong: ${show(hello.proof)}`);

      const wrong = await raw();
      const other = newNonce();
      const refused = await wrong.helloWithProof({ nonce: other, mac: clientProof(uniqueId('wrong-token'), other) });
      expectWireError('error' in refused ? refused.error : undefined, 'UNAUTHORIZED', 'hello with a proof made from a wrong token');
      await wrong.expectClose('after refusing a wrong proof');

      // What a program that took the port during a reload could try: the same proof again.
      const replay = await raw();
      const replayed = await replay.helloWithProof({ nonce, mac: clientProof(target.token, nonce) });
      expectWireError('error' in replayed ? replayed.error : undefined, 'UNAUTHORIZED', 'hello replaying an earlier proof');
      await replay.expectClose('after refusing a replayed proof');

      // The right token, sent as it is: a host that took it would teach clients to hand it to whatever holds the port.
      const bare = await raw();
      const presented = await bare.helloWithToken(target.token);
      expectWireError('error' in presented ? presented.error : undefined, 'UNAUTHORIZED', 'hello presenting the token itself');
      await bare.expectClose('after refusing the token itself');
    },
  },
  {
    id: 'handshake.timeout',
    requirement: 'HS-7',
    title: `a connection that sends no hello is closed within the handshake timeout (at most ${HANDSHAKE_TIMEOUT_MS / 1_000} s)`,
    timeoutMs: HANDSHAKE_TIMEOUT_MS + 5_000,
    async run({ raw }) {
      const silent = await raw();
      await silent.expectClose('a connection that never sends a hello', HANDSHAKE_TIMEOUT_MS + 1_000);
    },
  },
];

/** The hello result, fully shape-checked; fails the check on a refusal or a malformed answer. */
function helloResultOf(response: ResponseMessage): HelloResult {
  assert(!('error' in response), `the hello was refused: ${show('error' in response ? response.error : undefined)}`);
  const parsed = HelloResult.safeParse(response.result);
  const issue = parsed.success ? undefined : parsed.error.issues[0];
  assert(parsed.success, `the hello result is malformed at "${issue?.path.join('.')}" (${issue?.message}): ${show(response.result)}`);
  return parsed.data;
}
