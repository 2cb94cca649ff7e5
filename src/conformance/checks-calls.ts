/** At most once per callId: duplicates attach, repeats replay, conflicts and unknown ids are refused. */
import { assert, assertEqual, expectRejection, expectSuccess, show } from './assertions.js';
import { KIT, countOf, readCounter, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

export const callChecks: readonly Check[] = [
  {
    id: 'calls.identical-short-calls',
    requirement: 'AM-6',
    title: 'identical calls in flight to a short tool with no duplicate policy each run (the default, allow)',
    needs: [KIT.block, KIT.count, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('identical');
      // Both queued at once behind a block: identical, in flight together.
      const block = await startBlock(context, session);
      const first = startCall(context, session, KIT.count, { key });
      const second = startCall(context, session, KIT.count, { key });
      await untilState(session, second.callId, 'queued');
      await session.cancel(block.callId);
      const a = expectSuccess(await first.outcome, 'the first calls/start');
      const b = expectSuccess(await second.outcome, 'the second calls/start');
      assert(a.attachedTo === undefined && b.attachedTo === undefined, `neither may be attached to the other: ${show(a)} ${show(b)}`);
      assertEqual(await readCounter(session, key), 2, `counter "${key}" after two identical calls`);
    },
  },
  {
    id: 'calls.concurrent-duplicates',
    requirement: 'AM-1',
    title: 'two concurrent calls/start with one callId run the tool once and both get its result',
    needs: [KIT.count, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('dup');
      const callId = uniqueId('dup-call');
      // Both requests leave before either is answered, so the host sees the second while the first is live.
      const first = startCall(context, session, KIT.count, { key }, callId);
      const second = startCall(context, session, KIT.count, { key }, callId);
      const a = expectSuccess(await first.outcome, 'the first calls/start');
      const b = expectSuccess(await second.outcome, 'the second calls/start');
      assertEqual(b.result, a.result, 'the second result (vs. the first)');
      // The first started the run: not a replay. The second attached to it, or, if the tool
      // had already finished when it arrived (a fast tool, its request in a later TCP chunk),
      // got its stored outcome, which protocol.md §7.4 says is a replay: either is right.
      assertEqual(a.replayed, false, 'replayed of the first answer');
      assertEqual(countOf(a.result, 'the count result'), 1, 'the count the call returned');
      assertEqual(await readCounter(session, key), 1, `counter "${key}" after two requests with one callId`);
    },
  },
  {
    id: 'calls.replay',
    requirement: 'AM-2',
    title: 'a repeat of a finished callId returns the same result with replayed: true and does not run again',
    needs: [KIT.count, KIT.read],
    async run({ connect }) {
      const session = await connect();
      const key = uniqueId('replay');
      const params = { callId: uniqueId('replay-call'), tool: KIT.count, arguments: { key } };
      const original = await session.start(params);
      assertEqual(original.replayed, false, 'replayed on the first run');
      const repeat = await session.start(params);
      assertEqual(repeat.replayed, true, 'replayed on the repeat');
      assertEqual(repeat.result, original.result, 'the repeated result (vs. the original)');
      assertEqual(await readCounter(session, key), 1, `counter "${key}" after a repeat`);
    },
  },
  {
    id: 'calls.callid-conflict',
    requirement: 'AM-3',
    title: 'reusing a callId with other arguments fails with CALL_ID_CONFLICT',
    needs: [KIT.count, KIT.read],
    async run({ connect }) {
      const session = await connect();
      const callId = uniqueId('conflict-call');
      const [used, other] = [uniqueId('conflict-a'), uniqueId('conflict-b')];
      await session.start({ callId, tool: KIT.count, arguments: { key: used } });
      await expectRejection(session.start({ callId, tool: KIT.count, arguments: { key: other } }), 'CALL_ID_CONFLICT', 'the callId reused with other arguments');
      assertEqual(await readCounter(session, other), 0, `counter "${other}" (the conflicting call must not run)`);
    },
  },
  {
    id: 'calls.attach-only-unknown',
    requirement: 'AM-4',
    title: 'attachOnly for an unknown callId fails with UNKNOWN_CALL',
    async run({ connect }) {
      const session = await connect();
      const callId = uniqueId('attach-unknown');
      // The kit's count tool is named even on hosts without the kit: attachOnly must refuse before looking at the tool.
      await expectRejection(session.start({ callId, tool: KIT.count, arguments: { key: callId }, attachOnly: true }), 'UNKNOWN_CALL', 'attachOnly for an unknown callId');
      await expectRejection(session.status(callId), 'UNKNOWN_CALL', 'calls/status after the refused attach (nothing may have been started)');
    },
  },
  {
    id: 'calls.attach-other-connection',
    requirement: 'AM-5',
    title: 'a repeat of a callId from another connection attaches to the live call, and later replays it',
    needs: [KIT.block, KIT.count, KIT.read],
    connections: 2,
    async run(context) {
      const [a, b] = [await context.connect(), await context.connect()];
      const key = uniqueId('attach');
      const block = await startBlock(context, a);
      const original = startCall(context, a, KIT.count, { key });
      await untilState(a, original.callId, 'queued');
      const attached = startCall(context, b, KIT.count, { key }, original.callId);
      // B's own later request is answered after its calls/start was processed: B is attached by then.
      assertEqual((await b.status(original.callId)).state, 'queued', 'the call as B sees it');
      await a.cancel(block.callId);
      const fromA = expectSuccess(await original.outcome, 'calls/start on connection A');
      const fromB = expectSuccess(await attached.outcome, 'calls/start repeated on connection B');
      assertEqual(fromB.result, fromA.result, "B's result (vs. A's)");
      assertEqual(fromB.replayed, false, "replayed of B's answer (it attached to the live call)");

      const c = await context.connect();
      const replay = await c.start({ callId: original.callId, tool: KIT.count, arguments: { key } });
      assert(replay.replayed, `a repeat from a third connection after the call finished must be replayed: ${show(replay)}`);
      assertEqual(replay.result, fromA.result, "the third connection's result (vs. A's)");
      assertEqual(await readCounter(c, key), 1, `counter "${key}" after the same callId from three connections`);
    },
  },
];
