/** Fairness: connections take turns on the main thread, so a long queue cannot starve a short one. */
import { isDeepStrictEqual } from 'node:util';
import { assert, expectSuccess, show } from './assertions.js';
import { KIT, countOf, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

const A_CALLS = 4;

export const fairnessChecks: readonly Check[] = [
  {
    id: 'fairness.round-robin',
    requirement: 'FA-1',
    title: `with ${A_CALLS} calls queued on connection A and 1 on B, B's runs before A's 3rd`,
    needs: [KIT.block, KIT.count],
    connections: 3,
    async run(context) {
      const [holder, a, b] = [await context.connect(), await context.connect(), await context.connect()];
      const block = await startBlock(context, holder);
      // All five increment one counter, so the count each returns is the order in which it ran.
      const key = uniqueId('fairness');
      const fromA = Array.from({ length: A_CALLS }, () => startCall(context, a, KIT.count, { key }));
      await untilState(a, fromA[A_CALLS - 1]!.callId, 'queued');
      const fromB = startCall(context, b, KIT.count, { key });
      await untilState(b, fromB.callId, 'queued');
      await holder.cancel(block.callId);

      const orderOfA = await Promise.all(fromA.map(async (call, i) => countOf(expectSuccess(await call.outcome, `A's call ${i + 1}`).result, `A's call ${i + 1}`)));
      const orderOfB = countOf(expectSuccess(await fromB.outcome, "B's call").result, "B's call");
      const order = [...orderOfA, orderOfB].sort((x, y) => x - y);
      assert(isDeepStrictEqual(order, [1, 2, 3, 4, 5]), `the five calls must each run once, in turn; their counts were A ${show(orderOfA)}, B ${orderOfB}`);
      const thirdOfA = orderOfA[2] as number;
      assert(orderOfB < thirdOfA, `B's only call ran as #${orderOfB}, after A's 3rd (#${thirdOfA}); run order of A's calls: ${show(orderOfA)}`);
    },
  },
];
