/**
 * Requests with the same idempotency key in flight at once, as a client that retries a call it
 * thinks stalled makes them: one call at the host, and each request is served as if it were
 * alone. Each hears the call's progress (a request that hears none is given up on by its
 * client), one request giving up does not cancel the call the other still waits on, and the
 * front counts the call in flight until its last request ends. The host is a real one, in
 * process, on a real socket.
 */
import { randomUUID } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { hostIn } from '../helpers/editor-host.js';
import { Front } from '../../src/mcp/front.js';
import { METHODS, type CallProgress, type ToolDescriptor } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Build {
  front: Front;
  tool: ToolDescriptor;
  /** Each run of the tool, and how it ended. */
  runs: Array<'running' | 'finished' | 'aborted'>;
  /** Has the running tool report progress with this message. */
  report(message: string): void;
  finish(): void;
}

/** A real host whose `build` (not safe to repeat) runs until told to finish, and a front on it. */
async function build(): Promise<Build> {
  const dir = mkdtempSync(join(tmpdir(), 'tether-same-key-'));
  cleanups.push(() => rmSync(dir, { recursive: true, force: true }));
  mkdirSync(join(dir, 'project'));
  const runs: Build['runs'] = [];
  let report: (message: string) => void = () => undefined;
  let finish: () => void = () => undefined;
  const host = hostIn(dir, { instanceId: randomUUID(), token: `tok-${randomUUID()}` });
  host.tool({
    name: 'build',
    description: 'Builds the player; not safe to repeat',
    input: z.object({}),
    handler: async (_args, ctx) => {
      const run = runs.push('running') - 1;
      report = (message) => ctx.progress({ message });
      await new Promise<void>((resolve, reject) => {
        finish = resolve;
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason as Error), { once: true });
      }).catch((error: unknown) => {
        runs[run] = 'aborted';
        throw error;
      });
      runs[run] = 'finished';
      return 'built';
    },
  });
  await host.start();
  cleanups.push(() => host.close());
  const front = new Front({ project: join(dir, 'project'), home: dir, waitMs: 10_000 }).start();
  cleanups.push(() => front.close());
  const tool = (await front.lookUpTool('build'))!;
  expect(tool).toBeDefined();
  return { front, tool, runs, report: (message) => report(message), finish: () => finish() };
}

/** One request: what it heard, and how it ended. */
function request(front: Front, tool: ToolDescriptor, key: string): { heard: string[]; signal: AbortController; ended: Promise<unknown> } {
  const heard: string[] = [];
  const signal = new AbortController();
  const listener = { progress: (update: CallProgress) => update.message !== undefined && heard.push(update.message) };
  const ended = front.call(tool, {}, { idempotencyKey: key, signal: signal.signal, listener }).then(
    (outcome) => outcome.result,
    (error: unknown) => error,
  );
  return { heard, signal, ended };
}

/** Every request the front sent before this has been taken by the host (it answers a connection's requests in order). */
async function hostHasTaken(front: Front): Promise<void> {
  await front.request(METHODS.hostStatus, {});
}

describe('requests with the same idempotency key in flight at once', () => {
  it('share one run, and each hears its progress and gets its result', async () => {
    const { front, tool, runs, report, finish } = await build();
    const first = request(front, tool, 'build-1');
    await expect.poll(() => runs.length).toBe(1);
    const retry = request(front, tool, 'build-1');
    await hostHasTaken(front);

    report('compiling');
    await expect.poll(() => retry.heard).toEqual(['compiling']);
    await expect.poll(() => first.heard).toEqual(['compiling']);
    expect(front.callsInFlight).toBe(1);

    finish();
    for (const { ended } of [first, retry]) await expect(ended).resolves.toMatchObject({ content: [{ type: 'text', text: 'built' }] });
    expect(runs).toEqual(['finished']);
    expect(front.callsInFlight).toBe(0);
  });

  it('goes on for the request still waiting when the other gives up, and stops once both have', async () => {
    const { front, tool, runs, report, finish } = await build();
    const first = request(front, tool, 'build-2');
    await expect.poll(() => runs.length).toBe(1);
    const retry = request(front, tool, 'build-2');
    await hostHasTaken(front);

    // The first request's client gives up (its own timeout, say); the retry still waits.
    first.signal.abort(new Error('timed out'));
    await expect(first.ended).resolves.toMatchObject({ code: 'CANCELLED', data: { shared: true } });
    await hostHasTaken(front); // a cancel, had one been sent, would have reached the host by now
    expect(runs).toEqual(['running']);
    expect(front.callsInFlight).toBe(1);
    report('linking');
    await expect.poll(() => retry.heard).toEqual(['linking']);

    // The retry gives up too: now nobody wants the build, and the editor is asked to stop it.
    retry.signal.abort(new Error('timed out again'));
    await expect(retry.ended).resolves.toMatchObject({ code: 'CANCELLED' });
    await expect.poll(() => runs).toEqual(['aborted']);
    expect(front.callsInFlight).toBe(0);
    finish();
  });

  it('tells a later request with the key, once every earlier one gave up, that its call was cancelled: nothing runs again', async () => {
    const { front, tool, runs, finish } = await build();
    const first = request(front, tool, 'build-3');
    await expect.poll(() => runs.length).toBe(1);
    first.signal.abort(new Error('timed out'));
    await expect(first.ended).resolves.toMatchObject({ code: 'CANCELLED' });
    await expect.poll(() => runs).toEqual(['aborted']);
    // The key now names a cancelled call: a repeat is told so, and nothing runs again.
    const repeat = request(front, tool, 'build-3');
    await expect(repeat.ended).resolves.toMatchObject({ code: 'CANCELLED' });
    expect(runs).toEqual(['aborted']);
    finish();
  });
});
