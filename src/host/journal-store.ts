/**
 * Where journal entries are kept: the interface every store implements, and the store in
 * memory (a journal that lives as long as the process). The file store is file-journal-store.ts.
 */
import type { JournalEntry } from './journal-entry.js';

export interface JournalStore {
  /**
   * What the store holds. Throws when it cannot tell (a journal that exists but cannot be
   * read, or a place it cannot be written): a host that went on without its journal could
   * run again a call it had already run.
   */
  load(): JournalEntry[];
  /**
   * Records the entry's latest state before returning; throws, having recorded nothing, when
   * it cannot. `sync`: on the disk itself, surviving a power cut or an OS crash; otherwise it
   * may only have reached the OS (it survives a crash of the process).
   */
  save(entry: JournalEntry, sync: boolean): void;
  /** Replaces the whole store with these entries (compaction). */
  rewrite(entries: JournalEntry[]): void;
}

/**
 * A store in memory. It snapshots each entry's fields when saved, sharing results by
 * reference: a finished result never changes, and deep-copying every result on every save
 * cost as much as the call itself for large ones.
 */
export class MemoryJournalStore implements JournalStore {
  private entries = new Map<string, JournalEntry>();
  load(): JournalEntry[] {
    return [...this.entries.values()].map((e) => ({ ...e }));
  }
  save(entry: JournalEntry): void {
    this.entries.set(entry.callId, { ...entry });
  }
  rewrite(entries: JournalEntry[]): void {
    this.entries = new Map(entries.map((e) => [e.callId, { ...e }]));
  }
}
