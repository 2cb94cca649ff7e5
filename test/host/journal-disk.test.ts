import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { FileJournalStore } from '../../src/host/file-journal-store.js';
import { Host } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS, type TetherError } from '../../src/protocol/index.js';
import { faultyDisk } from './faulty-disk.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/**
 * A host whose journal file is on a disk the test can make fail and watch, with a
 * side-effecting tool, a read-only one, and a side-effecting one that runs until released;
 * each run is logged with the disk's operations.
 */
async function hostOnFaultyDisk() {
  const home = mkdtempSync(join(tmpdir(), 'tether-disk-'));
  const journalPath = join(home, 'journal.jsonl');
  const disk = faultyDisk();
  const host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts'), advertise: false, journalStore: new FileJournalStore(journalPath, disk.fs) });
  const runs: string[] = [];
  const run = (callId: string) => {
    runs.push(callId);
    disk.ops.push(`tool ${callId}`);
    return 'done';
  };
  host.tool({ name: 'touch', description: 'writes', input: z.object({ n: z.number() }), handler: (_args, ctx) => run(ctx.callId) });
  host.tool({ name: 'look', description: 'reads', annotations: { readOnlyHint: true }, handler: (_args, ctx) => run(ctx.callId) });
  let release!: () => void;
  host.tool({
    name: 'hold',
    description: 'writes, when released',
    // Long-running: identical calls share one execution (protocol.md §8.10).
    execution: { longRunning: true },
    handler: (_args, ctx) => new Promise((resolve) => (release = () => resolve(run(ctx.callId)))),
  });
  await host.start();
  cleanups.push(() => host.close());
  const { rpc } = await connectToHost({ port: host.port!, token: host.token });
  cleanups.push(() => rpc.close());
  const call = (callId: string, n = 1) => rpc.request(METHODS.callStart, { callId, tool: 'touch', arguments: { n } }).catch((e: TetherError) => e);
  /** What a host starting on this journal now would do: the calls it would queue again. */
  const requeuedOnRestart = () =>
    new FileJournalStore(journalPath)
      .load()
      .filter((e) => e.state === 'queued')
      .map((e) => e.callId);
  const look = (callId: string) => rpc.request(METHODS.callStart, { callId, tool: 'look' });
  const hold = (callId: string) => rpc.request(METHODS.callStart, { callId, tool: 'hold' });
  const status = (callId: string) => rpc.request<{ state: string; attachedTo?: string }>(METHODS.callStatus, { callId });
  return { disk, rpc, runs, call, look, hold, status, release: () => release(), requeuedOnRestart };
}

describe('a journal that cannot be written', () => {
  it('does not run a tool whose "running" record failed, and says so with a typed error', async () => {
    const h = await hostOnFaultyDisk();
    h.disk.fail((text) => text.includes('"state":"running"'));
    expect(await h.call('w1')).toMatchObject({ code: 'INTERNAL_ERROR', data: { callId: 'w1', started: false, state: 'failed' } });
    expect(h.runs).toEqual([]);
    // The failure was journaled, so a restart does not run it either.
    expect(h.requeuedOnRestart()).toEqual([]);
    h.disk.heal();
    await h.call('w2');
    expect(h.runs).toEqual(['w2']);
  });

  it('reports an unknown outcome when it cannot record that a call did not run either', async () => {
    const h = await hostOnFaultyDisk();
    h.disk.fail((text) => !text.includes('"state":"queued"'));
    expect(await h.call('w1')).toMatchObject({ code: 'OUTCOME_UNKNOWN', data: { callId: 'w1', state: 'interrupted' } });
    expect(h.runs).toEqual([]);
    // Why "unknown": the journal still says queued, so a restart now would run it.
    expect(h.requeuedOnRestart()).toEqual(['w1']);
  });

  it('refuses a call whose "queued" record failed, journaling nothing, so the callId can be sent again', async () => {
    const h = await hostOnFaultyDisk();
    h.disk.fail(() => true);
    const refused = await h.call('w1');
    expect(refused).toMatchObject({ code: 'INTERNAL_ERROR', data: { callId: 'w1', started: false } });
    // What to do follows from the system's reason: here, a full disk.
    expect((refused as TetherError).message).toMatch(/nothing ran\. Free disk space and send it again\.$/);
    await expect(h.rpc.request(METHODS.callStatus, { callId: 'w1' })).rejects.toMatchObject({ code: 'UNKNOWN_CALL' });
    h.disk.heal();
    expect(h.requeuedOnRestart()).toEqual([]);
    expect(await h.call('w1')).toMatchObject({ callId: 'w1', replayed: false });
    expect(h.runs).toEqual(['w1']);
  });

  it('refuses a withdrawal from a shared call that it cannot journal: nothing is cancelled', async () => {
    const h = await hostOnFaultyDisk();
    const first = h.hold('one');
    await expect.poll(async () => (await h.status('one')).state).toBe('running');
    const second = h.hold('two');
    await expect.poll(async () => (await h.status('two')).attachedTo).toBe('one');
    h.disk.fail((text) => text.includes('"withdrawn"'));
    await expect(h.rpc.request(METHODS.callCancel, { callId: 'two' })).rejects.toMatchObject({ code: 'INTERNAL_ERROR', data: { callId: 'two' } });
    h.disk.heal();
    h.release();
    // Still a requester: it gets the shared result.
    expect(await second).toMatchObject({ callId: 'two', attachedTo: 'one' });
    await first;
  });
});

describe('journal durability', () => {
  it('syncs "running" to the disk before the tool starts, once per side-effecting call, and never for a read-only one', async () => {
    const h = await hostOnFaultyDisk();
    h.disk.ops.length = 0; // what starting the host wrote
    await h.call('w1');
    expect(h.disk.ops).toEqual(['write journal.jsonl queued', 'write journal.jsonl running', 'fdatasync journal.jsonl', 'tool w1', 'write journal.jsonl completed']);
    h.disk.ops.length = 0;
    await h.look('r1');
    expect(h.disk.ops).toEqual(['tool r1']);
  });
});
