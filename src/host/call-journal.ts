/**
 * The call journal: what the host knows about every callId it has seen, so that each runs
 * at most once. Entries are written ahead (queued before enqueueing, running before the
 * tool starts), kept for a retention period after they finish, and, with a file store,
 * survive a domain reload or a crash: a call found "running" on load was interrupted, and
 * its outcome is unknown. Finished read-only calls, kept in memory only, are also held to a
 * memory budget. Entries are journal-entry.ts; stores, journal-store.ts and file-journal-store.ts.
 */
import { FinishOrder, type Finished } from './finish-order.js';
import { isFinal, type JournalEntry } from './journal-entry.js';
import type { JournalStore } from './journal-store.js';

/**
 * Whether a record must be on the disk itself before save returns: those whose loss to a
 * power cut or an OS crash could let a call run when it must not. "running", written before
 * the tool starts, so a restart finds it interrupted instead of queued; the final state of a
 * call that never started (cancelled or failed while queued), which a restart would
 * otherwise queue again; and a withdrawal from a shared call, which a restart would
 * otherwise forget, so that the call could run for a requester told it was cancelled. The others only reach the OS, which no crash of the host process
 * loses; a power cut may, leaving the record before, which errs toward "unknown" (a lost
 * "queued" makes the callId UNKNOWN_CALL, a lost final state leaves "running", hence
 * interrupted), never toward a second run. So a side-effecting call pays one sync, for
 * "running" (and the sync flushes every record appended before it): 0.2 to 2.5 ms on the
 * virtual ext4 disk it was measured on, against about 15 us for an append without one.
 * Read-only calls are journaled in memory only and pay none.
 */
function mustSync(entry: JournalEntry): boolean {
  if (isFinal(entry)) return entry.startedAt === undefined;
  return entry.state === 'running' || entry.withdrawn !== undefined;
}

/** What finished read-only calls may hold by default before the oldest are forgotten. */
export const DEFAULT_READ_ONLY_BUDGET_BYTES = 64 * 1024 * 1024;
/** What a finished entry costs beside its strings (the objects, the map's slot). */
const ENTRY_OVERHEAD_BYTES = 512;

/** A finished read-only entry the journal keeps, and about what it holds. */
interface KeptReadOnly extends Finished {
  bytes: number;
}

export class CallJournal {
  private readonly entries = new Map<string, JournalEntry>();
  /** Finished read-only entries still kept, by callId. */
  private readonly finishedReadOnly = new Map<string, KeptReadOnly>();
  /**
   * The same, in the order they finished: what the budget evicts first, and what prune
   * expires. A queue, not the Map's own order: a Map iterator walks every slot deleted before
   * it, so evicting through one cost 10-15 us a call at 50,000 entries, and more the larger
   * the budget.
   */
  private readonly keptInOrder = new FinishOrder<KeptReadOnly>();
  /**
   * The other finished entries (those in the store), in the order they finished: prune takes
   * the expired ones off the fronts of the two queues instead of walking every entry (a walk
   * of the whole journal every 5 s cost, under a steady stream of calls, as much per call as
   * the journal had entries per 5 s of calls). Read-only ones are not here: the budget may
   * evict them long before they expire, and their records would outlive them.
   */
  private readonly finishOrder = new FinishOrder<Finished>();
  private readOnlyBytes = 0;
  private writesSinceCompaction = 0;
  private lastPrune = 0;

  constructor(
    private readonly store: JournalStore,
    readonly retentionMs: number,
    /**
     * Read-only calls are kept in memory only, each with its result (a screenshot is
     * megabytes), so under a steady stream of them the retention alone does not bound the
     * host's memory. Past this budget the oldest finished ones are forgotten early, which is
     * harmless: a read-only call the host no longer knows is simply run again when asked.
     */
    readonly readOnlyBudgetBytes = DEFAULT_READ_ONLY_BUDGET_BYTES,
  ) {}

  /**
   * Loads what a previous life of the host left. Calls that were running are marked
   * interrupted (outcome unknown); queued ones are returned so they can be queued again,
   * since they never started.
   */
  load(now = Date.now()): { requeue: JournalEntry[]; interrupted: JournalEntry[] } {
    const requeue: JournalEntry[] = [];
    const interrupted: JournalEntry[] = [];
    const finished: Finished[] = [];
    for (const entry of this.store.load()) {
      if (this.expired(entry, now)) continue;
      if (entry.state === 'running') {
        entry.state = 'interrupted';
        entry.finishedAt = now;
        entry.error = {
          code: 'OUTCOME_UNKNOWN',
          message: `The host stopped while "${entry.tool}" was running, so whether it took effect is unknown. Check the editor's state before running it again.`,
          data: { callId: entry.callId, tool: entry.tool },
        };
        interrupted.push(entry);
      } else if (entry.state === 'queued') {
        requeue.push(entry);
      }
      this.entries.set(entry.callId, entry);
      if (isFinal(entry) && entry.finishedAt !== undefined) finished.push({ callId: entry.callId, finishedAt: entry.finishedAt });
    }
    for (const record of finished.sort((a, b) => a.finishedAt - b.finishedAt)) this.finishOrder.push(record);
    this.compact();
    return { requeue, interrupted };
  }

  get(callId: string): JournalEntry | undefined {
    return this.entries.get(callId);
  }

  /** Drops an entry the store could not record: the call was never accepted. */
  forget(callId: string): void {
    this.entries.delete(callId);
    // A read-only call kept within the budget must not stay counted, nor be evicted later
    // under a callId used again by then.
    this.unkeep(callId);
  }

  values(): IterableIterator<JournalEntry> {
    return this.entries.values();
  }

