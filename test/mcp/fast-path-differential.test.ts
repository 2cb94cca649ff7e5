/**
 * The fast path for plain tools/call (src/mcp/fast-path/) against the SDK's own path: the same
 * raw stdin lines go to two real `tether mcp` processes on the same editor, one with the fast
 * path (the default) and one without (TETHER_FAST_PATH=0), and their stdout must hold the same
 * bytes, line for line (callIds, which are random, aside). Each kind of tools/call is here:
 * success, structured content, isError, invalid arguments, unknown tool, progress, a cancel
 * mid-call, a large result, the editor away, a call that spans a domain reload of the sandbox
 * editor, and both protocol eras.
 */
import { createHash } from 'node:crypto';
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host } from '../../src/host/index.js';
import { TetherError } from '../../src/protocol/index.js';
import { TetherProcess, cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

const BIG_TEXT = 'x'.repeat(2 * 1024 * 1024);

function startHost(workspace: Workspace): Promise<Host> {
  const host = new Host({ kind: 'test', name: 'Differential host', version: '1.0.0', projectPath: workspace.project, recordsDir: join(workspace.home, 'hosts') });
  host
    .tool({ name: 'echo', description: 'Echoes text.', input: z.object({ text: z.string() }), annotations: { readOnlyHint: true }, handler: ({ text }) => text })
    .tool({
      name: 'structured',
      description: 'Structured content with an output schema.',
      input: z.object({ n: z.number() }),
      output: z.object({ doubled: z.number(), label: z.string() }),
      annotations: { readOnlyHint: true },
      handler: ({ n }) => ({ content: [{ type: 'text', text: `doubled ${n}` }], structuredContent: { doubled: n * 2, label: 'ok' } }),
    })
    .tool({
      name: 'unordered',
      description: 'A result whose keys are not in the SDK schema order, with an image.',
      input: z.object({}),
      handler: () =>
        ({
          structuredContent: { b: 1, a: 2 },
          content: [
            { text: 'first', type: 'text' },
            { mimeType: 'image/png', data: 'iVBORw0KGgo=', type: 'image' },
          ],
        }) as never,
    })
    .tool({ name: 'own_error', description: 'Returns isError itself.', input: z.object({}), handler: () => ({ content: [{ type: 'text', text: 'it went wrong' }], isError: true }) })
    .tool({
      name: 'fails',
      description: 'Throws.',
      input: z.object({}),
      handler: () => {
        throw new TetherError('INVALID_ARGUMENTS', 'The target does not exist; pass an existing path.', { path: 'Assets/None' });
      },
    })
    .tool({
      name: 'steps',
      description: 'Reports progress, then answers.',
      input: z.object({}),
      annotations: { readOnlyHint: true },
      handler: async (_args, context) => {
        for (let step = 1; step <= 3; step++) context.progress({ progress: step, total: 3, message: `step ${step} of 3` });
        await new Promise((resolve) => setTimeout(resolve, 20));
        return 'done';
      },
    })
    .tool({
      name: 'block',
      description: 'Waits until cancelled.',
      input: z.object({}),
      execution: { longRunning: true, duplicates: 'allow' },
      handler: (_args, context) =>
        new Promise((_resolve, reject) => {
          context.progress({ message: 'blocking' });
          context.signal.addEventListener('abort', () => reject(new TetherError('CANCELLED', 'Block cancelled.', { started: true })));
        }),
    })
    .tool({ name: 'big', description: 'A 2 MiB text result.', input: z.object({}), annotations: { readOnlyHint: true }, handler: () => BIG_TEXT });
  return host.start().then(() => host);
}

/** One `tether mcp` fed raw lines; its stdout lines are what is compared. */
class RawMcp {
  readonly process: TetherProcess;
  constructor(workspace: Workspace, fastPath: boolean, waitMs = 300) {
    this.process = new TetherProcess(
      ['mcp', '--project', workspace.project, '--wait-ms', String(waitMs), '--log-level', 'info'],
      { ...workspace.env, TETHER_FAST_PATH: fastPath ? '1' : '0' },
      { stdin: 'pipe' },
    );
  }
  send(message: object): void {
    this.process.child.stdin!.write(`${JSON.stringify(message)}\n`);
  }
  /** Sends a request and waits for the response with its id; returns every line written since. */
  async request(message: { id: number | string }): Promise<string[]> {
    const from = this.process.lines.length;
    this.send(message);
    await this.process.waitForLine((line) => line.startsWith('{') && responseId(line) === message.id);
    return this.process.lines.slice(from);
  }
}

function responseId(line: string): unknown {
  const parsed = JSON.parse(line) as { id?: unknown; method?: unknown };
  return parsed.method === undefined ? parsed.id : undefined;
}

/** Random per call (callIds in error data) or per process; everything else must match byte for byte. */
function normalized(lines: string[]): string[] {
  return lines.map((line) =>
    line.length > 100_000 ? `sha256:${createHash('sha256').update(line).digest('hex')}` : line.replace(/[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/g, 'UUID'),
  );
}

const LEGACY_INIT = { jsonrpc: '2.0', id: 0, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'differential', version: '1.0.0' } } };
const call = (id: number, name: string, args: object | undefined, meta?: object): { id: number | string; [key: string]: unknown } => ({
  jsonrpc: '2.0',
  id,
  method: 'tools/call',
  params: { name, ...(args === undefined ? {} : { arguments: args }), ...(meta ? { _meta: meta } : {}) },
});

