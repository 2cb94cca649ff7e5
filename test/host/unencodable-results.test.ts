/**
 * A tool result JSON cannot encode (a BigInt, a cycle, a toJSON that throws): the host says,
 * as the tool's failure, that the tool ran and its result is what needs fixing. It is found
 * before the call is journaled, so the journal never says "completed" for a result no one
 * could receive, and the host's process never dies of it.
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { Host, toToolResult } from '../../src/host/index.js';
import { connectToHost, type HostSession } from '../../src/link/host-client.js';
import { METHODS, TetherError } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const cycle: Record<string, unknown> = { name: 'loop' };
cycle.self = cycle;

/** A host with a file journal, and the tools that return what JSON cannot encode. */
async function startHost(): Promise<{ host: Host; journalPath: string; session: HostSession }> {
  const home = mkdtempSync(join(tmpdir(), 'tether-unencodable-'));
  const journalPath = join(home, 'journal.jsonl');
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), journalPath });
  host
    .tool({
      name: 'count_whole',
      description: 'A whole result whose structuredContent holds a BigInt',
      handler: () => ({ content: [{ type: 'text', text: 'ok' }], structuredContent: { total: 1n } }) as never,
    })
    .tool({ name: 'count_plain', description: 'A plain value holding a BigInt', handler: () => ({ n: 1n }) as never })
    .tool({ name: 'loop', description: 'A value inside itself', handler: () => cycle })
    .tool({ name: 'loop_whole', description: 'A whole result with a cycle in a content item', handler: () => ({ content: [{ type: 'text', text: 'ok', extra: cycle }] }) as never })
    .tool({
      name: 'bad_to_json',
      description: 'A value whose toJSON throws',
      handler: () =>
        ({
          content: [{ type: 'text', text: 'ok' }],
          structuredContent: {
            when: {
              toJSON: () => {
                throw new Error('no clock');
              },
            },
          },
        }) as never,
    })
    .tool({ name: 'fine', description: 'An ordinary result', handler: () => ({ total: 1 }) });
  await host.start();
  cleanups.push(() => host.close());
  const session = await connectToHost({ port: host.port as number, token: host.token });
  cleanups.push(() => session.rpc.close());
  return { host, journalPath, session };
}

/** The last journal line written for `callId`. */
function journaled(journalPath: string, callId: string): { state: string; error?: { code: string } } {
  const lines = readFileSync(journalPath, 'utf8')
    .trim()
    .split('\n')
    .map((line) => JSON.parse(line) as { callId: string; state: string });
  return lines.filter((entry) => entry.callId === callId).at(-1) as { state: string };
}

describe('a result JSON cannot encode', () => {
  it('ends the call TOOL_FAILED, saying that the tool ran and where the result is wrong; journaled failed, replayed alike, the host serving on', async () => {
    const { journalPath, session } = await startHost();
    const call = (callId: string, tool: string) => session.rpc.request(METHODS.callStart, { callId, tool }, { timeoutMs: 5_000 }).catch((error: TetherError) => error);

    const cases: Array<[tool: string, problem: string]> = [
      ['count_whole', 'it holds a BigInt at "structuredContent.total", which JSON cannot encode'],
      ['count_plain', 'it holds a BigInt at "n", which JSON cannot encode'],
      ['loop', 'it holds a cycle at "self"'],
      ['loop_whole', 'it holds a cycle at "content[0].extra.self"'],
      ['bad_to_json', 'it cannot be encoded as JSON (no clock)'],
    ];
    for (const [tool, problem] of cases) {
      const failed = await call(`c-${tool}`, tool);
      expect(failed, tool).toMatchObject({ code: 'TOOL_FAILED', data: { tool, problem: expect.stringContaining(problem), callId: `c-${tool}`, state: 'failed', replayed: false } });
      expect((failed as TetherError).message).toContain('Its effects have happened');
      // Never "completed": no one could ever have received that result.
      expect(journaled(journalPath, `c-${tool}`)).toMatchObject({ state: 'failed', error: { code: 'TOOL_FAILED' } });
      expect(await call(`c-${tool}`, tool)).toMatchObject({ code: 'TOOL_FAILED', data: { replayed: true } });
    }
    expect(await session.rpc.request(METHODS.callStatus, { callId: 'c-count_whole' })).toMatchObject({ state: 'failed' });
    expect(await call('c-fine', 'fine')).toMatchObject({ result: { structuredContent: { total: 1 } } });
  });

  it('in a progress report is left out, neither thrown by a later heartbeat (which would end the process) nor at the tool, which carries on', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-unencodable-'));
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), heartbeatMs: 50 });
    const refused: unknown[] = [];
    host.tool({
      name: 'reports',
      description: 'Reports odd progress and carries on',
      handler: async (_args, ctx) => {
        // A field the protocol does not have would be spread over the notification's own.
        ctx.progress({ progress: 2, state: 'completed', callId: 'other' } as never);
        try {
          ctx.progress({ progress: 1n as never, total: null as never, message: 'counting' });
        } catch (error) {
          refused.push(error);
        }
        await new Promise((resolve) => setTimeout(resolve, 300)); // heartbeats resend the last report
        return 'done';
      },
    });
    await host.start();
    cleanups.push(() => host.close());
    const { rpc } = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => rpc.close());
    const heard: Array<Record<string, unknown>> = [];
    rpc.onNotification(METHODS.callProgress, (params) => void heard.push(params as Record<string, unknown>));
    expect(await rpc.request(METHODS.callStart, { callId: 'p-1', tool: 'reports' }, { timeoutMs: 5_000 })).toMatchObject({ result: { content: [{ text: 'done' }] } });
    expect(refused).toEqual([]);
    expect(heard.length).toBeGreaterThan(2);
    // The report before, then the one with its bad fields left out, resent by heartbeats.
    expect(heard[0]).toMatchObject({ callId: 'p-1', state: 'running', progress: 2 });
    for (const progress of heard.slice(1)) {
      expect(progress).toMatchObject({ callId: 'p-1', state: 'running', message: 'counting' });
      expect(progress).not.toHaveProperty('progress');
      expect(progress).not.toHaveProperty('total');
    }
  });

  it('is found by toToolResult without reading the strings of a large result', () => {
    const image = 'A'.repeat(8 * 1024 * 1024);
    const result = { content: [{ type: 'image', data: image, mimeType: 'image/png' }], structuredContent: { at: new Date(0), size: image.length } };
    expect(toToolResult(result as never, 'shot')).toBe(result);
    expect(() => toToolResult({ content: [], structuredContent: { items: [1, 2, { big: 2n ** 70n }] } } as never, 'shot')).toThrow(
      expect.objectContaining({ code: 'TOOL_FAILED', data: { tool: 'shot', problem: expect.stringContaining('"structuredContent.items[2].big"') } }),
    );
    // A DAG is not a cycle: the same object twice is written twice.
    const shared = { x: 1 };
    expect(toToolResult({ content: [], structuredContent: { a: shared, b: shared } }, 'dag').structuredContent).toEqual({ a: { x: 1 }, b: { x: 1 } });
  });
});
