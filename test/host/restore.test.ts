import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallObserver } from '../../src/host/call-observer.js';
import { FileJournalStore } from '../../src/host/file-journal-store.js';
import { hashArguments, type JournalEntry } from '../../src/host/journal-entry.js';
import { Host } from '../../src/host/index.js';
import type { CallState } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const observer = (id: string): CallObserver => ({ id, progress: () => undefined, log: () => undefined });
const outcome = (call: Promise<unknown>) =>
  call.then(
    () => 'completed',
    (e: { code?: string }) => e.code,
  );

/**
 * Lives of one editor over one journal, as across domain reloads. Each life's "build" tool
 * (side effects, so identical calls share one execution) logs its runs as "<life>:<callId>"
 * and, when asked, what every callId's state was as it started; it runs until released.
 */
function editor() {
  const home = mkdtempSync(join(tmpdir(), 'tether-restore-'));
  const runs: string[] = [];
  const gates: Array<() => void> = [];
  const release = () => gates.splice(0).forEach((open) => open());
  // Calls queued before a reload start at once in the next life unless a grace is given (its own tests below).
  // afterRestart left out: the Host decides (the first of this process on the journal is a restart).
  const life = async (label: string, watch: string[] = [], requeueGraceMs = 0, afterRestart?: boolean) => {
    const host: Host = new Host({
      kind: 'test',
      name: 'T',
      version: '1',
      projectPath: home,
      recordsDir: join(home, 'hosts'),
      advertise: false,
      journalPath: join(home, 'journal.jsonl'),
      requeueGraceMs,
      ...(afterRestart === undefined ? {} : { afterRestart }),
    });
    const seen: Array<Record<string, CallState>> = [];
    host.tool({
      name: 'build',
      description: 'side effects',
      input: z.object({ target: z.string() }),
      // Long-running, with side effects: identical calls share one execution (protocol.md §8.10).
      execution: { longRunning: true },
      handler: (_args, ctx) => {
        runs.push(`${label}:${ctx.callId}`);
        seen.push(Object.fromEntries(watch.map((id) => [id, host.calls.status(id).state])));
        return new Promise<string>((resolve) => gates.push(() => resolve('built')));
      },
    });
    await host.start();
    cleanups.push(() => host.close());
    const build = (callId: string, target: string, by = 'c1') => outcome(host.calls.start({ callId, tool: 'build', arguments: { target } }, observer(by)));
    return { host, seen, build };
  };
  const journal = new FileJournalStore(join(home, 'journal.jsonl'));
  return { runs, release, life, journal };
}