describe('the fast path answers tools/call with the bytes the SDK path writes', () => {
  let workspace: Workspace;
  let host: Host;
  let fast: RawMcp;
  let sdk: RawMcp;

  beforeAll(async () => {
    workspace = createWorkspace();
    mkdirSync(join(workspace.home, 'hosts'), { recursive: true });
    host = await startHost(workspace);
    fast = new RawMcp(workspace, true);
    sdk = new RawMcp(workspace, false);
    for (const mcp of [fast, sdk]) {
      await mcp.request(LEGACY_INIT);
      mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
      // The mirror has the editor's tools: from here on a catalog tool can take the fast path.
      await mcp.request({ jsonrpc: '2.0', id: 'list', method: 'tools/list' } as never);
    }
  }, 30_000);

  afterAll(async () => {
    await cleanupProcesses();
    await host?.close();
  });

  /** Sends `message` to both, in turn, and requires the same lines back. */
  async function same(message: { id: number | string }): Promise<string[]> {
    const viaFast = await fast.request(message);
    const viaSdk = await sdk.request(message);
    expect(normalized(viaFast)).toEqual(normalized(viaSdk));
    return viaFast;
  }

  it('answers a plain call on the fast path, and only with the fast path on', async () => {
    await same(call(1, 'echo', { text: 'ping' }));
    await fast.process.waitForStderrLine((line) => line.includes('fast path'));
    expect(sdk.process.stderr).not.toContain('fast path');
  });

  it.each([
    ['success', call(2, 'echo', { text: 'héllo "quoted" \\ \u2028' })],
    ['structured content', call(3, 'structured', { n: 21 })],
    ['keys out of the schema order, an image', call(4, 'unordered', {})],
    ['isError from the tool', call(5, 'own_error', {})],
    ['a tool that throws', call(6, 'fails', {})],
    ['invalid arguments', call(7, 'echo', { text: 42 })],
    ['missing arguments', call(8, 'echo', undefined)],
    ['unknown tool', call(9, 'no_such_tool', {})],
    ['progress token', call(10, 'steps', {}, { progressToken: 'p-10' })],
    ['numeric progress token and a deadline', call(11, 'steps', {}, { progressToken: 11, 'tether/deadlineMs': 60_000 })],
    ['a front tool', call(12, 'tether_status', {})],
    ['a string id', { ...call(0, 'echo', { text: 'string id' }), id: 'call-13' }],
    ['a large result (spliced)', call(14, 'big', {})],
  ])('%s', async (_kind, message) => {
    const lines = await same(message);
    expect(lines.length).toBeGreaterThan(0);
  });

  it('a cancel mid-call: no response for the cancelled id, as from the SDK', async () => {
    for (const mcp of [fast, sdk]) {
      mcp.send(call(20, 'block', {}, { progressToken: 'p-20' }));
      await mcp.process.waitForLine((line) => line.includes('"p-20"'));
      mcp.send({ jsonrpc: '2.0', method: 'notifications/cancelled', params: { requestId: 20, reason: 'changed my mind' } });
    }
    // A later call's answer shows the cancel was handled; no answer to 20 may come before or with it.
    const after = await same(call(21, 'echo', { text: 'after cancel' }));
    for (const mcp of [fast, sdk]) expect(mcp.process.lines.some((line) => line.startsWith('{') && responseId(line) === 20)).toBe(false);
    expect(after.at(-1)).toContain('after cancel');
  });

  it('the editor away: both answer with the same error result', async () => {
    await host.close();
    await same(call(30, 'echo', { text: 'nobody there' }));
  });
});

