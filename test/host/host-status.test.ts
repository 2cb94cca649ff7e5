import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host, type HostOptions } from '../../src/host/index.js';
import type { JournalEntry } from '../../src/host/journal-entry.js';
import { connectToHost, type HostSession } from '../../src/link/host-client.js';
import { HostStatusResult, METHODS, type CallStatus } from '../../src/protocol/index.js';
import { deferred } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const AGENT = { name: 'claude-code', version: '2.1' };

async function startHost(configure: (host: Host) => void = () => undefined, options: Partial<HostOptions> = {}): Promise<Host> {
  const home = mkdtempSync(join(tmpdir(), 'tether-host-status-'));
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), heartbeatMs: 100, requeueGraceMs: 0, ...options });
  configure(host);
  await host.start();
  cleanups.push(() => host.close());
  return host;
}

async function connect(host: Host, clientName: string, clientVersion?: string): Promise<HostSession> {
  const session = await connectToHost({ port: host.port as number, token: host.token, clientName, ...(clientVersion ? { clientVersion } : {}) });
  cleanups.push(() => session.rpc.close());
  return session;
}

async function hostStatus(session: HostSession): Promise<HostStatusResult> {
  return HostStatusResult.parse(await session.rpc.request(METHODS.hostStatus, {}));
}

/** A tool that holds "the main thread" until released, reporting progress first. */
function blocking(host: Host): { started: Promise<void>; release: () => void } {
  const started = deferred();
  const released = deferred();
  host.tool({
    name: 'build',
    description: 'Builds',
    input: z.object({}),
    handler: async (_args, context) => {
      context.progress({ progress: 40, total: 100, message: 'Building: 40%' });
      started.resolve();
      await released.promise;
      return 'built';
    },
  });
  return { started: started.promise, release: () => released.resolve() };
}

describe('host/status and the agent of a call', () => {
  it('lists the connections and the calls in flight, running first, each with its agent and last progress', async () => {
    let build!: ReturnType<typeof blocking>;
    const host = await startHost((h) => {
      build = blocking(h);
      h.tool({ name: 'echo', description: 'Echoes', input: z.object({ text: z.string() }), handler: ({ text }) => text });
    });
    const front = await connect(host, 'tether-serve', '0.1.0');
    const terminal = await connect(host, 'tether-call');
    const building = front.rpc.request(METHODS.callStart, { callId: 'b1', tool: 'build', agent: AGENT });
    await build.started;
    const echoing = terminal.rpc.request(METHODS.callStart, { callId: 'q1', tool: 'echo', arguments: { text: 'hi' }, agent: { name: 'tether-call', extra: true } });
    await expect.poll(async () => (await terminal.rpc.request<CallStatus>(METHODS.callStatus, { callId: 'q1' })).state).toBe('queued');

    const status = await hostStatus(terminal);
    expect(status.state).toBe('ready');
    expect(status.since).toBeLessThanOrEqual(Date.now());
    expect(status.connections.map((c) => [c.connectionId, c.client])).toEqual([
      [front.hello.connectionId, { name: 'tether-serve', version: '0.1.0' }],
      [terminal.hello.connectionId, { name: 'tether-call' }],
    ]);
    expect(status.connections[0]?.endpoint).toMatch(/^127\.0\.0\.1:\d+$/);
    expect(status.calls.map((c) => [c.callId, c.state, c.agent])).toEqual([
      ['b1', 'running', AGENT],
      // Only the name and version are kept, whatever else the client sent.
      ['q1', 'queued', { name: 'tether-call' }],
    ]);
    expect(status.calls[0]?.lastProgress).toEqual({ progress: 40, total: 100, message: 'Building: 40%' });
    expect(status.calls[1]?.position).toBe(0);
    expect(status.unknownOutcomes).toEqual([]);
    expect(status.omitted).toBeUndefined();
    expect((await terminal.rpc.request<CallStatus>(METHODS.callStatus, { callId: 'b1' })).agent).toEqual(AGENT);

    // Each list is bounded; what is left out is counted.
    const bounded = host.calls.overview(1);
    expect(bounded.calls.map((c) => c.callId)).toEqual(['b1']);
    expect(bounded.omitted).toEqual({ calls: 1, unknownOutcomes: 0 });

    build.release();
    await Promise.all([building, echoing]);
    expect((await hostStatus(terminal)).calls).toEqual([]);
  });

  it('says since when the host is in its state', async () => {
    const host = await startHost();
    const session = await connect(host, 'test');
    const before = Date.now();
    host.setState('compiling', 1_000);
    const status = await hostStatus(session);
    expect(status.state).toBe('compiling');
    expect(status.since).toBeGreaterThanOrEqual(before);
  });

  it('lists calls interrupted by a restart as unknown outcomes, and loads journals written before agents', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'tether-host-status-journal-'));
    const journalPath = join(dir, 'journal.jsonl');
    const now = Date.now();
    const running = (callId: string, extra: Partial<JournalEntry> = {}): JournalEntry => ({
      callId,
      tool: 'build',
      arguments: {},
      argsHash: callId,
      lane: 'c1',
      state: 'running',
      queuedAt: now - 2_000,
      startedAt: now - 1_000,
      ...extra,
    });
    writeFileSync(journalPath, `${JSON.stringify(running('r1', { agent: AGENT }))}\n${JSON.stringify(running('r2'))}\n`);
    const host = await startHost(() => undefined, { journalPath });
    const session = await connect(host, 'test');
    const { unknownOutcomes } = await hostStatus(session);
    expect(unknownOutcomes.map((c) => [c.callId, c.state, c.error?.code, c.agent]).sort()).toEqual([
      ['r1', 'interrupted', 'OUTCOME_UNKNOWN', AGENT],
      ['r2', 'interrupted', 'OUTCOME_UNKNOWN', undefined],
    ]);
  });

  it('gives the agent to the tool, and refuses a malformed one', async () => {
    const seen = deferred<unknown>();
    const host = await startHost((h) => h.tool({ name: 'who', description: 'Who', input: z.object({}), handler: (_args, context) => (seen.resolve(context.agent), 'ok') }));
    const session = await connect(host, 'test');
    await session.rpc.request(METHODS.callStart, { callId: 'w1', tool: 'who', agent: AGENT });
    expect(await seen.promise).toEqual(AGENT);
    await expect(session.rpc.request(METHODS.callStart, { callId: 'w2', tool: 'who', agent: { version: '1' } })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      data: { field: 'agent.name' },
    });
  });
});