  /**
   * Records the entry's current state durably. Throws when the store cannot (a full or failing
   * disk): the store then holds the entry's previous record, while memory holds the entry as
   * given, and the caller decides what that means for the call.
   */
  save(entry: JournalEntry): void {
    this.entries.set(entry.callId, entry);
    if (entry.volatile) {
      if (isFinal(entry)) this.keepWithinBudget(entry);
      return;
    }
    // Queued for prune as it is recorded, even should the store refuse it: memory holds it.
    if (isFinal(entry) && entry.finishedAt !== undefined) this.finishOrder.push({ callId: entry.callId, finishedAt: entry.finishedAt });
    this.store.save(entry, mustSync(entry));
    // Compacted once the store holds a few records per entry it keeps: read-only entries,
    // however many, are not in it.
    if (++this.writesSinceCompaction > Math.max(256, (this.entries.size - this.finishedReadOnly.size) * 4)) this.compact();
  }

  /**
   * Forgets finished calls older than the retention, taking them off the front of the finish
   * order (calls expire in the order they finished; one behind a later clock waits for those
   * before it). It looks at most once per tenth of the retention (5 s at most), so that the
   * durable ones leave the store in one compaction, not one each; an entry outlives its
   * retention by no more than that.
   */
  prune(now = Date.now()): void {
    if (now - this.lastPrune < Math.min(this.retentionMs / 10, 5_000)) return;
    this.lastPrune = now;
    for (let oldest = this.keptInOrder.peek(); oldest && (!this.isKept(oldest) || now - oldest.finishedAt > this.retentionMs); oldest = this.keptInOrder.peek()) {
      this.keptInOrder.shift();
      if (!this.isKept(oldest)) continue; // forgotten already
      this.unkeep(oldest.callId);
      this.entries.delete(oldest.callId);
    }
    let removedDurable = false;
    for (let next = this.finishOrder.peek(); next && now - next.finishedAt > this.retentionMs; next = this.finishOrder.peek()) {
      this.finishOrder.shift();
      const entry = this.entries.get(next.callId);
      // Forgotten already, or the callId's entry is another one since (it has its own record).
      if (!entry || entry.volatile || !this.expired(entry, now)) continue;
      this.entries.delete(next.callId);
      removedDurable = true;
    }
    // The store never held read-only entries: forgetting only those leaves it as it is (a file
    // rewrite is two fsyncs, every 5 s under a steady stream of read-only calls).
    if (removedDurable) this.compact();
  }

  /** Counts a finished read-only entry, forgetting the oldest others while over the budget. */
  private keepWithinBudget(entry: JournalEntry): void {
    if (this.finishedReadOnly.has(entry.callId)) return;
    const newest: KeptReadOnly = {
      callId: entry.callId,
      finishedAt: entry.finishedAt ?? Date.now(),
      bytes: ENTRY_OVERHEAD_BYTES + stringBytes(entry.result, 4) + stringBytes(entry.arguments, 2) + stringBytes(entry.unhashedArguments, 2),
    };
    this.finishedReadOnly.set(newest.callId, newest);
    this.keptInOrder.push(newest);
    this.readOnlyBytes += newest.bytes;
    // The one just finished stays, whatever its place (first, should a clock have been set back).
    let setAside = false;
    while (this.readOnlyBytes > this.readOnlyBudgetBytes) {
      const oldest = this.keptInOrder.shift();
      if (oldest === undefined) break;
      if (oldest === newest) setAside = true;
      // Forgotten already: nothing left to evict for it.
      else if (this.isKept(oldest)) {
        this.unkeep(oldest.callId);
        this.entries.delete(oldest.callId);
      }
    }
    if (setAside) this.keptInOrder.push(newest);
  }

  /** Stops counting a callId's finished read-only call against the budget; false if it was not counted. */
  private unkeep(callId: string): boolean {
    const kept = this.finishedReadOnly.get(callId);
    if (!kept) return false;
    this.finishedReadOnly.delete(callId);
    this.readOnlyBytes -= kept.bytes;
    return true;
  }

  private isKept(record: KeptReadOnly): boolean {
    return this.finishedReadOnly.get(record.callId) === record;
  }

  private expired(entry: JournalEntry, now: number): boolean {
    return isFinal(entry) && entry.finishedAt !== undefined && now - entry.finishedAt > this.retentionMs;
  }

  /**
   * Rewrites the store from memory. One that fails (a full disk) leaves the file as it was, a
   * valid journal, only longer: it must not fail the save or the call that happened to
   * trigger it, and a later one tries again.
   */
  private compact(): void {
    this.writesSinceCompaction = 0;
    try {
      this.store.rewrite([...this.entries.values()].filter((entry) => !entry.volatile));
    } catch {
      // Kept as it was; see above.
    }
  }
}

/**
 * About how many bytes of strings a value holds, `depth` levels down: where a result's size is.
 * Its own enumerable members, as Object.values lists them (an array's by index: JSON arrays
 * hold nothing else), walked without building that list (an array per level, every read-only call).
 */
export function stringBytes(value: unknown, depth: number): number {
  if (typeof value === 'string') return value.length;
  if (depth === 0 || value === null || typeof value !== 'object') return 0;
  let bytes = 0;
  if (Array.isArray(value)) {
    for (let i = 0; i < value.length; i++) bytes += stringBytes(value[i], depth - 1);
    return bytes;
  }
  // A plain object's for-in lists its own members only; any other is walked as before.
  if (Object.getPrototypeOf(value) !== Object.prototype) {
    for (const item of Object.values(value)) bytes += stringBytes(item, depth - 1);
    return bytes;
  }
  for (const key in value) bytes += stringBytes((value as Record<string, unknown>)[key], depth - 1);
  return bytes;
}
