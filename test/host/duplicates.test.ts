import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host } from '../../src/host/index.js';
import { duplicatePolicyOf } from '../../src/host/tools.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS, type CallStartResult, type TetherError, type ToolDescriptor } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

/** A host with one gated tool per duplicate policy; `release()` lets the running call finish. */
async function gatedHost(policy: 'attach' | 'reject' | 'allow', heartbeatMs = 5_000) {
  const home = mkdtempSync(join(tmpdir(), 'tether-dup-'));
  const host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts'), heartbeatMs });
  let runs = 0;
  const gates: Array<() => void> = [];
  host.tool({
    name: 'build',
    description: 'gated',
    input: z.object({ target: z.string() }),
    execution: { duplicates: policy },
    handler: ({ target }, ctx) =>
      new Promise((resolve, reject) => {
        const run = ++runs;
        gates.push(() => resolve(`${target} build #${run}`));
        ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
      }),
  });
  await host.start();
  cleanups.push(() => host.close());
  const a = await connectToHost({ port: host.port!, token: host.token });
  const b = await connectToHost({ port: host.port!, token: host.token });
  cleanups.push(
    () => a.rpc.close(),
    () => b.rpc.close(),
  );
  return { host, a: a.rpc, b: b.rpc, runs: () => runs, release: () => gates.shift()?.() };
}

const start = (rpc: Awaited<ReturnType<typeof gatedHost>>['a'], callId: string, target = 'linux') => rpc.request<CallStartResult>(METHODS.callStart, { callId, tool: 'build', arguments: { target } });

/**
 * "one" from connection a runs; the identical "two" from b attaches to it. Each promise holds
 * its call's result, or the error it ended with.
 */
async function sharedBuild(h: Awaited<ReturnType<typeof gatedHost>>): Promise<{ first: Promise<CallStartResult | TetherError>; second: Promise<CallStartResult | TetherError> }> {
  const first = start(h.a, 'one').catch((e: TetherError) => e);
  await expect.poll(h.runs).toBe(1);
  const second = start(h.b, 'two').catch((e: TetherError) => e);
  await expect.poll(async () => (await h.b.request<{ attachedTo?: string }>(METHODS.callStatus, { callId: 'two' })).attachedTo).toBe('one');
  return { first, second };
}

describe('the duplicate policy a tool gets when it does not say (protocol.md §8.10)', () => {
  const descriptor = (annotations: ToolDescriptor['annotations'], execution: Partial<ToolDescriptor['execution']>): ToolDescriptor =>
    ({ name: 't', description: 't', inputSchema: { type: 'object' }, annotations, execution: { longRunning: false, mainThread: true, ...execution } }) as ToolDescriptor;

  // An agent that makes identical calls at once (two undos, three identical enemies) means
  // each; shared, the second undo never happened and both were told it did.
  it('is attach for a long-running tool with side effects only, and allow for any other', () => {
    expect(duplicatePolicyOf(descriptor({}, { longRunning: true }))).toBe('attach');
    expect(duplicatePolicyOf(descriptor({}, {}))).toBe('allow');
    expect(duplicatePolicyOf(descriptor({ readOnlyHint: true }, { longRunning: true }))).toBe('allow');
    expect(duplicatePolicyOf(descriptor({ idempotentHint: true }, { longRunning: true }))).toBe('allow');
    expect(duplicatePolicyOf(descriptor({}, { duplicates: 'attach' }))).toBe('attach');
    expect(duplicatePolicyOf(descriptor({}, { longRunning: true, duplicates: 'reject' }))).toBe('reject');
  });

  it('runs two identical short calls made at once twice', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-dup-'));
    const host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts') });
    let undone = 0;
    const gates: Array<() => void> = [];
    host.tool({ name: 'undo', description: 'Undoes one step', handler: () => new Promise((resolve) => gates.push(() => resolve(`undone ${++undone}`))) });
    await host.start();
    cleanups.push(() => host.close());
    const { rpc } = await connectToHost({ port: host.port!, token: host.token });
    cleanups.push(() => rpc.close());
    const both = [rpc.request<CallStartResult>(METHODS.callStart, { callId: 'u1', tool: 'undo' }), rpc.request<CallStartResult>(METHODS.callStart, { callId: 'u2', tool: 'undo' })];
    await expect.poll(() => gates.length).toBe(1);
    expect((await rpc.request<{ attachedTo?: string; state: string }>(METHODS.callStatus, { callId: 'u2' })).attachedTo).toBeUndefined();
    gates.shift()!();
    await expect.poll(() => gates.length).toBe(1);
    gates.shift()!();
    const results = await Promise.all(both);
    expect(undone).toBe(2);
    expect(results.map((r) => r.attachedTo)).toEqual([undefined, undefined]);
  });
});

