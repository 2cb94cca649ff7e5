/** calls/status: running, queued with a position, and unknown callIds. */
import { assert, assertEqual, expectRejection, show } from './assertions.js';
import { KIT, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Check } from './types.js';

export const statusChecks: readonly Check[] = [
  {
    id: 'status.running',
    requirement: 'ST-1',
    title: 'calls/status of a blocking call reports running',
    needs: [KIT.block],
    async run(context) {
      const session = await context.connect();
      const block = await startBlock(context, session);
      const status = await (await context.connect()).status(block.callId);
      assertEqual(status.state, 'running', 'state');
      assertEqual(status.callId, block.callId, 'callId');
      assertEqual(status.tool, KIT.block, 'tool');
      assert(typeof status.startedAt === 'number' && status.startedAt >= status.queuedAt, `a running call needs startedAt >= queuedAt: ${show(status)}`);
    },
  },
  {
    id: 'status.queued',
    requirement: 'ST-2',
    title: 'calls/status of calls queued behind a block reports queued with their positions',
    needs: [KIT.block, KIT.count],
    async run(context) {
      const session = await context.connect();
      await startBlock(context, session);
      const first = startCall(context, session, KIT.count, { key: uniqueId('queued') });
      const second = startCall(context, session, KIT.count, { key: uniqueId('queued') });
      await untilState(session, second.callId, 'queued');
      const statuses = [await session.status(first.callId), await session.status(second.callId)];
      assertEqual(
        statuses.map((s) => [s.state, s.position]),
        [
          ['queued', 0],
          ['queued', 1],
        ],
        'the [state, position] of the two queued calls',
      );
    },
  },
  {
    id: 'status.unknown',
    requirement: 'ST-3',
    title: 'calls/status of an unknown callId fails with UNKNOWN_CALL',
    async run({ connect }) {
      await expectRejection((await connect()).status(uniqueId('status-unknown')), 'UNKNOWN_CALL', 'calls/status of a callId never sent');
    },
  },
];
