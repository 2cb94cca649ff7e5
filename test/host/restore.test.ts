import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { CallObserver } from '../../src/host/calls.js';
import { Host } from '../../src/host/index.js';
import type { CallState } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const observer = (id: string): CallObserver => ({ id, progress: () => undefined, log: () => undefined });
const outcome = (call: Promise<unknown>) => call.then(() => 'completed', (e: { code?: string }) => e.code);

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
  const life = async (label: string, watch: string[] = []) => {
    const host: Host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts'), advertise: false, journalPath: join(home, 'journal.jsonl') });
    const seen: Array<Record<string, CallState>> = [];
    host.tool({
      name: 'build',
      description: 'side effects',
      input: z.object({ target: z.string() }),
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
  return { runs, release, life };
}

describe('restoring the journal after a reload', () => {
  it('has a re-queued call\'s aliases back before it starts, so they run with it', async () => {
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
});
