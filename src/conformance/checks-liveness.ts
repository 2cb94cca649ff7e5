/** Liveness: the host answers ping at once, even while its main thread is blocked, and pings its clients, dropping a silent one. */
import { METHODS } from '../protocol/index.js';
import { assert, assertEqual, isRecord, show, within } from './assertions.js';
import { authenticated } from './context.js';
import { CheckSkipped } from './errors.js';
import { KIT, startBlock } from './kit.js';
import type { Session } from './session.js';
import type { Check } from './types.js';

const PROMPT_MS = 1_000;
/** How often a host pings its clients unless started otherwise (protocol.md §11). */
const DEFAULT_PING_INTERVAL_MS = 15_000;
/** Timers and scheduling: how late a ping, or the close that follows a missed one, may come. */
const LATE_MS = 1_500;

/** Pings and returns how long the answer took; fails past PROMPT_MS. */
async function timedPing(session: Session, what: string): Promise<number> {
  const sentAt = Date.now();
  const answer = await within(session.request(METHODS.ping), PROMPT_MS, what);
  assert(isRecord(answer), `${what}: ping must answer an object, got ${show(answer)}`);
  return Date.now() - sentAt;
}

export const livenessChecks: readonly Check[] = [
  {
    id: 'liveness.ping',
    requirement: 'LV-1',
    title: 'ping is answered',
    async run({ connect }) {
      await timedPing(await connect(), 'ping');
    },
  },
  {
    id: 'liveness.ping-while-blocked',
    requirement: 'LV-2',
    title: 'ping is answered within 1 s while the main thread is blocked',
    needs: [KIT.block],
    async run(context) {
      const blocked = await context.connect();
      const block = await startBlock(context, blocked, 3_000);
      // A host that serves one connection at a time would evict the blocked one for another.
      const maxConnections = context.hello.capabilities.maxConnections ?? Number.POSITIVE_INFINITY;
      const other = maxConnections >= 2 ? await context.connect() : undefined;
      if (other) await timedPing(other, 'ping on another connection while the main thread is blocked');
      await timedPing(blocked, 'ping on the connection whose call blocks the main thread');
      // Only meaningful if the block was still holding the main thread when the pings were answered.
      assertEqual((await (other ?? blocked).status(block.callId)).state, 'running', 'the blocking call after the pings');
    },
  },
  {
    id: 'liveness.serving-while-blocked',
    requirement: 'LV-3',
    title: 'tools/list and calls/status are answered within 1 s while the main thread is blocked',
    needs: [KIT.block],
    async run(context) {
      const block = await startBlock(context, await context.connect(), 3_000);
      const other = await context.connect();
      const list = await within(other.request(METHODS.toolsList), PROMPT_MS, 'tools/list while the main thread is blocked');
      assert(isRecord(list) && Array.isArray(list.tools), `tools/list must answer { tools: [...] }, got ${show(list)}`);
      const status = await within(other.status(block.callId), PROMPT_MS, 'calls/status while the main thread is blocked');
      assertEqual(status.state, 'running', 'calls/status of the blocking call');
    },
  },
  {
    id: 'liveness.host-pings',
    requirement: 'LV-4',
    title: 'the host pings an authenticated client, and closes the connection of one that does not answer',
    timeoutMs: 3 * DEFAULT_PING_INTERVAL_MS + 5_000,
    async run(context) {
      const { hello } = context;
      // A host may not ping (protocol.md §11: 0 disables it), and says so in its hello; one that
      // says nothing is held to the default interval.
      const announced = hello.pingIntervalMs;
      if (announced === 0) throw new CheckSkipped('the host says it does not ping (pingIntervalMs 0 in its hello)');
      if (announced !== undefined && announced > DEFAULT_PING_INTERVAL_MS) {
        throw new CheckSkipped(
          `the host pings every ${announced} ms, longer than this check waits (${DEFAULT_PING_INTERVAL_MS} ms); start it with a shorter interval (sandbox: --ping-interval-ms 400)`,
        );
      }
      const everyMs = announced ?? DEFAULT_PING_INTERVAL_MS;
      const silent = await authenticated(context, { answerPings: false });
      const helloAt = Date.now();
      const pingedAt = await silent.firstPing(`the host's first ping (every pingIntervalMs: ${everyMs} ms)`, everyMs + LATE_MS);
      // The interval it pings at, as measured; the unanswered ping times out in about as long.
      const intervalMs = Math.max(pingedAt - helloAt, 1);
      await silent.expectClose(`a client that did not answer a ping (first ping ${intervalMs} ms after the hello)`, 2 * intervalMs + LATE_MS);
    },
  },
];
