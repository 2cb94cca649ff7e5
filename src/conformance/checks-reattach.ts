/**
 * Coming back for a call by its callId: from a new connection after the first closed, after
 * the call was cancelled, with other arguments; and leaving a call's request without
 * cancelling the call (notifications/cancelled, a connection that closes).
 */
import { assert, assertEqual, expectRejection, expectSuccess, settle, show, within } from './assertions.js';
import { KIT, LONG_BLOCK_MS, countOf, readCounter, startBlock, startWith, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

/** A replay or an attach to a call the host knows is answered at once, or as soon as the call ends. */
const PROMPT_MS = 2_000;
/** A queued count runs within this once the main thread is free. */
const RUNS_MS = 5_000;

export const reattachChecks: readonly Check[] = [
  {
    id: 'calls.callid-conflict-attach-only',
    requirement: 'AM-3',
    title: 'attachOnly with a known callId and other arguments fails with CALL_ID_CONFLICT, and runs nothing',
    needs: [KIT.count, KIT.read],
    async run({ connect }) {
      const session = await connect();
      const callId = uniqueId('conflict-attach-call');
      const [used, other] = [uniqueId('conflict-attach-a'), uniqueId('conflict-attach-b')];
      await session.start({ callId, tool: KIT.count, arguments: { key: used } });
      // Re-attaching is no way around the conflict check: a client re-attaches with what it sent first.
      const conflict = await expectRejection(
        await within(settle(session.start({ callId, tool: KIT.count, arguments: { key: other }, attachOnly: true })), PROMPT_MS, 'the answer to attachOnly with other arguments'),
        'CALL_ID_CONFLICT',
        'attachOnly with the callId and other arguments',
      );
      assertEqual(conflict.data.callId, callId, 'data.callId of the CALL_ID_CONFLICT');
      assertEqual(await readCounter(session, used), 1, `counter "${used}" (the first call, once)`);
      assertEqual(await readCounter(session, other), 0, `counter "${other}" (the conflicting attachOnly must run nothing)`);
    },
  },
  {
    id: 'calls.reattach-after-reconnect',
    requirement: 'AM-7',
    title: 'after the connection that queued a call closes, attachOnly from a new one attaches to it (replayed: false) and it runs once',
    needs: [KIT.block, KIT.count, KIT.read],
    async run(context) {
      const first = await context.connect();
      const key = uniqueId('reattach');
      const block = await startBlock(context, first);
      const params = { callId: uniqueId('reattach-call'), tool: KIT.count, arguments: { key } };
      const lost = startWith(context, first, params);
      await untilState(first, params.callId, 'queued');
      // The client loses its connection with the call queued, as a reload or a dropped network would do it.
      first.close();
      await lost.outcome;

      const second = await context.connect();
      assertEqual((await second.status(params.callId)).state, 'queued', 'the queued call once the connection that started it closed');
      const again = settle(second.start({ ...params, attachOnly: true }));
      // Answered after the attachOnly was processed: the call must still be the one queued, not a second one.
      assertEqual((await second.status(params.callId)).state, 'queued', 'the call after the attachOnly');
      await second.cancel(block.callId);
      const answer = expectSuccess(await within(again, RUNS_MS, 'the answer to the attachOnly'), 'attachOnly after the reconnect');
      assertEqual(answer.replayed, false, 'replayed (the call was still queued when the attachOnly came)');
      assertEqual(countOf(answer.result, 'the re-attached result'), 1, 'the count the re-attached call returned');
      assertEqual(await readCounter(second, key), 1, `counter "${key}" (one callId, queued once, re-attached once)`);
    },
  },
  {
    id: 'calls.replay-cancelled',
    requirement: 'AM-8',
    title: 'a repeat of a cancelled callId, with attachOnly or without, replays CANCELLED (replayed: true), never a result',
    needs: [KIT.block],
    async run(context) {
      const session = await context.connect();
      const block = await startBlock(context, session);
      await session.cancel(block.callId);
      await expectRejection(await within(block.outcome, PROMPT_MS, 'the end of the cancelled block'), 'CANCELLED', 'calls/start of the cancelled block');
      const params = { callId: block.callId, tool: KIT.block, arguments: { ms: LONG_BLOCK_MS } };
      for (const attachOnly of [true, false]) {
        const what = `a repeat of the cancelled callId${attachOnly ? ' with attachOnly' : ''}`;
        const replay = startWith(context, session, { ...params, ...(attachOnly ? { attachOnly } : {}) });
        const error = await expectRejection(await within(replay.outcome, PROMPT_MS, what), 'CANCELLED', what);
        assertEqual(error.data.replayed, true, `data.replayed of ${what}`);
        assertEqual(error.data.state, 'cancelled', `data.state of ${what}`);
      }
      assertEqual((await session.status(block.callId)).state, 'cancelled', 'calls/status after the repeats');
    },
  },
  {
    id: 'cancel.abandoned-request',
    requirement: 'CN-4',
    title: "notifications/cancelled for a queued call's calls/start, or its connection closing, does not cancel the call: it runs once",
    needs: [KIT.block, KIT.count, KIT.read],
    async run(context) {
      const session = await context.connect();
      const block = await startBlock(context, session);
      const keys = { abandoned: uniqueId('abandoned'), closed: uniqueId('closed') };
      const abandoned = { callId: uniqueId('abandoned-call'), tool: KIT.count, arguments: { key: keys.abandoned } };
      const closed = { callId: uniqueId('closed-call'), tool: KIT.count, arguments: { key: keys.closed } };
      const leaving = new AbortController();
      const request = startWith(context, session, abandoned, { signal: leaving.signal });
      await untilState(session, abandoned.callId, 'queued');
      // The client stops waiting for the answer (notifications/cancelled): the request ends, the call does not.
      leaving.abort();
      await request.outcome;
      assertEqual((await session.status(abandoned.callId)).state, 'queued', 'the call whose calls/start was abandoned with notifications/cancelled');
      startWith(context, session, closed);
      await untilState(session, closed.callId, 'queued');
      session.close();

      const other = await context.connect();
      assertEqual((await other.status(closed.callId)).state, 'queued', 'the call whose connection closed');
      await other.cancel(block.callId);
      for (const [what, params] of [
        ['abandoned with notifications/cancelled', abandoned],
        ['left by its closed connection', closed],
      ] as const) {
        await untilState(other, params.callId, 'completed', RUNS_MS);
        const replay = await other.start({ ...params, attachOnly: true });
        assert(replay.replayed, `the call ${what} must have run to its end: ${show(replay)}`);
        assertEqual(countOf(replay.result, `the call ${what}`), 1, `the count of the call ${what}`);
        assertEqual(await readCounter(other, params.arguments.key), 1, `counter "${params.arguments.key}" (the call ${what}, once)`);
      }
    },
  },
];
