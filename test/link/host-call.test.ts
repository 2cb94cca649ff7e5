import { randomUUID } from 'node:crypto';
import { mkdirSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { writeHostRecord } from '../../src/discovery/host-record.js';
import { Host, type HostOptions } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { runHostCall } from '../../src/link/host-call.js';
import { HostLink, type HostLinkOptions } from '../../src/link/host-link.js';
import { METHODS, TetherError, type CallProgress, type CallStartResult } from '../../src/protocol/index.js';
import { FakeHost, TcpProxy, deferred, isRequest, tempDir } from './fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

interface Workspace {
  recordsDir: string;
  projectPath: string;
  journalPath: string;
  identity: { instanceId: string; token: string };
}

function workspace(): Workspace {
  const { dir, remove } = tempDir('tether-call-');
  cleanups.push(remove);
  const projectPath = join(dir, 'project');
  mkdirSync(projectPath);
  return {
    recordsDir: join(dir, 'hosts'),
    projectPath,
    journalPath: join(dir, 'journal', 'calls.jsonl'),
    identity: { instanceId: randomUUID(), token: `tok-${randomUUID()}` },
  };
}

/** One life of the editor: its own tools, counting their executions, optionally held at a gate. */
interface Life {
  host: Host;
  /** callIds in the order this life's tools started running them. */
  runs: string[];
  /** Resolves with each callId as it starts running (the first one). */
  started: (callId: string) => Promise<void>;
  release: () => void;
}

async function startLife(ws: Workspace, label: string, { gated, ...options }: Partial<HostOptions> & { gated: boolean }): Promise<Life> {
  const runs: string[] = [];
  const gate = deferred();
  const startWaiters = new Map<string, () => void>();
  let released = false;
  const run = async (callId: string, signal: AbortSignal): Promise<string> => {
    runs.push(callId);
    startWaiters.get(callId)?.();
    if (gated) {
      await new Promise<void>((resolve, reject) => {
        void gate.promise.then(resolve);
        signal.addEventListener('abort', () => reject(signal.reason), { once: true });
      });
    }
    return `${label}:${callId}`;
  };
  const host = new Host({
    kind: 'test',
    name: 'Test',
    version: '1.0.0',
    projectPath: ws.projectPath,
    recordsDir: ws.recordsDir,
    journalPath: ws.journalPath,
    heartbeatMs: 100,
    ...ws.identity,
    ...options,
  });
  // Every call passes its own `tag`: identical concurrent calls would share one execution.
  const input = z.object({ tag: z.string() });
  host.tool({ name: 'slow', description: 'Changes the scene; not safe to repeat', input, handler: (_args, ctx) => run(ctx.callId, ctx.signal) });
  host.tool({ name: 'read', description: 'Reads the scene', input, annotations: { readOnlyHint: true }, handler: (_args, ctx) => run(ctx.callId, ctx.signal) });
  host.tool({ name: 'big', description: 'A 100 KB result', input, handler: (_args, ctx) => run(ctx.callId, ctx.signal).then((text) => text.padEnd(100_000, '.')) });
  // A tool that does not look at its cancel signal (a synchronous build step): it finishes anyway.
  host.tool({ name: 'stubborn', description: 'Ignores cancels', input, handler: (_args, ctx) => run(ctx.callId, new AbortController().signal) });
  await host.start();
  const release = (): void => {
    released = true;
    gate.resolve();
  };
  cleanups.push(async () => {
    // Let a tool still held by a closed life finish before its folder goes away.
    release();
    await new Promise((resolve) => setImmediate(resolve));
    await host.close();
  });
  return {
    host,
    runs,
    started: (callId) => (runs.includes(callId) ? Promise.resolve() : new Promise((resolve) => startWaiters.set(callId, resolve))),
    release: () => {
      if (!released) release();
    },
  };
}

async function startLink(ws: Pick<Workspace, 'recordsDir' | 'projectPath'>, options: Partial<HostLinkOptions> = {}): Promise<HostLink> {
  const link = new HostLink({ recordsDir: ws.recordsDir, project: ws.projectPath, backoff: { initialMs: 20, maxMs: 100 }, ...options });
  cleanups.push(() => link.close());
  const up = new Promise((resolve) => link.once('connected', resolve));
  link.start();
  await up;
  return link;
}

/** A listener that resolves once the call is reported queued. */
function queuedListener(): { listener: { progress(update: CallProgress): void }; queued: Promise<void> } {
  const seen = deferred();
  return { listener: { progress: (update) => update.state === 'queued' && seen.resolve() }, queued: seen.promise };
}

function text(result: CallStartResult): string | undefined {
  const first = result.result.content[0];
  return first?.type === 'text' ? first.text : undefined;
}

function settle<T>(promise: Promise<T>): Promise<{ ok: true; value: T } | { ok: false; error: TetherError }> {
  return promise.then(
    (value) => ({ ok: true as const, value }),
    (error: unknown) => ({ ok: false as const, error: TetherError.from(error) }),
  );
}

describe('runHostCall across a dropped connection (host reload)', () => {
  it('running call → OUTCOME_UNKNOWN (never rerun); queued call → re-queued by the new host, re-attached, run exactly once', async () => {
    const ws = workspace();
    const before = await startLife(ws, 'A', { gated: true });
    const link = await startLink(ws);

    const running = settle(runHostCall(link, { callId: 'run-1', tool: 'slow', arguments: { tag: 'run-1' } }, { waitMs: 3_000, rerunnable: false }));
    await before.started('run-1');
    const { listener, queued: isQueued } = queuedListener();
    const queued = settle(runHostCall(link, { callId: 'queued-1', tool: 'slow', arguments: { tag: 'queued-1' } }, { waitMs: 3_000, rerunnable: false, listener }));
    await isQueued;
    expect(before.host.calls.status('run-1').state).toBe('running');
    expect(before.host.calls.status('queued-1').state).toBe('queued');

    // The editor reloads its domain: the connection drops while one call runs and one waits.
    await before.host.close({ reason: 'reload', expectedBackMs: 100 });
    const after = await startLife(ws, 'B', { gated: false });

    const runOutcome = await running;
    expect(runOutcome.ok).toBe(false);
    if (!runOutcome.ok) {
      expect(runOutcome.error.code).toBe('OUTCOME_UNKNOWN');
      expect(runOutcome.error.data).toMatchObject({ callId: 'run-1' });
    }
    const queuedOutcome = await queued;
    expect(queuedOutcome.ok).toBe(true);
    if (queuedOutcome.ok) {
      expect(queuedOutcome.value.callId).toBe('queued-1');
      expect(text(queuedOutcome.value)).toBe('B:queued-1');
    }
    // Exactly once each: run-1 ran in the old life only, queued-1 in the new life only.
    expect(before.runs).toEqual(['run-1']);
    expect(after.runs).toEqual(['queued-1']);
    expect(after.host.calls.status('run-1')).toMatchObject({ state: 'interrupted', error: { code: 'OUTCOME_UNKNOWN' } });
    expect(after.host.calls.status('queued-1').state).toBe('completed');
  });

  it('the host lost the call (journal gone): a non-rerunnable call → OUTCOME_UNKNOWN, a rerunnable one simply runs again', async () => {
    const ws = workspace();
    const before = await startLife(ws, 'A', { gated: true });
    const link = await startLink(ws);

    const read = settle(runHostCall(link, { callId: 'read-1', tool: 'read', arguments: { tag: 'read-1' } }, { waitMs: 3_000, rerunnable: true }));
    await before.started('read-1');
    const { listener, queued: isQueued } = queuedListener();
    const slow = settle(runHostCall(link, { callId: 'slow-1', tool: 'slow', arguments: { tag: 'slow-1' } }, { waitMs: 3_000, rerunnable: false, listener }));
    await isQueued;

    await before.host.close({ reason: 'reload', expectedBackMs: 100 });
    rmSync(ws.journalPath, { force: true });
    const after = await startLife(ws, 'B', { gated: false });

    const slowOutcome = await slow;
    expect(slowOutcome.ok).toBe(false);
    if (!slowOutcome.ok) {
      expect(slowOutcome.error.code).toBe('OUTCOME_UNKNOWN');
      expect(slowOutcome.error.data).toEqual({ callId: 'slow-1', tool: 'slow' });
      expect(slowOutcome.error.message).toMatch(/not run again/);
    }
    const readOutcome = await read;
    expect(readOutcome.ok).toBe(true);
    if (readOutcome.ok) expect(text(readOutcome.value)).toBe('B:read-1');
    expect(before.runs).toEqual(['read-1']);
    expect(after.runs).toEqual(['read-1']); // ran again, once; the non-rerunnable call never ran
    expect(() => after.host.calls.status('slow-1')).toThrow(expect.objectContaining({ code: 'UNKNOWN_CALL' }));
  });
});

/**
 * A gated editor life whose link reaches it through a relay the test can cut (a network blip)
 * or take down (an outage), while the host itself carries on.
 */
async function startBehindProxy(): Promise<{ life: Life; proxy: TcpProxy; link: HostLink }> {
  const ws = workspace();
  const life = await startLife(ws, 'A', { gated: true, advertise: false });
  const proxy = await new TcpProxy(life.host.port as number).start();
  cleanups.push(() => proxy.close());
  writeHostRecord(
    {
      instanceId: ws.identity.instanceId,
      pid: process.pid,
      port: proxy.port,
      host: '127.0.0.1',
      token: ws.identity.token,
      projectPath: ws.projectPath,
      kind: 'test',
      protocolVersion: 1,
      startedAt: new Date().toISOString(),
    },
    ws.recordsDir,
  );
  return { life, proxy, link: await startLink(ws) };
}

/** A gated editor life and a link connected to it. */
async function startLinkedLife(options: Partial<HostOptions> = {}): Promise<{ ws: Workspace; life: Life; link: HostLink }> {
  const ws = workspace();
  const life = await startLife(ws, 'A', { gated: true, ...options });
  return { ws, life, link: await startLink(ws) };
}

/** Starts a call, aborts it once its tool runs, and hands back its settling (the caller's view). */
async function cancelOnceRunning(link: HostLink, life: Life, callId: string, tool: string, confirmCancelMs?: number): Promise<{ outcome: ReturnType<typeof settle<CallStartResult>> }> {
  const controller = new AbortController();
  const call = settle(
    runHostCall(link, { callId, tool, arguments: { tag: callId } }, { waitMs: 3_000, rerunnable: false, signal: controller.signal, ...(confirmCancelMs ? { confirmCancelMs } : {}) }),
  );
  await life.started(callId);
  controller.abort(new Error('the user pressed stop'));
  return { outcome: call };
}

describe('runHostCall across a blip (the host keeps running)', () => {
  it('re-attaches to the live call after the connection is cut and gets its result; the tool runs once', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const call = settle(runHostCall(link, { callId: 'blip-1', tool: 'slow', arguments: { tag: 'blip-1' } }, { waitMs: 3_000, rerunnable: false }));
    await life.started('blip-1');

    const lost = new Promise((resolve) => link.once('state', resolve));
    const back = new Promise((resolve) => link.once('connected', resolve));
    proxy.cut();
    expect(await lost).toBe('lost');
    await back;
    // The host may or may not have seen the re-attach yet: either way the call must not run twice.
    life.release();

    const outcome = await call;
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(text(outcome.value)).toBe('A:blip-1');
    expect(life.runs).toEqual(['blip-1']);
    expect(life.host.calls.status('blip-1').state).toBe('completed');
  });

  it('a call the editor answers with CONNECTION_CLOSED, its own outcome, ends with it: it is not re-attached again and again', async () => {
    const ws = workspace();
    const life = await startLife(ws, 'A', { gated: false });
    let runs = 0;
    // As a tool whose question to the client was lost with a dropped link fails.
    life.host.tool({
      name: 'asks',
      description: 'Not safe to repeat',
      input: z.object({}),
      handler: () => {
        runs++;
        throw new TetherError('CONNECTION_CLOSED', 'The client went away before answering.');
      },
    });
    const link = await startLink(ws);
    const outcome = await settle(runHostCall(link, { callId: 'closed-1', tool: 'asks', arguments: {} }, { waitMs: 3_000, rerunnable: false }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'CONNECTION_CLOSED', message: expect.stringContaining('went away') });
    expect(runs).toBe(1);
    expect(life.host.calls.status('closed-1').state).toBe('failed');
  });

  it('evicted mid-call: rejects at once with EVICTED naming the call, which goes on at the host', async () => {
    const ws = workspace();
    const life = await startLife(ws, 'A', { gated: true, maxConnections: 1 });
    const link = await startLink(ws);
    const call = settle(runHostCall(link, { callId: 'ev-1', tool: 'slow', arguments: { tag: 'ev-1' } }, { waitMs: 3_000, rerunnable: false }));
    await life.started('ev-1');
    const intruder = await connectToHost({ port: life.host.port as number, token: ws.identity.token, clientName: 'intruder' });
    cleanups.push(() => intruder.rpc.close());
    const outcome = await call;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('EVICTED');
      expect(outcome.error.data).toMatchObject({ callId: 'ev-1', status: 'evicted' });
    }
    expect(life.host.calls.status('ev-1').state).toBe('running');
    expect(life.runs).toEqual(['ev-1']);
  });

  it('a cancel sent while the host was unreachable reaches it when it is back, but never a retry of the same callId', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const outage = async (): Promise<void> => {
      const lost = new Promise((resolve) => link.once('state', resolve));
      proxy.goDown();
      expect(await lost).toBe('lost');
    };
    const reconnect = (): Promise<unknown> => {
      const back = new Promise((resolve) => link.once('connected', resolve));
      proxy.up();
      return back;
    };
    /** Starts a call, takes the host away while it runs, and cancels it: the caller hears at once. */
    const cancelDuringOutage = async (callId: string, reason: string): Promise<void> => {
      const controller = new AbortController();
      const call = settle(runHostCall(link, { callId, tool: 'slow', arguments: { tag: callId } }, { waitMs: 5_000, rerunnable: false, signal: controller.signal }));
      await life.started(callId);
      await outage();
      controller.abort(new Error(reason));
      expect((await call).ok).toBe(false);
    };

    // Cancelled during an outage longer than a blip: the host hears it once the link is back.
    await cancelDuringOutage('late-1', 'the user pressed stop');
    await new Promise((resolve) => setTimeout(resolve, 1_200)); // longer than the cancel once waited
    await reconnect();
    await expect.poll(() => life.host.calls.status('late-1').state).toBe('cancelled');

    // Cancelled during an outage, then asked again under the same callId (as a retry with the same
    // idempotency key does) before the link is back: the old cancel must not cancel the retry.
    await cancelDuringOutage('retry-1', 'the client gave up');
    const retry = settle(runHostCall(link, { callId: 'retry-1', tool: 'slow', arguments: { tag: 'retry-1' } }, { waitMs: 5_000, rerunnable: false }));
    // Asked last, so answered after the host has handled whatever the old cancel and the retry sent.
    const probe = link.request<{ state: string }>(METHODS.callStatus, { callId: 'retry-1' }, 5_000);
    await reconnect();
    expect((await probe).state).toBe('running');
    life.release();
    const outcome = await retry;
    expect(outcome.ok).toBe(true);
    if (outcome.ok) expect(text(outcome.value)).toBe('A:retry-1');
    expect(life.host.calls.status('retry-1').state).toBe('completed');
    expect(life.runs).toEqual(['late-1', 'retry-1']);
  });

  it('a cancel written into a connection that was already dead goes again once the link is back', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const controller = new AbortController();
    const call = settle(runHostCall(link, { callId: 'dead-1', tool: 'slow', arguments: { tag: 'dead-1' } }, { waitMs: 5_000, rerunnable: false, signal: controller.signal }));
    await life.started('dead-1');
    // The abort comes before the link has noticed the reset (as an MCP client's cancel can, when
    // the editor crashes): the caller is answered at once, and the cancel must not die with the socket.
    controller.abort(new Error('the user pressed stop'));
    proxy.cut();
    expect((await call).ok).toBe(false);
    await expect.poll(() => life.host.calls.status('dead-1').state).toBe('cancelled');
    expect(life.runs).toEqual(['dead-1']);
  });

  it('a cancel the editor answers with any error, on a connection still open, is not sent again', async () => {
    const { dir, remove } = tempDir('tether-call-');
    cleanups.push(remove);
    let cancels = 0;
    // An editor not ours: it answers calls/cancel with the code Tether uses for a closed connection.
    const fake = await new FakeHost(
      join(dir, 'project'),
      FakeHost.answerHello((message, connection) => {
        if (!isRequest(message)) return;
        if (message.method === 'calls/cancel') {
          cancels++;
          connection.send({ jsonrpc: '2.0', id: message.id, error: { code: -32006, message: 'No such call here.' } });
        } else if (message.method === 'calls/status') connection.send({ jsonrpc: '2.0', id: message.id, result: { state: 'running' } });
      }),
    ).start();
    cleanups.push(() => fake.close());
    fake.writeRecord(join(dir, 'hosts'));
    const link = await startLink({ recordsDir: join(dir, 'hosts'), projectPath: join(dir, 'project') });
    const controller = new AbortController();
    const call = settle(runHostCall(link, { callId: 'odd-1', tool: 'slow', arguments: {} }, { waitMs: 2_000, rerunnable: false, signal: controller.signal }));
    controller.abort(new Error('the user pressed stop'));
    expect((await call).ok).toBe(false);
    await expect.poll(() => cancels).toBe(1);
    // A few round trips on the same connection: a cancel sent again would have arrived by now.
    for (let i = 0; i < 5; i++) await link.request(METHODS.callStatus, { callId: 'odd-1' }, 1_000);
    expect(cancels).toBe(1);
  });

  it('a caller abort cancels the call at the host and rejects with CANCELLED', async () => {
    const { life, link } = await startLinkedLife();
    const { outcome: cancelled } = await cancelOnceRunning(link, life, 'abort-1', 'slow');
    const outcome = await cancelled;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('CANCELLED');
      expect(outcome.error.message).toContain('the user pressed stop');
    }
    await expect.poll(() => life.host.calls.status('abort-1').state).toBe('cancelled');
    expect(life.runs).toEqual(['abort-1']);
  });
});

