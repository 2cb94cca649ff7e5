/**
 * What a link's hello says it can answer. The host asks a tool's question of the most recently
 * attached connection that says it can: a `tether call` that declared elicitation it cannot
 * answer, joining a shared execution after an MCP front, took the question and failed the call
 * for both. A link declares what its side relays (the MCP fronts: both, the default), and
 * `tether call` none.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host } from '../../src/host/index.js';
import { runHostCall } from '../../src/link/host-call.js';
import { HostLink, type HostLinkOptions } from '../../src/link/host-link.js';
import { METHODS, type HostStatusResult } from '../../src/protocol/index.js';
import { deferred, tempDir, waitForState } from './fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

describe('the capabilities a link declares', () => {
  it('a link that declares none is never asked: a shared call it joins last still asks the front that can answer, and completes for both', async () => {
    const { dir, remove } = tempDir('tether-caps-');
    cleanups.push(remove);
    const projectPath = join(dir, 'project');
    mkdirSync(projectPath);
    const recordsDir = join(dir, 'hosts');
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath, recordsDir, journalPath: join(dir, 'journal.jsonl') });
    const gate = deferred();
    // Not safe to repeat, so an identical call in flight shares its execution; it asks once it may.
    host.tool({
      name: 'ask_name',
      description: 'Asks the user a name, then uses it',
      input: z.object({}),
      execution: { duplicates: 'attach' },
      handler: async (_args, ctx) => {
        await gate.promise;
        const answer = await ctx.elicit('Your name?', { type: 'object', properties: { name: { type: 'string' } } });
        return `hello ${JSON.stringify(answer.content)}`;
      },
    });
    await host.start();
    cleanups.push(() => host.close());
    const link = (options: HostLinkOptions): HostLink => {
      const made = new HostLink({ recordsDir, project: projectPath, ...options });
      cleanups.push(() => made.close());
      return made.start();
    };
    const front = link({ clientName: 'front' });
    const terminal = link({ clientName: 'tether-call', capabilities: {} });
    await Promise.all([waitForState(front, 'authenticated'), waitForState(terminal, 'authenticated')]);

    const asked: string[] = [];
    const fromFront = runHostCall(
      front,
      { callId: randomUUID(), tool: 'ask_name', arguments: {} },
      {
        waitMs: 1_000,
        rerunnable: false,
        listener: {
          elicit: async ({ message }) => {
            asked.push(message);
            return { action: 'accept', content: { name: 'Ada' } };
          },
        },
      },
    );
    const fromTerminal = runHostCall(terminal, { callId: randomUUID(), tool: 'ask_name', arguments: {} }, { waitMs: 1_000, rerunnable: false });
    // Both requesters share the execution before it asks.
    await expect.poll(async () => (await front.request<HostStatusResult>(METHODS.hostStatus, {}, 1_000)).calls.filter((c) => c.tool === 'ask_name').length, { timeout: 5_000, interval: 20 }).toBe(2);
    gate.resolve();

    const [a, b] = await Promise.all([fromFront, fromTerminal]);
    expect(asked).toEqual(['Your name?']);
    for (const outcome of [a, b]) expect(outcome.result).toMatchObject({ content: [{ type: 'text', text: 'hello {"name":"Ada"}' }] });
  });
});