describe('identical calls in flight', () => {
  it('attach: a second identical call from another connection shares the one execution', async () => {
    const h = await gatedHost('attach');
    const first = start(h.a, 'one');
    await expect.poll(h.runs).toBe(1);
    const second = start(h.b, 'two');
    await expect.poll(async () => (await h.b.request<{ attachedTo?: string }>(METHODS.callStatus, { callId: 'two' })).attachedTo).toBe('one');
    h.release();
    const [r1, r2] = await Promise.all([first, second]);
    expect(h.runs()).toBe(1);
    expect(r2.result).toEqual(r1.result);
    expect(r2).toMatchObject({ callId: 'two', attachedTo: 'one' });
    // Other arguments are another operation.
    const other = start(h.a, 'three', 'windows');
    await expect.poll(h.runs).toBe(2);
    h.release();
    await other;
  });

  it('allow: identical calls run separately', async () => {
    const h = await gatedHost('allow');
    const calls = [start(h.a, 'x'), start(h.b, 'y')];
    await expect.poll(h.runs).toBe(1);
    h.release();
    await expect.poll(h.runs).toBe(2);
    h.release();
    await Promise.all(calls);
  });

  it('allow: the running call keeps its heartbeats while an identical one waits', async () => {
    const h = await gatedHost('allow', 60);
    const beats: string[] = [];
    h.a.onNotification(METHODS.callProgress, (p) => {
      const update = p as { callId: string; heartbeat: boolean };
      if (update.heartbeat) beats.push(update.callId);
    });
    const calls = [start(h.a, 'x'), start(h.a, 'y')];
    await expect.poll(h.runs).toBe(1);
    await expect.poll(() => beats.filter((id) => id === 'x').length, { timeout: 2_000 }).toBeGreaterThanOrEqual(3);
    h.release();
    await expect.poll(h.runs).toBe(2);
    h.release();
    await Promise.all(calls);
  });

  it('reject: an identical call is refused with DUPLICATE_CALL naming the one in flight', async () => {
    const h = await gatedHost('reject');
    const first = start(h.a, 'x');
    await expect.poll(h.runs).toBe(1);
    await expect(start(h.b, 'y')).rejects.toMatchObject({ code: 'DUPLICATE_CALL', data: { inFlight: 'x' } });
    h.release();
    await first;
  });

  it('cancels a shared call only when every requester has cancelled', async () => {
    const h = await gatedHost('attach');
    const { first, second } = await sharedBuild(h);

    await h.a.request(METHODS.callCancel, { callId: 'one' });
    expect(await first).toMatchObject({ code: 'CANCELLED', data: { shared: true } });
    expect(await h.b.request(METHODS.callStatus, { callId: 'two' })).toMatchObject({ state: 'running' });

    await h.b.request(METHODS.callCancel, { callId: 'two' });
    expect(await second).toMatchObject({ code: 'CANCELLED' });
    expect(await h.a.request(METHODS.callStatus, { callId: 'one' })).toMatchObject({ state: 'cancelled' });
    expect(h.runs()).toBe(1);
  });

  it('a withdrawn requester that re-attaches (attachOnly) stays withdrawn, so the last cancel still stops the call', async () => {
    const h = await gatedHost('attach');
    const { first, second } = await sharedBuild(h);
    await h.b.request(METHODS.callCancel, { callId: 'two' });
    expect(await second).toMatchObject({ code: 'CANCELLED', data: { shared: true } });
    // A client back after a dropped connection asks how its call stands: it stands withdrawn.
    const reattached = await h.b.request(METHODS.callStart, { callId: 'two', tool: 'build', arguments: { target: 'linux' }, attachOnly: true }).catch((e: TetherError) => e);
    expect(reattached).toMatchObject({ code: 'CANCELLED', data: { callId: 'two', shared: true } });
    // So the other requester's cancel is the last one, and it stops the build.
    await h.a.request(METHODS.callCancel, { callId: 'one' });
    expect(await first).toMatchObject({ code: 'CANCELLED', data: { started: true } });
    expect(await h.a.request(METHODS.callStatus, { callId: 'one' })).toMatchObject({ state: 'cancelled' });
    expect(h.runs()).toBe(1);
  });

  it('a withdrawn requester that keeps waiting elsewhere still gets the result', async () => {
    const h = await gatedHost('attach');
    const { first, second } = await sharedBuild(h);
    await h.b.request(METHODS.callCancel, { callId: 'two' });
    expect(await second).toMatchObject({ code: 'CANCELLED', data: { shared: true } });
    h.release();
    expect(await first).toMatchObject({ result: { content: [{ type: 'text', text: 'linux build #1' }] } });
    expect(await h.b.request(METHODS.callStatus, { callId: 'two' })).toMatchObject({ state: 'cancelled' });
  });
});