describe('runHostCall when the editor stays away or a cancel must be confirmed', () => {
  it('a call already sent whose editor stays away past the wait → OUTCOME_UNKNOWN, not HOST_UNAVAILABLE; it ran once', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const slow = settle(runHostCall(link, { callId: 'away-1', tool: 'slow', arguments: { tag: 'away-1' } }, { waitMs: 400, rerunnable: false }));
    await life.started('away-1');
    const { listener, queued } = queuedListener();
    const read = settle(runHostCall(link, { callId: 'away-2', tool: 'read', arguments: { tag: 'away-2' } }, { waitMs: 400, rerunnable: true, listener }));
    await queued; // behind the first on the editor's main thread
    const lost = new Promise((resolve) => link.once('state', resolve));
    proxy.goDown();
    expect(await lost).toBe('lost');

    const slowOutcome = await slow;
    expect(slowOutcome.ok).toBe(false);
    if (!slowOutcome.ok) {
      // "Unavailable, retry" would invite a second run of a call the editor may still finish.
      expect(slowOutcome.error.code).toBe('OUTCOME_UNKNOWN');
      expect(slowOutcome.error.data).toMatchObject({ callId: 'away-1', tool: 'slow', cause: { code: 'HOST_UNAVAILABLE' } });
      expect(slowOutcome.error.message).toMatch(/not run again/);
    }
    // A read-only call may simply be asked again: the editor's absence is all there is to say.
    const readOutcome = await read;
    expect(readOutcome.ok ? undefined : readOutcome.error.code).toBe('HOST_UNAVAILABLE');

    proxy.up();
    life.release();
    await expect.poll(() => life.host.calls.status('away-2').state).toBe('completed');
    expect(life.host.calls.status('away-1').state).toBe('completed');
    expect(life.runs).toEqual(['away-1', 'away-2']);
  });

  it('with confirmCancelMs, a cancelled call reports what the editor did: CANCELLED when it stopped, the result when it finished anyway', async () => {
    const { life, link } = await startLinkedLife();

    const stopOutcome = await (await cancelOnceRunning(link, life, 'stop-1', 'slow', 5_000)).outcome;
    expect(stopOutcome.ok ? undefined : stopOutcome.error.code).toBe('CANCELLED');
    // The host's own answer, not the caller giving up: it was running when cancelled.
    if (!stopOutcome.ok) expect(stopOutcome.error.data).toMatchObject({ callId: 'stop-1', started: true });
    expect(life.host.calls.status('stop-1').state).toBe('cancelled');

    const { outcome: finished } = await cancelOnceRunning(link, life, 'late-1', 'stubborn', 5_000);
    await expect.poll(() => life.host.calls.status('late-1').state).toBe('running'); // the cancel reached it, and it runs on
    life.release();
    const lateOutcome = await finished;
    expect(lateOutcome.ok).toBe(true);
    if (lateOutcome.ok) expect(text(lateOutcome.value)).toBe('A:late-1');
    expect(life.host.calls.status('late-1').state).toBe('completed');
  });

  it('with confirmCancelMs, a cancel lost with a dropped connection is sent again with the re-attach', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const controller = new AbortController();
    const call = settle(runHostCall(link, { callId: 'lost-1', tool: 'slow', arguments: { tag: 'lost-1' } }, { waitMs: 5_000, rerunnable: false, signal: controller.signal, confirmCancelMs: 5_000 }));
    await life.started('lost-1');
    controller.abort(new Error('the user pressed stop'));
    proxy.cut(); // in the same turn: the calls/cancel is written into a connection already reset
    await expect.poll(() => life.host.calls.status('lost-1').state).toBe('cancelled');
    const outcome = await call;
    expect(outcome.ok ? undefined : outcome.error.code).toBe('CANCELLED');
    expect(life.runs).toEqual(['lost-1']);
  });

  it('with confirmCancelMs, a call cancelled while it waited for the editor is never sent once the editor is back', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const lost = new Promise((resolve) => link.once('state', resolve));
    proxy.goDown();
    expect(await lost).toBe('lost');
    const controller = new AbortController();
    const call = settle(runHostCall(link, { callId: 'never-1', tool: 'slow', arguments: { tag: 'never-1' } }, { waitMs: 5_000, rerunnable: false, signal: controller.signal, confirmCancelMs: 5_000 }));
    controller.abort(new Error('the user pressed stop'));
    const back = new Promise((resolve) => link.once('connected', resolve));
    proxy.up();
    await back;
    const outcome = await call;
    expect(outcome.ok ? undefined : outcome.error.code).toBe('CANCELLED');
    // Asked after the link was back: the host never heard of the call.
    await expect(link.request(METHODS.callStatus, { callId: 'never-1' }, 1_000)).rejects.toMatchObject({ code: 'UNKNOWN_CALL' });
    expect(life.runs).toEqual([]);
  });

  it('with confirmCancelMs, a call cancelled just as the editor came back, its wait for the link already over, is never sent', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const lost = new Promise((resolve) => link.once('state', resolve));
    proxy.goDown();
    expect(await lost).toBe('lost');
    const controller = new AbortController();
    let sent = false;
    // Waiting for the link from here on (runHostCall reaches link.connection() before it returns).
    const call = settle(
      runHostCall(
        link,
        { callId: 'edge-1', tool: 'slow', arguments: { tag: 'edge-1' } },
        { waitMs: 5_000, rerunnable: false, signal: controller.signal, confirmCancelMs: 5_000, onSent: () => (sent = true) },
      ),
    );
    // 'connected' comes after the link is authenticated and has woken its waiters: the call's
    // wait has ended with the connection in hand, and the abort comes before the call goes on.
    link.once('connected', () => controller.abort(new Error('the user pressed stop')));
    proxy.up();
    const outcome = await call;
    expect(outcome.ok ? outcome.value : outcome.error).toMatchObject({ code: 'CANCELLED', data: { callId: 'edge-1', started: false } });
    expect(sent).toBe(false);
    // Asked on the same connection, after anything the call could have sent: the host never heard of it.
    await expect(link.request(METHODS.callStatus, { callId: 'edge-1' }, 1_000)).rejects.toMatchObject({ code: 'UNKNOWN_CALL' });
    expect(life.runs).toEqual([]);
  });

  it('with confirmCancelMs, a cancel the editor cannot confirm in time → OUTCOME_UNKNOWN (cancel requested), never CANCELLED', async () => {
    const { life, proxy, link } = await startBehindProxy();
    const controller = new AbortController();
    const call = settle(runHostCall(link, { callId: 'unconf-1', tool: 'slow', arguments: { tag: 'unconf-1' } }, { waitMs: 5_000, rerunnable: false, signal: controller.signal, confirmCancelMs: 300 }));
    await life.started('unconf-1');
    const lost = new Promise((resolve) => link.once('state', resolve));
    proxy.goDown();
    expect(await lost).toBe('lost');
    controller.abort(new Error('the user pressed stop'));
    const outcome = await call;
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('OUTCOME_UNKNOWN');
      expect(outcome.error.data).toMatchObject({ callId: 'unconf-1', cancelRequested: true });
    }
    // The cancel still reaches the editor once it is back (it waits as long as the call would have).
    proxy.up();
    await expect.poll(() => life.host.calls.status('unconf-1').state).toBe('cancelled');
    expect(life.runs).toEqual(['unconf-1']);
  });
});