describe('restoring the journal after a reload', () => {
  it("has a re-queued call's aliases back before it starts, so they run with it", async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'other');
    void a.build('T', 'android');
    void a.build('AL', 'android', 'c2');
    expect(a.host.calls.status('AL')).toMatchObject({ state: 'queued', attachedTo: 'T' });
    await a.host.close({ reason: 'reload' });

    // The new life finds T queued, with its alias, and the main thread idle: T starts at once.
    const b = await e.life('B', ['T', 'AL']);
    expect(e.runs).toEqual(['A:blocker', 'B:T']);
    expect(b.seen).toEqual([{ T: 'running', AL: 'running' }]);
    e.release();
    await expect.poll(() => b.host.calls.status('AL').state).toBe('completed');
  });

  it("remembers a withdrawal: the last requester's cancel after the reload cancels the call, which never runs", async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker1', 'one');
    void a.build('blocker2', 'two'); // runs first in the next life, so T is still queued there
    const t = a.build('T', 'android');
    const al = a.build('AL', 'android', 'c2');
    a.host.calls.cancel('AL'); // T still wants it: AL only withdraws...
    expect(await al).toBe('CANCELLED'); // ...and its client is told so
    await a.host.close({ reason: 'reload' });
    void t;

    const b = await e.life('B');
    expect(b.host.calls.status('T').state).toBe('queued');
    // T is now the only requester that wants the call: its cancel cancels it.
    expect(b.host.calls.cancel('T')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { started: false } } });
    expect(b.host.calls.status('AL')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { shared: true } } });
    e.release();
    await expect.poll(() => b.host.calls.status('blocker2').state).toBe('completed');
    expect(e.runs).toEqual(['A:blocker1', 'B:blocker2']);
  });

  it('ends a withdrawn alias cut off while running as cancelled, as its client was told', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('T', 'android');
    const al = a.build('AL', 'android', 'c2');
    a.host.calls.cancel('AL');
    expect(await al).toBe('CANCELLED');
    await a.host.close({ reason: 'reload' });

    const b = await e.life('B');
    expect(b.host.calls.status('T').state).toBe('interrupted');
    expect(b.host.calls.status('AL')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { callId: 'AL', shared: true } } });
  });

  // host.calls is public: a second restore() queued the journal's calls again, and a queued
  // non-idempotent call ran twice.
  it('loads the journal once: a second restore is refused, and nothing runs twice', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    void a.build('T', 'android');
    await a.host.close({ reason: 'reload' });
    const b = await e.life('B', [], 60_000); // T waits for its requester
    expect(() => b.host.calls.restore()).toThrow(expect.objectContaining({ code: 'INTERNAL_ERROR', message: expect.stringContaining('loaded its journal already') }));
    void b.build('T', 'android'); // its requester is back
    await expect.poll(() => e.runs).toEqual(['A:blocker', 'B:T']);
    e.release();
    await expect.poll(() => b.host.calls.status('T').state).toBe('completed');
    expect(e.runs).toEqual(['A:blocker', 'B:T']);
  });

  it('cancels, without running it, a re-queued call whose requesters had all withdrawn', async () => {
    const e = editor();
    // A journal this host only leaves when a requester's renewed interest could not be
    // written: both requesters of T are on record as withdrawn.
    const withdrawn = { code: 'CANCELLED', message: 'Cancelled for this requester.', data: { shared: true, started: false } };
    const queued = (callId: string, extra: Partial<JournalEntry>): JournalEntry => ({
      callId,
      tool: 'build',
      arguments: { target: 'android' },
      argsHash: hashArguments('build', { target: 'android' }),
      lane: 'c1',
      state: 'queued',
      queuedAt: Date.now(),
      withdrawn,
      ...extra,
    });
    e.journal.save(queued('T', {}));
    e.journal.save(queued('AL', { aliasOf: 'T' }));

    const b = await e.life('B');
    expect(b.host.calls.status('T')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { started: false } } });
    expect(b.host.calls.status('AL').state).toBe('cancelled');
    expect(e.runs).toEqual([]);
  });
});

describe('calls queued before a restart wait for their requesters (the grace)', () => {
  it('a cancel sent while the editor was away finds the call still queued, and it never runs', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    void a.build('T', 'android');
    await a.host.close({ reason: 'reload' });

    const b = await e.life('B', [], 60_000);
    // Without the grace T would have started as the host started: nothing did.
    expect(e.runs).toEqual(['A:blocker']);
    expect(b.host.calls.cancel('T')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { started: false } } });
    // blocker was running when the first life ended: interrupted, never run again. T never ran.
    expect(b.host.calls.status('blocker').state).toBe('interrupted');
    expect(e.runs).toEqual(['A:blocker']);
  });

  it('starts them as soon as every requester is back, or once the grace ends', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    void a.build('T1', 'android');
    void a.build('T2', 'ios', 'c2');
    await a.host.close({ reason: 'reload' });

    const b = await e.life('B', [], 60_000);
    expect(e.runs).toEqual(['A:blocker']);
    const t1 = b.build('T1', 'android'); // c1 is back
    expect(e.runs).toEqual(['A:blocker']); // T2's requester is not
    const t2 = b.build('T2', 'ios', 'c2');
    expect(e.runs).toEqual(['A:blocker', 'B:T1']);
    e.release();
    await expect.poll(() => e.runs).toEqual(['A:blocker', 'B:T1', 'B:T2']);
    e.release();
    expect(await t1).toBe('completed');
    expect(await t2).toBe('completed');

    // Nobody comes back: the grace ends and the call runs.
    const c = await e.life('C');
    void c.build('blocker2', 'one');
    void c.build('T3', 'webgl');
    await c.host.close({ reason: 'reload' });
    const startedAt = Date.now();
    await e.life('D', [], 300);
    await expect.poll(() => e.runs.at(-1), { timeout: 3_000 }).toBe('D:T3');
    expect(Date.now() - startedAt).toBeGreaterThanOrEqual(290);
  });
});

