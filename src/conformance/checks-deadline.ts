/**
 * Deadlines (protocol.md §8.6): a call running past its deadline is cancelled with
 * DEADLINE_EXCEEDED, time spent queued does not count, and a tool that ignores the signal is
 * given up deadlineGraceMs later, its outcome unknown for good.
 */
import { setTimeout as delay } from 'node:timers/promises';
import { assert, assertEqual, expectRejection, expectSuccess, within } from './assertions.js';
import { CheckSkipped } from './errors.js';
import { KIT, readCounter, startBlock, startWith, uniqueId, untilState } from './kit.js';
import type { Check, CheckContext } from './types.js';

const DEADLINE_MS = 300;
const BLOCK_MS = 3_000;
/** "Well before" the block would have ended: the kit wakes a cancelled block within ~100 ms. */
const ENDS_WITHIN_MS = 2_000;
/** Shorter than its deadline, so a host that counted its time in the queue would cut it off. */
const QUEUED_BLOCK_MS = 50;
/** Longer grace periods would make the give-up check slow; the host can be started with a short one. */
const MAX_TESTABLE_GRACE_MS = 10_000;
/** The deaf block's deadline: the give-up is due this plus the grace after it starts. */
const GIVE_UP_DEADLINE_MS = 200;
/** How much longer than its deadline and grace the deaf block goes on: its end comes well after the give-up is due. */
const OUTLIVES_MS = 800;
/** Timers and scheduling: how late the give-up may come (less than OUTLIVES_MS, so an answer at the block's end is late). */
const LATE_MS = 600;

/** The grace the host advertises, or a skip for a host that advertises none or one too long to wait for. */
function graceOf({ hello }: CheckContext): number {
  const graceMs = hello.deadlineGraceMs;
  if (graceMs === undefined) throw new CheckSkipped('the host does not advertise deadlineGraceMs in its hello (protocol.md §6.2), so when it gives up a tool deaf to its deadline is not known');
  if (graceMs > MAX_TESTABLE_GRACE_MS) {
    throw new CheckSkipped(`the host's deadlineGraceMs is ${graceMs} ms (over ${MAX_TESTABLE_GRACE_MS}); start it with a shorter one (sandbox: --deadline-grace-ms 500)`);
  }
  return graceMs;
}

