import { createHash } from 'node:crypto';
import { appendFileSync, mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { basename, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { CallJournal } from '../../src/host/call-journal.js';
import { FileJournalStore } from '../../src/host/file-journal-store.js';
import { hashArguments, type JournalEntry } from '../../src/host/journal-entry.js';
import { MemoryJournalStore } from '../../src/host/journal-store.js';
import { canonicalJson } from '../../src/protocol/index.js';
import { faultyDisk } from './faulty-disk.js';

function entry(callId: string, state: JournalEntry['state'], extra: Partial<JournalEntry> = {}): JournalEntry {
  return { callId, tool: 't', arguments: {}, argsHash: 'h', lane: 'c1', state, queuedAt: 0, ...extra };
}

/** A finished read-only call whose result is a text of `chars` characters (what the budget counts). */
function finishedReadOnly(callId: string, { chars = 4_000, finishedAt = Date.now() } = {}): JournalEntry {
  return entry(callId, 'completed', { volatile: true, finishedAt, result: { content: [{ type: 'text', text: 'x'.repeat(chars) }] } });
}

describe('hashArguments', () => {
  it('gives the digest journals have always stored, so a call journaled before an upgrade still matches its retry', () => {
    // Pinned: sha256 of tool, NUL, canonical JSON (keys sorted), first 32 hex digits.
    expect(hashArguments('create_gameobject', { name: 'Player', at: { y: 1, x: 0 } })).toBe('3ea5d4d40e77ca50212deea12ba42153');
  });

  it('matches a Hash object fed the same parts (the path for Node before 20.12), lone surrogates included', () => {
    for (const args of [{}, { text: 'ping' }, { name: '\ud800 é 🎮', list: [1, null, true] }]) {
      const chained = createHash('sha256').update('tool').update('\0').update(canonicalJson(args)).digest('hex').slice(0, 32);
      expect(hashArguments('tool', args)).toBe(chained);
    }
  });
});

describe('CallJournal', () => {
  it('forgets the oldest finished read-only entries past its budget, never a running or a durable one', () => {
    const journal = new CallJournal(new MemoryJournalStore(), 60_000, 10_000);
    journal.save(entry('live', 'running', { volatile: true, startedAt: 1 }));
    journal.save(entry('durable', 'completed', { finishedAt: Date.now(), result: { content: [{ type: 'text', text: 'y'.repeat(50_000) }] } }));
    journal.save(finishedReadOnly('a'));
    journal.save(finishedReadOnly('b'));
    expect(journal.get('a')).toBeDefined();
    journal.save(finishedReadOnly('c'));
    expect(['a', 'b', 'c'].map((id) => journal.get(id) !== undefined)).toEqual([false, true, true]);
    // One larger than the whole budget stays (it was just answered) and pushes out the rest.
    journal.save(finishedReadOnly('huge', { chars: 30_000 }));
    expect(['b', 'c', 'huge'].map((id) => journal.get(id) !== undefined)).toEqual([false, false, true]);
    expect(journal.get('live')?.state).toBe('running');
    expect(journal.get('durable')?.state).toBe('completed');
  });

  it("keeps the budget's age order across prunes, a pruned callId used again counting as new", () => {
    const journal = new CallJournal(new MemoryJournalStore(), 1_000, 10_000);
    journal.save(finishedReadOnly('a', { finishedAt: 0 }));
    journal.save(finishedReadOnly('b', { finishedAt: 1_000 }));
    journal.prune(1_500); // 'a' expired
    expect(journal.get('a')).toBeUndefined();
    journal.save(finishedReadOnly('a', { finishedAt: 1_600 })); // the callId again, for a new call
    journal.save(finishedReadOnly('c', { finishedAt: 1_700 })); // over the budget: 'b' is now the oldest
    expect(['b', 'a', 'c'].map((id) => journal.get(id) !== undefined)).toEqual([false, true, true]);
    // Under the budget nothing is evicted, and what prune forgets leaves the order with it.
    for (let i = 0; i < 3_000; i++) {
      journal.save(finishedReadOnly(`n${i}`, { finishedAt: 10_000 * (i + 1) }));
      journal.prune(10_000 * (i + 1) + 2_000);
    }
    const { keptInOrder } = journal as unknown as { keptInOrder: { length: number; items: unknown[] } };
    expect(keptInOrder.length).toBeLessThanOrEqual(1);
    expect(keptInOrder.items.length).toBeLessThan(2_100); // the spent front is dropped too
  });

  it('marks calls that were running as interrupted on load, and returns queued ones to run', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'journal.jsonl');
    const before = new CallJournal(new FileJournalStore(path), 60_000);
    before.save(entry('a', 'queued'));
    before.save(entry('a', 'running', { startedAt: 1 }));
    before.save(entry('b', 'queued'));
    before.save(entry('c', 'completed', { finishedAt: Date.now(), result: { content: [] } }));
    appendFileSync(path, '{"callId":"torn", "sta'); // a crash mid-write

    const after = new CallJournal(new FileJournalStore(path), 60_000);
    const { requeue, interrupted } = after.load();
    expect(interrupted.map((e) => e.callId)).toEqual(['a']);
    expect(after.get('a')).toMatchObject({ state: 'interrupted', error: { code: 'OUTCOME_UNKNOWN' } });
    expect(requeue.map((e) => e.callId)).toEqual(['b']);
    expect(after.get('c')?.state).toBe('completed');
    // Loading compacts: one line per call, the torn one gone.
    expect(readFileSync(path, 'utf8').trim().split('\n')).toHaveLength(3);
  });

  it('forgets finished calls after the retention, walking the journal at most once per tenth of it', () => {
    const journal = new CallJournal(new MemoryJournalStore(), 1_000);
    journal.save(entry('old', 'completed', { finishedAt: 0 }));
    journal.save(entry('live', 'running'));
    journal.prune(1_500);
    expect(journal.get('old')).toBeUndefined();
    expect(journal.get('live')).toBeDefined();
    journal.save(entry('next', 'completed', { finishedAt: 500 }));
    journal.prune(1_550); // expired, but 50 ms after the last walk: skipped (amortized)
    expect(journal.get('next')).toBeDefined();
    journal.prune(1_600); // a tenth of the retention later: walked
    expect(journal.get('next')).toBeUndefined();
  });

  it('never evicts the call just finished for an older record of its callId, expired out of order (a clock set back)', () => {
    const journal = new CallJournal(new MemoryJournalStore(), 1_000, 10_000);
    journal.save(finishedReadOnly('x', { finishedAt: 2_000 }));
    journal.save(finishedReadOnly('y', { finishedAt: 0 })); // finished after 'x', by a clock set back
    journal.prune(1_500); // 'y' expired, 'x' not: y's record stays behind x's in the queue
    journal.save(finishedReadOnly('y', { finishedAt: 1_600, chars: 9_600 })); // the callId again; over the budget with 'x'
    expect(journal.get('x')).toBeUndefined();
    expect(journal.get('y')?.finishedAt).toBe(1_600);
  });

  it('forgets a callId for the budget too, so a durable call under it later is never evicted', () => {
    const journal = new CallJournal(new MemoryJournalStore(), 60_000, 10_000);
    journal.save(finishedReadOnly('x'));
    journal.forget('x');
    journal.save(entry('x', 'running', { startedAt: 1 }));
    journal.save(finishedReadOnly('a'));
    journal.save(finishedReadOnly('b'));
    expect(journal.get('x')?.state).toBe('running');
  });

  it('rewrites its store for the entries it holds: not when prune forgets only read-only ones, nor later for holding many', () => {
    let rewrites = 0;
    const store = new (class extends MemoryJournalStore {
      override rewrite(entries: JournalEntry[]): void {
        rewrites++;
        super.rewrite(entries);
      }
    })();
    const journal = new CallJournal(store, 1_000);
    journal.save(entry('read', 'completed', { volatile: true, finishedAt: 0 }));
    journal.prune(1_500);
    expect(journal.get('read')).toBeUndefined();
    expect(rewrites).toBe(0);
    journal.save(entry('write', 'completed', { startedAt: 1, finishedAt: 1_500 }));
    journal.prune(3_000);
    expect(journal.get('write')).toBeUndefined();
    expect(rewrites).toBe(1);
    // Compaction counts the records of the entries the store keeps, not the read-only ones held.
    for (let i = 0; i < 1_000; i++) journal.save(entry(`r${i}`, 'completed', { volatile: true, finishedAt: 3_000 }));
    for (let i = 0; i < 300; i++) journal.save(entry('busy', i % 2 ? 'running' : 'queued'));
    expect(rewrites).toBe(2);
  });

  it('keeps volatile (read-only) calls out of the store', () => {
    const store = new MemoryJournalStore();
    const journal = new CallJournal(store, 60_000);
    journal.save(entry('r', 'completed', { volatile: true, finishedAt: Date.now() }));
    journal.save(entry('w', 'completed', { finishedAt: Date.now() }));
    expect(journal.get('r')).toBeDefined();
    expect(store.load().map((e) => e.callId)).toEqual(['w']);
  });

  it.each([
    ['the failed write is taken back', false],
    ['taking it back fails too, so the next save cuts it off', true],
  ])('keeps a record saved after a write that failed part-way (%s)', (_how, truncateFails) => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'journal.jsonl');
    const disk = faultyDisk();
    const journal = new CallJournal(new FileJournalStore(path, disk.fs), 60_000);
    journal.save(entry('a', 'queued'));
    const before = readFileSync(path, 'utf8');
    // Another call's record hits a full disk: half of it lands, then ENOSPC.
    disk.fail((text) => text.includes('"b"'), { truncateFails });
    expect(() => journal.save(entry('b', 'queued'))).toThrow(/ENOSPC/);
    if (!truncateFails) expect(readFileSync(path, 'utf8')).toBe(before);
    disk.heal();
    // "a" leaves the queue: its "running" record must not land on the fragment's line...
    journal.save(entry('a', 'running', { startedAt: 1 }));
    // ...or a crash now would queue "a" again, and it would run twice.
    const { requeue, interrupted } = new CallJournal(new FileJournalStore(path), 60_000).load();
    expect(interrupted.map((e) => e.callId)).toEqual(['a']);
    expect(requeue).toEqual([]);
  });

  it('counts a record only once its newline is written', () => {
    const path = join(mkdtempSync(join(tmpdir(), 'journal-')), 'journal.jsonl');
    const journal = new CallJournal(new FileJournalStore(path), 60_000);
    journal.save(entry('a', 'queued'));
    // A crash just before the newline: the save never returned, so the tool never started.
    appendFileSync(path, JSON.stringify(entry('a', 'running', { startedAt: 1 })));
    expect(new CallJournal(new FileJournalStore(path), 60_000).load().requeue.map((e) => e.callId)).toEqual(['a']);
  });

  it('syncs the records whose loss could let a call run: "running", the end of a call that never started, a withdrawal', () => {
    const saved: string[] = [];
    const journal = new CallJournal({ load: () => [], rewrite: () => undefined, save: (e, sync) => void saved.push(`${e.callId}:${e.state}${sync ? ' synced' : ''}`) }, 60_000);
    journal.save(entry('ran', 'queued'));
    journal.save(entry('ran', 'running', { startedAt: 1 }));
    journal.save(entry('ran', 'completed', { startedAt: 1, finishedAt: 2 }));
    journal.save(entry('dropped', 'queued'));
    journal.save(entry('dropped', 'cancelled', { finishedAt: 2 }));
    journal.save(entry('left', 'queued', { aliasOf: 'ran', withdrawn: { code: 'CANCELLED', message: 'Cancelled for this requester.' } }));
    expect(saved).toEqual(['ran:queued', 'ran:running synced', 'ran:completed', 'dropped:queued', 'dropped:cancelled synced', 'left:queued synced']);
  });

  it("syncs a compaction's temporary file before the rename, and the directory after it", () => {
    const dir = mkdtempSync(join(tmpdir(), 'journal-'));
    const disk = faultyDisk();
    new FileJournalStore(join(dir, 'journal.jsonl'), disk.fs).rewrite([entry('a', 'queued')]);
    expect(disk.ops).toEqual(['write journal.jsonl.tmp queued', 'fsync journal.jsonl.tmp', 'rename journal.jsonl.tmp', `fsync ${basename(dir)}`]);
  });
});
