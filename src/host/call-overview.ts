/**
 * What host/status says of calls (protocol.md §7.16): every queued or running callId (aliases
 * right after the execution they share), running first, then in the order the queue would run
 * them, each with its last progress; and the calls that ended interrupted within the
 * retention, newest first. Each list holds at most `max`; the rest are counted.
 */
import type { CallStatus, HostStatusCall } from '../protocol/index.js';
import type { CallJournal } from './call-journal.js';
import type { MainThreadExecutor } from './executor.js';
import type { LiveCall } from './live-call.js';

export interface CallOverview {
  calls: HostStatusCall[];
  unknownOutcomes: HostStatusCall[];
  omitted: { calls: number; unknownOutcomes: number };
}

export interface OverviewSources {
  /** Every execution queued or running. */
  executions: ReadonlySet<LiveCall>;
  executor: MainThreadExecutor<LiveCall>;
  journal: CallJournal;
  status(callId: string): CallStatus;
}

export function callOverview({ executions, executor, journal, status }: OverviewSources, max: number, now: number): CallOverview {
  const running = [...executions].filter((call) => call.entry.state === 'running');
  const queued = executor.inOrder(max);
  const inQueue = new Set(queued);
  // Requeued calls held for their requesters, or off-thread ones waiting for the grace: queued, after the rest.
  const waiting = [...executions].filter((call) => call.entry.state === 'queued' && !inQueue.has(call));
  let total = 0;
  const calls: HostStatusCall[] = [];
  for (const call of [...running, ...queued, ...waiting]) {
    for (const { entry } of call.requesters.values()) {
      total++;
      if (calls.length >= max) continue;
      const { progress, total: of, message } = call.lastProgress;
      const last = { ...(progress === undefined ? {} : { progress }), ...(of === undefined ? {} : { total: of }), ...(message === undefined ? {} : { message }) };
      calls.push({ ...status(entry.callId), ...(Object.keys(last).length > 0 ? { lastProgress: last } : {}) });
    }
  }
  // The queue holds more than was walked: count them too.
  if (queued.length >= max) total += Math.max(0, executor.queued - queued.length);
  const interrupted = [...journal.values()]
    .filter((entry) => entry.state === 'interrupted' && (entry.finishedAt === undefined || now - entry.finishedAt <= journal.retentionMs))
    .sort((a, b) => (b.finishedAt ?? 0) - (a.finishedAt ?? 0));
  return {
    calls,
    unknownOutcomes: interrupted.slice(0, max).map((entry) => status(entry.callId)),
    omitted: { calls: total - calls.length, unknownOutcomes: Math.max(0, interrupted.length - max) },
  };
}
