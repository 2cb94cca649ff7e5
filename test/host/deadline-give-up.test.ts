/**
 * A tool that ignores its signal is given up a grace after its deadline (protocol.md §8.6):
 * its requester hears that the outcome is unknown, and the next call runs. Before, it held its
 * requester, and every call queued behind it, for ever.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS } from '../../src/protocol/index.js';
import { deferred } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('a tool that ignores its deadline', () => {
  it('is given up as an unknown outcome after the grace, and the next call runs meanwhile', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-give-up-'));
    const host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts'), heartbeatMs: 100, deadlineGraceMs: 150 });
    const stubborn = deferred<string>();
    const runs: string[] = [];
    host.tool({
      name: 'stubborn',
      description: 'Never looks at its signal',
      handler: (_args, ctx) => (runs.push(ctx.callId), stubborn.promise),
    });
    host.tool({ name: 'next', description: 'Quick', handler: (_args, ctx) => (runs.push(ctx.callId), 'next done') });
    await host.start();
    cleanups.push(() => host.close());
    const { rpc, hello } = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => rpc.close());
    expect(hello.deadlineGraceMs).toBe(150);

    const stuck = rpc.request(METHODS.callStart, { callId: 's', tool: 'stubborn', deadlineMs: 50 });
    const next = rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'n', tool: 'next' });
    await expect(stuck).rejects.toMatchObject({
      code: 'OUTCOME_UNKNOWN',
      message: expect.stringContaining('did not stop within 150 ms of its 50 ms deadline'),
      data: { callId: 's', tool: 'stubborn', deadlineMs: 50, graceMs: 150, state: 'interrupted' },
    });
    expect((await next).result.content[0]!.text).toBe('next done');
    expect(runs).toEqual(['s', 'n']);

    // Its late end is not taken for the call's outcome.
    stubborn.resolve('late');
    await new Promise((resolve) => setImmediate(resolve));
    expect(await rpc.request(METHODS.callStatus, { callId: 's' })).toMatchObject({ state: 'interrupted', error: { code: 'OUTCOME_UNKNOWN' } });
  });
});
