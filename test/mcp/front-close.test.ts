/**
 * A front that closes while its editor reloads: an MCP client that cancelled a call and left
 * (notifications/cancelled, then stdin closed) during the reload must not have that call run
 * once the editor is back. The cancel waits for the link, within the time a call waits; a
 * front that closed at once dropped it, and the call, still queued in the journal, ran after
 * the reload with no one to answer. The hosts are real ones, in process, sharing a journal
 * and an identity as the two sides of a domain reload do.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import type { Host } from '../../src/host/index.js';
import { hostIn } from '../helpers/editor-host.js';
import { Front } from '../../src/mcp/front.js';
import type { CallProgress, ToolDescriptor } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** One life of the editor: `slow` (not safe to repeat) runs on its main thread, held until released. */
function editorLife(dir: string, identity: { instanceId: string; token: string }): { host: Host; runs: string[]; release(): void } {
  const runs: string[] = [];
  let release!: () => void;
  const held = new Promise<void>((resolve) => (release = resolve));
  const host = hostIn(dir, { heartbeatMs: 100, ...identity });
  host.tool({
    name: 'slow',
    description: 'Changes the scene; not safe to repeat',
    input: z.object({ tag: z.string() }),
    handler: async ({ tag }, ctx) => {
      runs.push(tag);
      await new Promise<void>((resolve, reject) => {
        void held.then(resolve);
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
      });
      return tag;
    },
  });
  cleanups.push(async () => {
    release();
    await host.close();
  });
  return { host, runs, release };
}

/** An editor's first life, started, and a front on it that waits `waitMs` for the editor. */
async function editorAndFront(waitMs = 10_000): Promise<{ dir: string; identity: { instanceId: string; token: string }; before: ReturnType<typeof editorLife>; front: Front; slow: ToolDescriptor }> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-front-close-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'project'));
  const identity = { instanceId: randomUUID(), token: `tok-${randomUUID()}` };
  const before = editorLife(dir, identity);
  await before.host.start();
  const front = new Front({ project: join(dir, 'project'), home: dir, waitMs }).start();
  cleanups.push(() => front.close());
  const slow = await front.lookUpTool('slow');
  expect(slow).toBeDefined();
  return { dir, identity, before, front, slow: slow! };
}

/**
 * An editor's first life and a front on it with two calls of `slow`: one holding the main
 * thread, the next queued behind it (made with `signal`, if given).
 */
async function twoCallsInFlight(signal?: AbortSignal): Promise<{
  dir: string;
  identity: { instanceId: string; token: string };
  before: ReturnType<typeof editorLife>;
  front: Front;
  running: Promise<unknown>;
  queuedCall: Promise<unknown>;
  queuedCallId: string;
}> {
  const { dir, identity, before, front, slow } = await editorAndFront();
  const running = front.call(slow, { tag: 'running' }, {}).catch(() => undefined);
  let queued!: () => void;
  const isQueued = new Promise<void>((resolve) => (queued = resolve));
  const listener = { progress: (update: CallProgress) => update.state === 'queued' && queued() };
  const queuedCall = front.call(slow, { tag: 'queued' }, { ...(signal ? { signal } : {}), listener }).catch((error: unknown) => error);
  await isQueued;
  const queuedCallId = [...front.pending.values()].find((call) => call.state === 'queued')!.callId;
  return { dir, identity, before, front, running, queuedCall, queuedCallId };
}

describe('a front closing while its editor reloads', () => {
  it('delivers the cancel of a call its client gave up on once the editor is back: the call never runs', async () => {
    // One call holds the main thread; the next waits in the editor's queue.
    const client = new AbortController();
    const { dir, identity, before, front, running, queuedCall: given, queuedCallId } = await twoCallsInFlight(client.signal);

    // The editor reloads; meanwhile the client cancels the queued call and leaves.
    const away = new Promise((resolve) => front.link.once('state', resolve));
    await before.host.close({ reason: 'reload', expectedBackMs: 300 });
    expect(await away).toBe('reloading');
    client.abort(new Error('The user pressed Esc.'));
    expect(await given).toMatchObject({ code: 'CANCELLED' });
    const closing = front.close();

    // The editor is back, with the journal: the call is still queued there, until the cancel comes.
    const after = editorLife(dir, identity);
    await after.host.start();
    await closing;
    await running;
    expect(after.host.calls.status(queuedCallId).state).toBe('cancelled');
    after.release();
    expect(after.runs).toEqual([]);
  });

  // A client that goes away without cancelling (its stdin closed) wants nothing in flight either.
  // The link waits out a reload as `reloading`, or as `lost` once the editor's port has refused
  // while its record stays (a reload longer than announced). In both, the front's own re-attach
  // once the editor was back started the queued call, before any cancel reached it.
  it.each(['reloading', 'lost'] as const)('cancels what its client left in flight when the link is %s: nothing runs after the reload', async (state) => {
    const { dir, identity, before, front, running, queuedCall: left, queuedCallId } = await twoCallsInFlight();
    const inState = new Promise<void>((resolve) => {
      const onState = (now: string): void => {
        if (now !== state) return;
        front.link.off('state', onState);
        resolve();
      };
      front.link.on('state', onState);
    });
    // Announced back within 50 ms: the link's retry then finds the port refusing, and says `lost`.
    await before.host.close({ reason: 'reload', expectedBackMs: state === 'lost' ? 50 : 60_000 });
    await inState;
    expect(front.link.lastFailure?.data.reloading ?? state === 'reloading').toBe(true);
    const closing = front.close();

    const after = editorLife(dir, identity);
    await after.host.start();
    await closing;
    await Promise.all([running, left]);
    expect(after.host.calls.status(queuedCallId).state).toBe('cancelled');
    after.release();
    expect(after.runs).toEqual([]);
  });

  // A call still waiting for the editor was counted among those given time to settle: a
  // closing serve spent its settle time (1.5 s of its 3 s) on a call that could only end one way.
  it('ends a call never sent at once, cancelled and never started, without waiting out the settle time', async () => {
    const { before, front, slow } = await editorAndFront(30_000);
    const away = new Promise((resolve) => front.link.once('state', resolve));
    await before.host.close({ reason: 'reload', expectedBackMs: 60_000 });
    expect(await away).toBe('reloading');
    const waiting = front.call(slow, { tag: 'unsent' }, {}).catch((error: unknown) => error);
    await expect.poll(() => front.callsInFlight).toBe(1);

    const closing = performance.now();
    await front.close({ reason: 'shutting down', settleMs: 10_000 });
    expect(performance.now() - closing).toBeLessThan(3_000);
    expect(await waiting).toMatchObject({ code: 'CANCELLED', data: { started: false } });
    expect(before.runs).toEqual([]);
  });
});