describe('runHostCall and a result too large for the link', () => {
  it('says the call completed and its result cannot be delivered, rather than "return a smaller result"', async () => {
    const ws = workspace();
    const life = await startLife(ws, 'A', { gated: false });
    const link = await startLink(ws, { limits: { maxFrameBytes: 65_536 } });
    const outcome = await settle(runHostCall(link, { callId: 'big-1', tool: 'big', arguments: { tag: 'big-1' } }, { waitMs: 3_000, rerunnable: false }));
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) {
      expect(outcome.error.code).toBe('FRAME_TOO_LARGE');
      expect(outcome.error.data).toMatchObject({ callId: 'big-1', tool: 'big', state: 'completed', maxFrameBytes: 65_536 });
      expect(outcome.error.message).toMatch(/completed in the editor.*do not call it again/);
    }
    expect(life.host.calls.status('big-1').state).toBe('completed');
    expect(life.runs).toEqual(['big-1']);
  });
});

describe('runHostCall given a signal that has already aborted', () => {
  it('never sends the call: CANCELLED with started: false, nothing run, onSent never called', async () => {
    const ws = workspace();
    const life = await startLife(ws, 'A', { gated: false });
    const link = await startLink(ws);
    const abort = new AbortController();
    abort.abort(new TetherError('CANCELLED', 'Interrupted from the terminal.'));
    let sent = false;
    const outcome = await settle(
      runHostCall(
        link,
        { callId: 'late-1', tool: 'slow', arguments: { tag: 'late-1' } },
        { waitMs: 1_000, rerunnable: false, signal: abort.signal, confirmCancelMs: 1_000, onSent: () => (sent = true) },
      ),
    );
    expect(outcome.ok).toBe(false);
    if (!outcome.ok) expect(outcome.error).toMatchObject({ code: 'CANCELLED', data: { callId: 'late-1', started: false } });
    expect(sent).toBe(false);
    // A call after it runs: had the first been sent, it would have run first.
    await runHostCall(link, { callId: 'next-1', tool: 'slow', arguments: { tag: 'next-1' } }, { waitMs: 1_000, rerunnable: false, onSent: () => (sent = true) });
    expect(sent).toBe(true);
    expect(life.runs).toEqual(['next-1']);
  });
});
