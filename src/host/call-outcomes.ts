/**
 * How a call's end is recorded and reported: final states journaled (an alias copying the
 * execution it shared), the calls/start answer rebuilt from an entry, and its CallStatus.
 */
import { TetherError, type CallStartResult, type CallStatus, type ToolResult } from '../protocol/index.js';
import type { CallJournal } from './call-journal.js';
import { callErrors } from './call-errors.js';
import { isFinal, type JournalEntry, type JournalError } from './journal-entry.js';

/** An error as the journal keeps it (and as it travels again when replayed). */
export function wireError(error: TetherError): JournalError {
  return { code: error.code, message: error.message, data: { ...error.data } };
}

/** The final state an error ends a call in. */
export function stateFor(error: TetherError): JournalEntry['state'] {
  if (error.code === 'CANCELLED' || error.code === 'DEADLINE_EXCEEDED') return 'cancelled';
  return error.code === 'OUTCOME_UNKNOWN' ? 'interrupted' : 'failed';
}

/** The answer to calls/start for a finished call: its result, or its error rebuilt. */
export function outcomeOf(entry: JournalEntry, replayed: boolean): CallStartResult {
  if (entry.state === 'completed' && entry.result) {
    const { callId, result, aliasOf } = entry;
    const startedAt = entry.startedAt ?? entry.queuedAt;
    const finishedAt = entry.finishedAt ?? Date.now();
    // Two literals, not a spread of attachedTo between the members: the members a literal
    // defines after a spread go through V8's runtime, one call each. Same keys, same order.
    return aliasOf ? { callId, result, replayed, attachedTo: aliasOf, startedAt, finishedAt } : { callId, result, replayed, startedAt, finishedAt };
  }
  const error = entry.error ?? { code: 'INTERNAL_ERROR', message: `Call "${entry.callId}" ended without a result.` };
  throw new TetherError(error.code as TetherError['code'], error.message, { ...error.data, callId: entry.callId, state: entry.state, replayed });
}

/** A CallStatus (protocol.md §7.5); `position` is given only while the call is queued. */
export function statusOf(entry: JournalEntry, position: number | undefined): CallStatus {
  return {
    callId: entry.callId,
    tool: entry.tool,
    state: entry.state,
    ...(position === undefined ? {} : { position }),
    queuedAt: entry.queuedAt,
    ...(entry.startedAt === undefined ? {} : { startedAt: entry.startedAt }),
    ...(entry.finishedAt === undefined ? {} : { finishedAt: entry.finishedAt }),
    ...(entry.result ? { result: entry.result } : {}),
    ...(entry.error ? { error: entry.error } : {}),
    ...(entry.aliasOf ? { attachedTo: entry.aliasOf } : {}),
    ...(entry.agent ? { agent: entry.agent } : {}),
  };
}

/**
 * Records a final state. If the journal cannot take it, memory keeps it (and the next
 * compaction writes it) and the call's outcome stands, except for a call that never ran:
 * the journal still says "queued", which runs on the next load, so no one may be told
 * that it will not run.
 */
export function recordFinal(journal: CallJournal, target: JournalEntry, state: JournalEntry['state'], result: ToolResult | undefined, error: JournalError | undefined): void {
  const neverRan = target.state === 'queued';
  target.state = state;
  target.finishedAt = Date.now();
  if (result) target.result = result;
  if (error) target.error = { ...error, data: { ...error.data, callId: target.callId } };
  try {
    journal.save(target);
  } catch (failure) {
    if (!neverRan) return;
    target.state = 'interrupted';
    delete target.result;
    target.error = wireError(callErrors.outcomeNotJournaled(target.callId, target.tool, failure));
  }
}

/** An alias ends as the execution it shared ended, or cancelled if it withdrew. */
export function copyOutcome(journal: CallJournal, alias: JournalEntry, source: JournalEntry | undefined): void {
  if (alias.withdrawn) recordFinal(journal, alias, 'cancelled', undefined, alias.withdrawn);
  else if (source && isFinal(source)) recordFinal(journal, alias, source.state, source.result, source.error);
  else recordFinal(journal, alias, 'interrupted', undefined, wireError(callErrors.sharedOutcomeUnknown(alias.callId)));
}
