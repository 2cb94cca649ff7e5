/**
 * Identical calls in flight under the duplicate policies a tool declares (protocol.md §8.10):
 * "attach" shares one execution (and is cancelled only by its last requester), "reject"
 * refuses the newcomer. The kit's _attach and _reject count their key, then block.
 */
import { assert, assertEqual, expectRejection, expectSuccess, show, within } from './assertions.js';
import { KIT, LONG_BLOCK_MS, countOf, readCounter, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

/** Refusals and withdrawals are answered at once. */
const PROMPT_MS = 2_000;
/** "Well before" the block would have ended: the kit wakes a cancelled block within ~100 ms. */
const CANCEL_TAKES_EFFECT_MS = 2_000;

export const duplicateChecks: readonly Check[] = [
  {
    id: 'duplicates.attach',
    requirement: 'DP-1',
    title: 'under duplicates "attach", an identical call in flight shares the execution: one run, one result, attachedTo',
    needs: [KIT.block, KIT.attach, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('attach');
      const args = { key, ms: 0 };
      // Queued behind a block, the first is in flight when the second arrives, whatever the host's speed.
      const holder = await startBlock(context, session);
      const first = startCall(context, session, KIT.attach, args);
      await untilState(session, first.callId, 'queued');
      const second = startCall(context, session, KIT.attach, args);
      const shared = await session.status(second.callId);
      assertEqual([shared.state, shared.attachedTo], ['queued', first.callId], '[state, attachedTo] of the identical call in calls/status');
      await session.cancel(holder.callId);
      const a = expectSuccess(await first.outcome, 'the first call');
      const b = expectSuccess(await second.outcome, 'the identical call');
      assert(a.attachedTo === undefined, `the executing call is attached to nothing: ${show(a)}`);
      assertEqual([b.attachedTo, b.replayed], [first.callId, false], '[attachedTo, replayed] of the answer to the identical call');
      assertEqual(b.result, a.result, "the identical call's result (vs. the executing call's)");
      assertEqual(countOf(a.result, 'the shared result'), 1, 'the count the shared execution returned');
      assertEqual(await readCounter(session, key), 1, `counter "${key}" (two identical calls, one execution)`);
      const replay = await session.start({ callId: second.callId, tool: KIT.attach, arguments: args, attachOnly: true });
      assertEqual([replay.replayed, replay.attachedTo], [true, first.callId], '[replayed, attachedTo] of a repeat of the identical call');
    },
  },
  {
    id: 'duplicates.reject',
    requirement: 'DP-2',
    title: 'under duplicates "reject", an identical call in flight is refused with DUPLICATE_CALL naming it, and nothing is journaled',
    needs: [KIT.reject, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('reject');
      const args = { key, ms: LONG_BLOCK_MS };
      const first = startCall(context, session, KIT.reject, args);
      await untilState(session, first.callId, 'running');
      const second = startCall(context, session, KIT.reject, args);
      const refusal = await expectRejection(await within(second.outcome, PROMPT_MS, 'the answer to an identical call in flight'), 'DUPLICATE_CALL', 'an identical call in flight');
      assertEqual([refusal.data.callId, refusal.data.inFlight], [second.callId, first.callId], '[data.callId, data.inFlight] of the DUPLICATE_CALL');
      await expectRejection(session.status(second.callId), 'UNKNOWN_CALL', 'calls/status of the refused call (nothing may have been journaled)');
      await session.cancel(first.callId);
      await expectRejection(await within(first.outcome, CANCEL_TAKES_EFFECT_MS, 'the end of the cancelled call'), 'CANCELLED', 'the call in flight, cancelled');
      assertEqual(await readCounter(session, key), 1, `counter "${key}" (the refused call must not run)`);
    },
  },
  {
    id: 'duplicates.shared-cancel',
    requirement: 'DP-3',
    title: 'one of two requesters of a shared execution cancelling withdraws alone (CANCELLED, shared) while it runs on; the last one cancels it',
    needs: [KIT.attach, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('shared-cancel');
      const args = { key, ms: LONG_BLOCK_MS };
      const first = startCall(context, session, KIT.attach, args);
      await untilState(session, first.callId, 'running');
      const second = startCall(context, session, KIT.attach, args);
      assertEqual((await session.status(second.callId)).attachedTo, first.callId, 'attachedTo of the identical call in calls/status');

      // The executing callId cancels: only it withdraws, the other still wants the run.
      assertEqual((await session.cancel(first.callId)).state, 'running', 'the state calls/cancel reports for a requester of two');
      const withdrawn = await expectRejection(await within(first.outcome, PROMPT_MS, 'the answer to the requester that cancelled'), 'CANCELLED', 'the requester that cancelled');
      assertEqual(withdrawn.data.shared, true, 'data.shared of the withdrawn requester');
      assertEqual((await session.status(second.callId)).state, 'running', 'the shared execution once one of its two requesters withdrew');

      // The last requester cancels: now the execution stops.
      await session.cancel(second.callId);
      await expectRejection(await within(second.outcome, CANCEL_TAKES_EFFECT_MS, 'the end of the shared execution'), 'CANCELLED', 'the last requester, cancelled');
      assertEqual(await readCounter(session, key), 1, `counter "${key}" (one shared execution)`);
    },
  },
];