describe('closing for good', () => {
  // A call still queued when the editor quits ran whenever the editor next started (the grace
  // lets it, for no one), perhaps days later; and its client, told the outcome was unknown,
  // could not know whether to send it again.
  it.each(['quit', 'shutdown'] as const)('on %s, ends every queued call cancelled, never started, and tells its requester', async (reason) => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    const queued = a.host.calls.start({ callId: 'T', tool: 'build', arguments: { target: 'android' } }, observer('c1')).catch((error: unknown) => error);
    await a.host.close({ reason });
    expect(await queued).toMatchObject({ code: 'CANCELLED', data: { started: false }, message: expect.stringContaining('call it again once the editor is back') });

    const b = await e.life('B');
    expect(b.host.calls.status('T')).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { started: false } } });
    e.release();
    expect(e.runs).toEqual(['A:blocker']);
  });
});

describe('closing for good, a call that arrives meanwhile', () => {
  // One that arrived while the host was closing got no answer, and ran in the next life once its
  // client re-attached.
  it('is answered cancelled, never started, and does not run in the next life', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    const closing = a.host.close({ reason: 'quit' });
    const late = a.build('late', 'android');
    await closing;
    const unanswered = new Promise<string>((resolve) => setTimeout(() => resolve('no answer'), 1_000).unref());
    expect(await Promise.race([late, unanswered])).toBe('CANCELLED');

    const b = await e.life('B', [], 300, true);
    expect(await b.build('late', 'android')).toBe('CANCELLED'); // its client, back, hears it never ran
    e.release();
    expect(e.runs).toEqual(['A:blocker']);
  });
});

describe('closing for good during a requeue grace', () => {
  // Cancelling the last call the grace waited for ended the grace, which released the executor:
  // the next queued call started as the host was closing.
  it('starts nothing: the requeued call and one that came meanwhile both end cancelled', async () => {
    const e = editor();
    const a = await e.life('A');
    void a.build('blocker', 'one');
    void a.build('X', 'android');
    await a.host.close({ reason: 'reload' });
    const b = await e.life('B', [], 60_000);
    const meanwhile = b.build('N', 'ios', 'c2');
    await expect.poll(() => b.host.calls.status('N').state).toBe('queued');
    await b.host.close({ reason: 'shutdown' });
    expect(await meanwhile).toBe('CANCELLED');
    expect(b.host.calls.status('X').state).toBe('cancelled');
    expect(e.runs).toEqual(['A:blocker']);
  });
});

/** A life that ends as a crash leaves the journal: "claimed" and "left" (another client's) queued behind "blocker", neither cancelled. */
async function twoCallsLeftQueuedByACrash(): Promise<ReturnType<typeof editor>> {
  const e = editor();
  const a = await e.life('A');
  void a.build('blocker', 'one');
  void a.build('claimed', 'android');
  void a.build('left', 'ios', 'c2');
  await a.host.close({ reason: 'reload' });
  return e;
}

