/**
 * Domain reloads: the host announces them (state "reloading", then a bye), goes away, comes
 * back, and still knows every finished call by its callId, including the call that
 * triggered the reload, whose answer could not be delivered on the connection it closed; a
 * call the reload cut off ends interrupted, and one it found queued runs once afterwards.
 */
import { listHostRecords } from '../discovery/host-record.js';
import { Bye, HostStateNotice, METHODS, type CallStartResult } from '../protocol/index.js';
import { assert, assertEqual, expectRejection, expectSuccess, isRecord, settle, show, within, type Outcome } from './assertions.js';
import { KIT, LONG_BLOCK_MS, countOf, readCounter, startBlock, uniqueId, untilState } from './kit.js';
import type { Notice, Session } from './session.js';
import { HOST_BACK_TIMEOUT_MS } from './target.js';
import type { Check, CheckContext } from './types.js';

/** From the reload request to the connection closing: the host finishes the call, says bye, and hangs up. */
const GOODBYE_MS = 10_000;
const RELOAD_CHECK_MS = HOST_BACK_TIMEOUT_MS + 2 * GOODBYE_MS;
/** A call the host knows the outcome of is answered at once. */
const PROMPT_MS = 2_000;
/** A call queued across the reload runs within this once the host is back (the reference holds it up to 2 s for its requesters). */
const RUNS_MS = 8_000;

interface Reload {
  params: { callId: string; tool: string; arguments: Record<string, never> };
  /** calls/start of the reload call: a result, or CONNECTION_CLOSED when the bye came first. */
  outcome: Outcome<CallStartResult>;
}

/**
 * Triggers a reload through `session` and waits until the host has closed it. Whatever the
 * check concludes, it ends only once the host is back, so the next check finds a host.
 */
async function reloadThrough(context: CheckContext, session: Session): Promise<Reload> {
  const params = { callId: uniqueId('reload'), tool: KIT.reload, arguments: {} };
  context.defer(() => context.waitForHostBack());
  const pending = settle(session.start(params));
  await within(session.closed, GOODBYE_MS, 'the host closing the connection for the reload');
  const outcome = await pending;
  if (!outcome.ok) await expectRejection(outcome, 'CONNECTION_CLOSED', 'calls/start of the reload call');
  return { params, outcome };
}

function byeOf(notices: readonly Notice[]): Bye {
  const notice = notices.find((n) => n.method === METHODS.bye);
  assert(notice, `the connection closed without a ${METHODS.bye} (notifications: ${show(notices.map((n) => n.method))})`);
  const parsed = Bye.safeParse(notice.params);
  assert(parsed.success, `a malformed bye: ${show(notice.params)}`);
  assertEqual(parsed.data.reason, 'reload', 'the bye reason');
  return parsed.data;
}

