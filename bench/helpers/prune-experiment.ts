/**
 * An experiment, not a fix: CallJournal.prune (src/host/call-journal.ts) scans every journal
 * entry and runs after every finished call (CallManager.finish in src/host/calls.ts), so a
 * host's per-call cost grows with the calls of the last retention window (15 min). Running
 * it at most once a second shows what an O(1) prune would give. Used by the bench host with
 * --amortized-prune.
 */
import { CallJournal } from 'tether-mcp/host';

export function amortizePrune(intervalMs = 1_000): void {
  const prune = CallJournal.prototype.prune;
  const last = new WeakMap<CallJournal, number>();
  CallJournal.prototype.prune = function (this: CallJournal, now = Date.now()): void {
    if (now - (last.get(this) ?? 0) < intervalMs) return;
    last.set(this, now);
    prune.call(this, now);
  };
}
