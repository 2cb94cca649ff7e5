/** Progress: heartbeats keep a blocked call's clients informed, and a queued call's too, for as long as it waits. */
import { setTimeout as delay } from 'node:timers/promises';
import { CallProgress, METHODS } from '../protocol/index.js';
import { assert, assertEqual, expectSuccess, isRecord, show } from './assertions.js';
import { KIT, startBlock, startCall, uniqueId, untilState } from './kit.js';
import type { Notice } from './session.js';
import type { Check } from './types.js';

/** The protocol says "at least every heartbeatMs"; scheduling and the network get half as much again. */
const TOLERANCE = 1.5;

function isProgressOf(callId: string) {
  return (notice: Notice): boolean => notice.method === METHODS.callProgress && isRecord(notice.params) && notice.params.callId === callId;
}

function parseProgress(notice: Notice): CallProgress {
  const parsed = CallProgress.safeParse(notice.params);
  assert(parsed.success, `a malformed progress notification: ${show(notice.params)}`);
  return parsed.data;
}

export const progressChecks: readonly Check[] = [
  {
    id: 'progress.heartbeat',
    requirement: 'PG-1',
    title: 'a call blocking the main thread hears heartbeat progress at least every heartbeatMs',
    needs: [KIT.block],
    timeoutMs: ({ hello }) => 3 * hello.heartbeatMs + 10_000,
    async run(context) {
      const { heartbeatMs } = context.hello;
      const session = await context.connect();
      const call = startCall(context, session, KIT.block, { ms: 3 * heartbeatMs });
      const finished = await call.outcome;
      expectSuccess(finished, 'the blocking call');
      const notices = session.notices.filter(isProgressOf(call.callId));
      const updates = notices.map(parseProgress);
      assert(
        updates.some((u) => u.heartbeat && u.state === 'running'),
        `no heartbeat (heartbeat: true, state: running) in ${updates.length} progress notification(s): ${show(updates)}`,
      );
      // Silence is measured from the request to the first notification, between notifications, and to the answer.
      assertNoLongSilence([call.sentAt, ...notices.map((n) => n.at), finished.at], heartbeatMs, 'live');
    },
  },
  {
    id: 'progress.queued',
    requirement: 'PG-2',
    title: 'a call queued behind a block hears progress with state queued',
    needs: [KIT.block, KIT.count],
    timeoutMs: ({ hello }) => 2 * hello.heartbeatMs + 10_000,
    async run(context) {
      const { heartbeatMs } = context.hello;
      await startBlock(context, await context.connect());
      const waiting = await context.connect();
      const queued = startCall(context, waiting, KIT.count, { key: uniqueId('progress-queued') });
      const notice = await waiting.waitFor(isProgressOf(queued.callId), 'progress for the queued call', Math.ceil(heartbeatMs * TOLERANCE));
      assertEqual(parseProgress(notice).state, 'queued', 'state in the progress of a queued call');
    },
  },
  {
    id: 'progress.queued-heartbeat',
    requirement: 'PG-3',
    title: 'a call queued behind a block for 3 heartbeats hears progress (state queued) at least every heartbeatMs',
    needs: [KIT.block, KIT.count],
    timeoutMs: ({ hello }) => 3 * hello.heartbeatMs + 10_000,
    async run(context) {
      const { heartbeatMs } = context.hello;
      const session = await context.connect();
      const holder = await startBlock(context, session);
      const queued = startCall(context, session, KIT.count, { key: uniqueId('queued-heartbeat') });
      await untilState(session, queued.callId, 'queued');
      // The silence being measured: three heartbeat periods in the queue.
      await delay(3 * heartbeatMs);
      const releasedAt = Date.now();
      await session.cancel(holder.callId);
      expectSuccess(await queued.outcome, 'the queued call');
      const notices = session.notices.filter(isProgressOf(queued.callId)).filter((n) => n.at <= releasedAt);
      const updates = notices.map(parseProgress);
      assert(
        updates.every((u) => u.state === 'queued'),
        `progress of a call still queued must say state "queued": ${show(updates)}`,
      );
      // From the request to the first notification, between notifications, and to the moment the call could start.
      assertNoLongSilence([queued.sentAt, ...notices.map((n) => n.at), releasedAt], heartbeatMs, 'queued');
    },
  },
];

/** No gap between consecutive moments (ms) is longer than heartbeatMs allows, while the call was `state`. */
function assertNoLongSilence(times: number[], heartbeatMs: number, state: string): void {
  const gaps = times.slice(1).map((t, i) => t - (times[i] as number));
  const longest = Math.max(...gaps);
  assert(longest <= heartbeatMs * TOLERANCE, `a silence of ${longest} ms while the call was ${state} (heartbeatMs ${heartbeatMs}; gaps ${gaps.join(', ')} ms)`);
}
