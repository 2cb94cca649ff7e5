/** calls/cancel: a queued call never runs, a running one stops early, and cancels are answered while blocked. */
import { assert, assertEqual, expectRejection, within } from './assertions.js';
import { KIT, readCounter, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

/** "Well before" the block would have ended: the kit wakes a cancelled block within ~100 ms. */
const CANCEL_TAKES_EFFECT_MS = 2_000;
const PROMPT_MS = 1_000;

export const cancelChecks: readonly Check[] = [
  {
    id: 'cancel.queued',
    requirement: 'CN-1',
    title: 'a cancelled queued call never runs and its calls/start fails with CANCELLED',
    needs: [KIT.block, KIT.count, KIT.read],
    async run(context) {
      const session = await context.connect();
      const key = uniqueId('cancel-queued');
      const block = await startBlock(context, session);
      const queued = startCall(context, session, KIT.count, { key });
      await untilState(session, queued.callId, 'queued');
      assertEqual((await session.cancel(queued.callId)).state, 'cancelled', 'the state calls/cancel reports');
      await expectRejection(await queued.outcome, 'CANCELLED', 'calls/start of the cancelled call');
      // Free the main thread: a call that was cancelled only on paper would run now.
      await session.cancel(block.callId);
      await block.outcome;
      assertEqual(await readCounter(session, key), 0, `counter "${key}" (the cancelled call must never run)`);
    },
  },
  {
    id: 'cancel.running',
    requirement: 'CN-2',
    title: 'a cancelled running block ends with CANCELLED well before its time',
    needs: [KIT.block],
    async run(context) {
      const session = await context.connect();
      const block = await startBlock(context, session);
      const cancelledAt = Date.now();
      await session.cancel(block.callId);
      const outcome = await within(block.outcome, CANCEL_TAKES_EFFECT_MS, 'the end of the cancelled block');
      await expectRejection(outcome, 'CANCELLED', 'calls/start of the cancelled block');
      assert(outcome.at - cancelledAt < CANCEL_TAKES_EFFECT_MS, `the block ended ${outcome.at - cancelledAt} ms after the cancel`);
      assertEqual((await session.status(block.callId)).state, 'cancelled', 'calls/status of the cancelled block');
    },
  },
  {
    id: 'cancel.while-blocked',
    requirement: 'CN-3',
    title: 'a cancel of a queued call is answered within 1 s while the main thread is blocked',
    needs: [KIT.block, KIT.count],
    async run(context) {
      const session = await context.connect();
      const block = await startBlock(context, session, 3_000);
      const queued = startCall(context, session, KIT.count, { key: uniqueId('cancel-blocked') });
      await untilState(session, queued.callId, 'queued');
      await within(session.cancel(queued.callId), PROMPT_MS, 'the answer to calls/cancel while the main thread is blocked');
      assertEqual((await session.status(block.callId)).state, 'running', 'the blocking call after the cancel was answered');
    },
  },
];