describe('a call that spans a domain reload of the editor', () => {
  it('answers the same bytes with and without the fast path, on the fast path when it is on', async () => {
    try {
      const outputs: string[][] = [];
      for (const fastPath of [true, false]) {
        // An editor each: both must live through the same reload, not one the other caused.
        const workspace = createWorkspace();
        await startSandbox(workspace);
        // Long enough a wait for the editor to come back from its reload (300 ms in the sandbox).
        const mcp = new RawMcp(workspace, fastPath, 20_000);
        await mcp.request(LEGACY_INIT);
        mcp.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
        await mcp.request({ jsonrpc: '2.0', id: 'list', method: 'tools/list' } as never);
        // Entering play mode reloads the code domain, and the answer arrives after the reload.
        const lines = await mcp.request(call(1, 'play_mode', { action: 'enter' }));
        // The editor is back: a call after the reload is answered as well.
        lines.push(...(await mcp.request(call(2, 'play_mode', { action: 'exit' }))));
        if (fastPath) await mcp.process.waitForStderrLine((line) => line.includes('fast path'));
        else expect(mcp.process.stderr).not.toContain('fast path');
        outputs.push(normalized(lines));
        await mcp.process.stop();
      }
      expect(outputs[0]).toEqual(outputs[1]);
      expect(outputs[0]!.join('\n')).toContain('domainReload');
    } finally {
      await cleanupProcesses();
    }
  }, 60_000);
});

describe('the 2026 era stays with the SDK', () => {
  it('answers the same bytes with and without the fast path', async () => {
    const workspace = createWorkspace();
    mkdirSync(join(workspace.home, 'hosts'), { recursive: true });
    const host = await startHost(workspace);
    try {
      const envelope = {
        'io.modelcontextprotocol/protocolVersion': '2026-07-28',
        'io.modelcontextprotocol/clientCapabilities': {},
        'io.modelcontextprotocol/clientInfo': { name: 'differential', version: '1.0.0' },
      };
      const outputs: string[][] = [];
      for (const fastPath of [true, false]) {
        const mcp = new RawMcp(workspace, fastPath);
        const lines = [
          ...(await mcp.request({ jsonrpc: '2.0', id: 1, method: 'server/discover', params: { _meta: envelope } } as never)),
          ...(await mcp.request({ jsonrpc: '2.0', id: 2, method: 'tools/list', params: { _meta: envelope } } as never)),
          ...(await mcp.request(call(3, 'echo', { text: 'modern' }, envelope))),
          ...(await mcp.request(call(4, 'structured', { n: 2 }, envelope))),
        ];
        outputs.push(normalized(lines));
        await mcp.process.stop();
      }
      expect(outputs[0]).toEqual(outputs[1]);
      expect(outputs[0]!.join('\n')).toContain('modern');
    } finally {
      await host.close();
      await cleanupProcesses();
    }
  }, 30_000);
});