export const reloadChecks: readonly Check[] = [
  {
    id: 'reload.record-mark',
    requirement: 'RL-4',
    title: "the record is marked reloadingSince while the host is away for a reload, and the next domain's record is not",
    needs: [KIT.reload],
    timeoutMs: RELOAD_CHECK_MS,
    async run(context) {
      const { target } = context;
      const recordNow = () => listHostRecords(target.recordsDir).find((r) => r.instanceId === target.record.instanceId);
      const session = await context.connect();
      await reloadThrough(context, session);
      // The port closes after the mark is written: once the connection is gone, the mark is there.
      const away = recordNow();
      assert(away, 'the host record is gone during the reload: a reload keeps it (protocol.md §9)');
      assert(
        typeof away.reloadingSince === 'string' && Math.abs(Date.parse(away.reloadingSince) - Date.now()) < 60_000,
        `during the reload the record must say reloadingSince (ISO 8601, now), so that a client refused by its port waits for the editor; it says ${show(away.reloadingSince)}`,
      );
      await context.waitForHostBack();
      const back = recordNow();
      assert(back, 'the host record is gone after the reload');
      assert(back.reloadingSince === undefined, `the next domain's record still says reloadingSince ${show(back.reloadingSince)}: a crashed editor's record would then look like a reloading one`);
    },
  },
  {
    id: 'state.reloading',
    requirement: 'SN-1',
    title: 'a reload is announced with state "reloading" (and expectedMs), then a bye with reason "reload"',
    needs: [KIT.reload],
    timeoutMs: RELOAD_CHECK_MS,
    async run(context) {
      const session = await context.connect();
      await reloadThrough(context, session);
      const { notices } = session;
      const byeAt = notices.findIndex((n) => n.method === METHODS.bye);
      byeOf(notices);
      const stateAt = notices.findIndex((n) => n.method === METHODS.hostState && isRecord(n.params) && n.params.state === 'reloading');
      assert(stateAt >= 0, `no ${METHODS.hostState} "reloading" before the bye (notifications: ${show(notices.map((n) => n.method))})`);
      assert(stateAt < byeAt, `the "reloading" state came after the bye`);
      const parsed = HostStateNotice.safeParse(notices[stateAt]?.params);
      assert(parsed.success, `a malformed ${METHODS.hostState}: ${show(notices[stateAt]?.params)}`);
      const state = parsed.data;
      assert(typeof state.expectedMs === 'number' && state.expectedMs >= 0, `the "reloading" state must say how long the host expects to be away (expectedMs): ${show(state)}`);
    },
  },
  {
    id: 'reload.retention',
    requirement: 'RL-1',
    title: 'after a reload, a finished call and the reload call itself replay by callId (attachOnly)',
    needs: [KIT.count, KIT.read, KIT.reload],
    timeoutMs: RELOAD_CHECK_MS,
    async run(context) {
      const before = await context.connect();
      const key = uniqueId('retention');
      const counted = { callId: uniqueId('retention-count'), tool: KIT.count, arguments: { key } };
      const original = await before.start(counted);
      const reload = await reloadThrough(context, before);
      byeOf(before.notices);
      await context.waitForHostBack();

      const after = await context.connect();
      const replayed = await after.start({ ...counted, attachOnly: true });
      assert(replayed.replayed, `the count call after the reload must be replayed: ${show(replayed)}`);
      assertEqual(replayed.result, original.result, 'the count result after the reload (vs. before)');
      const reloadResult = await after.start({ ...reload.params, attachOnly: true });
      assert(reloadResult.replayed, `the reload call must be replayed after the reload: ${show(reloadResult)}`);
      assert(!reloadResult.result.isError, `the reload call's stored result is an error: ${show(reloadResult.result)}`);
      if (reload.outcome.ok) assertEqual(reloadResult.result, reload.outcome.value.result, 'the reload result (vs. the one delivered before the bye)');
      assertEqual(await readCounter(after, key), 1, `counter "${key}" (the count call must not run again)`);
    },
  },
  {
    id: 'reload.cut-off',
    requirement: 'RL-2',
    title: 'a call running (beside the main thread) when the host reloads ends interrupted: attachOnly gets OUTCOME_UNKNOWN, never a result',
    needs: [KIT.wait, KIT.reload],
    timeoutMs: RELOAD_CHECK_MS,
    async run(context) {
      const before = await context.connect();
      const cut = { callId: uniqueId('cut-off'), tool: KIT.wait, arguments: { ms: LONG_BLOCK_MS } };
      const running = settle(before.start(cut));
      await untilState(before, cut.callId, 'running');
      // The reload runs on the main thread, which the wait leaves free: the host goes away under the wait.
      await reloadThrough(context, before);
      const lost = await running;
      assert(!lost.ok, `the cut-off call answered a result on the connection the reload closed: ${show(lost.ok ? lost.value : undefined)}`);
      await context.waitForHostBack();

      const after = await context.connect();
      const what = 'attachOnly for the call the reload cut off';
      const error = await expectRejection(await within(settle(after.start({ ...cut, attachOnly: true })), PROMPT_MS, what), 'OUTCOME_UNKNOWN', what);
      assertEqual([error.data.state, error.data.replayed], ['interrupted', true], `[data.state, data.replayed] of ${what}`);
      const status = await after.status(cut.callId);
      assertEqual([status.state, status.error?.code], ['interrupted', 'OUTCOME_UNKNOWN'], '[state, error.code] of the cut-off call in calls/status');
    },
  },
  {
    id: 'reload.queued-survives',
    requirement: 'RL-3',
    title: 'a call queued behind a reload stays queued across it and runs once afterwards; attachOnly gets its result',
    needs: [KIT.block, KIT.count, KIT.read, KIT.reload],
    timeoutMs: RELOAD_CHECK_MS,
    async run(context) {
      const before = await context.connect();
      const holder = await startBlock(context, before);
      const reload = { callId: uniqueId('reload'), tool: KIT.reload, arguments: {} };
      const key = uniqueId('queued-reload');
      const counted = { callId: uniqueId('queued-reload-count'), tool: KIT.count, arguments: { key } };
      context.defer(() => context.waitForHostBack());
      const reloading = settle(before.start(reload));
      const queued = settle(before.start(counted));
      await untilState(before, counted.callId, 'queued');
      assertEqual((await before.status(reload.callId)).state, 'queued', 'the reload call behind the block');
      // The reload runs next, with the count queued behind it: no call starts once a reload has begun.
      await before.cancel(holder.callId);
      await within(before.closed, GOODBYE_MS, 'the host closing the connection for the reload');
      await reloading;
      const early = await queued;
      assert(!early.ok, `the call queued behind the reload ran before the host went away (no call starts once a reload begins, protocol.md §8.8): ${show(early.ok ? early.value : undefined)}`);
      await context.waitForHostBack();

      const after = await context.connect();
      const what = 'attachOnly for the call queued across the reload';
      const answer = expectSuccess(await within(settle(after.start({ ...counted, attachOnly: true })), RUNS_MS, `the answer to ${what}`), what);
      assertEqual(countOf(answer.result, 'the result of the call queued across the reload'), 1, 'the count it returned');
      assertEqual((await after.status(counted.callId)).state, 'completed', 'calls/status of the call queued across the reload');
      assertEqual(await readCounter(after, key), 1, `counter "${key}" (queued across a reload, run once)`);
    },
  },
];