export const deadlineChecks: readonly Check[] = [
  {
    id: 'deadline.exceeded',
    requirement: 'DL-1',
    title: `a ${BLOCK_MS} ms block with deadlineMs ${DEADLINE_MS} ends with DEADLINE_EXCEEDED (state cancelled) well before ${BLOCK_MS} ms`,
    needs: [KIT.block],
    async run(context) {
      const session = await context.connect();
      const call = startWith(context, session, { callId: uniqueId('deadline'), tool: KIT.block, arguments: { ms: BLOCK_MS }, deadlineMs: DEADLINE_MS });
      const outcome = await within(call.outcome, ENDS_WITHIN_MS, `the end of a ${BLOCK_MS} ms block past its ${DEADLINE_MS} ms deadline`);
      const error = await expectRejection(outcome, 'DEADLINE_EXCEEDED', `a ${BLOCK_MS} ms block with deadlineMs ${DEADLINE_MS}`);
      assertEqual([error.data.deadlineMs, error.data.state], [DEADLINE_MS, 'cancelled'], '[data.deadlineMs, data.state] of the DEADLINE_EXCEEDED');
      const status = await session.status(call.callId);
      assertEqual([status.state, status.error?.code], ['cancelled', 'DEADLINE_EXCEEDED'], '[state, error.code] in calls/status');
      const ran = (status.finishedAt ?? 0) - (status.startedAt ?? 0);
      assert(ran >= DEADLINE_MS - 20, `the block was stopped after ${ran} ms of running, before its ${DEADLINE_MS} ms deadline`);
    },
  },
  {
    id: 'deadline.queued-time',
    requirement: 'DL-1',
    title: `a ${QUEUED_BLOCK_MS} ms block queued for twice its deadlineMs (${DEADLINE_MS}) still completes: the deadline counts running time only`,
    needs: [KIT.block],
    async run(context) {
      const session = await context.connect();
      const holder = await startBlock(context, session);
      const queued = startWith(context, session, { callId: uniqueId('deadline-queued'), tool: KIT.block, arguments: { ms: QUEUED_BLOCK_MS }, deadlineMs: DEADLINE_MS });
      await untilState(session, queued.callId, 'queued');
      // Twice its deadline in the queue: a host that counted that time would stop it at once when it starts, or before.
      await delay(2 * DEADLINE_MS);
      assertEqual((await session.status(queued.callId)).state, 'queued', `the call after ${2 * DEADLINE_MS} ms in the queue`);
      await session.cancel(holder.callId);
      expectSuccess(await within(queued.outcome, ENDS_WITHIN_MS, 'the end of the block queued past its deadline'), `a ${QUEUED_BLOCK_MS} ms block queued past its deadline`);
    },
  },
  {
    id: 'deadline.give-up',
    requirement: 'DL-2',
    title: 'a block that ignores its cancellation is given up deadlineGraceMs after its deadline: OUTCOME_UNKNOWN, interrupted, even once it ends',
    needs: [KIT.block, KIT.read],
    timeoutMs: ({ hello }) => GIVE_UP_DEADLINE_MS + 2 * Math.min(hello.deadlineGraceMs ?? 0, MAX_TESTABLE_GRACE_MS) + OUTLIVES_MS + 10_000,
    async run(context) {
      const graceMs = graceOf(context);
      const session = await context.connect();
      const blockMs = GIVE_UP_DEADLINE_MS + graceMs + OUTLIVES_MS;
      const params = { callId: uniqueId('give-up'), tool: KIT.block, arguments: { ms: blockMs, ignoreCancel: true }, deadlineMs: GIVE_UP_DEADLINE_MS };
      const call = startWith(context, session, params);
      await untilState(session, call.callId, 'running');
      const { startedAt = Date.now() } = await session.status(call.callId);
      const dueMs = GIVE_UP_DEADLINE_MS + graceMs;
      const outcome = await within(
        call.outcome,
        dueMs + LATE_MS,
        `the answer for a block deaf to its ${GIVE_UP_DEADLINE_MS} ms deadline (due ${dueMs} ms after it started, with deadlineGraceMs ${graceMs})`,
      );
      const error = await expectRejection(outcome, 'OUTCOME_UNKNOWN', `a ${blockMs} ms block that ignores its ${GIVE_UP_DEADLINE_MS} ms deadline`);
      const { callId, tool, deadlineMs, graceMs: givenGrace, state } = error.data;
      assertEqual(
        { callId, tool, deadlineMs, graceMs: givenGrace, state },
        { callId: call.callId, tool: KIT.block, deadlineMs: GIVE_UP_DEADLINE_MS, graceMs, state: 'interrupted' },
        'the data of the OUTCOME_UNKNOWN',
      );
      assert(outcome.at - startedAt >= dueMs - 50, `the block was given up ${outcome.at - startedAt} ms after it started, before its deadline and grace (${dueMs} ms)`);

      // The block still holds the main thread: a call behind it runs once it has ended, which must change nothing.
      await within(readCounter(session, uniqueId('give-up-after')), blockMs + LATE_MS, 'a call after the given-up block (it runs once the block has ended)');
      const status = await session.status(call.callId);
      assertEqual([status.state, status.error?.code], ['interrupted', 'OUTCOME_UNKNOWN'], '[state, error.code] of the given-up block after it ended');
      const replay = await expectRejection(session.start({ ...params, attachOnly: true }), 'OUTCOME_UNKNOWN', 'attachOnly for the given-up block after it ended');
      assertEqual(replay.data.replayed, true, 'data.replayed of the attachOnly');
    },
  },
];