describe('restoring the journal after a restart (the editor stopped, not a reload)', () => {
  // A call left queued by an editor that crashed ran once the editor started again, maybe a
  // day later, for no one: its client had long been told the outcome was unknown.
  it('runs a queued call only if a requester comes back for it within the grace; the others end cancelled, never started', async () => {
    const e = await twoCallsLeftQueuedByACrash();

    const b = await e.life('B', [], 300, true);
    const claimed = b.build('claimed', 'android'); // its client is back
    await expect.poll(() => b.host.calls.status('left').state, { timeout: 3_000 }).toBe('cancelled');
    expect(b.host.calls.status('left')).toMatchObject({ error: { code: 'CANCELLED', data: { started: false } } });
    await expect.poll(() => e.runs).toEqual(['A:blocker', 'B:claimed']);
    e.release();
    expect(await claimed).toBe('completed');
    // A client coming back later hears that it never ran.
    expect(await b.build('left', 'ios', 'c2')).toBe('CANCELLED');
    expect(e.runs).toEqual(['A:blocker', 'B:claimed']);
  });

  it('with no grace, runs none of them: nobody can come back for it in time', async () => {
    const e = await twoCallsLeftQueuedByACrash();
    const b = await e.life('B', [], 0, true);
    for (const callId of ['claimed', 'left']) expect(b.host.calls.status(callId)).toMatchObject({ state: 'cancelled', error: { code: 'CANCELLED', data: { started: false } } });
    e.release();
    expect(e.runs).toEqual(['A:blocker']);
  });

  // A new identical call attached to a call a restart left, and both were cancelled as unclaimed.
  it('counts an identical call that attaches to a call a restart left as a client wanting it', async () => {
    const e = await twoCallsLeftQueuedByACrash();
    const b = await e.life('B', [], 300, true);
    const twin = b.build('twin', 'ios', 'c3'); // identical to "left": shares it
    await expect.poll(() => e.runs, { timeout: 3_000 }).toContain('B:left');
    e.release();
    expect(await twin).toBe('completed');
    expect(b.host.calls.status('left').state).toBe('completed');
  });

  // The embedder left afterRestart out: a queued call in a journal no Host of this process had
  // opened was left by an editor that stopped, and ran for no one once the grace was over.
  it('takes the first Host of the process on a journal for a restart when afterRestart is left out, and the next one for a reload', async () => {
    const e = editor();
    e.journal.save({ callId: 'left', tool: 'build', arguments: { target: 'ios' }, argsHash: hashArguments('build', { target: 'ios' }), lane: 'c2', state: 'queued', queuedAt: Date.now() });
    const b = await e.life('B', [], 200);
    await expect.poll(() => b.host.calls.status('left').state, { timeout: 3_000 }).toBe('cancelled');
    expect(b.host.calls.status('left')).toMatchObject({ error: { code: 'CANCELLED', data: { started: false } } });

    void b.build('blocker', 'one');
    void b.build('queued', 'android');
    await b.host.close({ reason: 'reload' });
    await e.life('C', [], 200); // the same process, the same journal: a reload, whose queued call runs
    await expect.poll(() => e.runs, { timeout: 3_000 }).toEqual(['B:blocker', 'C:queued']);
  });

  // A domain reload within the grace made the next life an ordinary one, which ran, once its
  // own grace was over, the calls nobody had come back for.
  it('still runs only the claimed calls when a domain reload comes within the grace', async () => {
    const e = await twoCallsLeftQueuedByACrash();

    const b = await e.life('B', [], 60_000, true);
    void b.build('claimed', 'android'); // its client is back, then the domain reloads
    await b.host.close({ reason: 'reload' });
    expect(e.runs).toEqual(['A:blocker']);

    const c = await e.life('C', [], 300); // not a restart: a reload
    await expect.poll(() => c.host.calls.status('left').state, { timeout: 3_000 }).toBe('cancelled');
    expect(c.host.calls.status('left')).toMatchObject({ error: { code: 'CANCELLED', data: { started: false } } });
    // The claimed one was wanted: it runs once the grace is over, though its client has not re-attached yet.
    await expect.poll(() => e.runs, { timeout: 3_000 }).toEqual(['A:blocker', 'C:claimed']);
    e.release();
    await expect.poll(() => c.host.calls.status('claimed').state).toBe('completed');
  });
});
