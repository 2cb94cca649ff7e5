/**
 * What Host refuses as a tool, resource or prompt is added, each with the typed "cannot be
 * added" error (INTERNAL_ERROR naming it), rather than let a client find the mistake later:
 * names MCP clients reject or Tether keeps for its own, a missing description, hints the
 * protocol does not know, schemas that cannot be written or compiled, non-object outputs,
 * repeated resources and prompts. And what a handler throws that is not an Error.
 */
import { mkdtempSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { Host, registerRemoteTool, registerTool, type RegisteredTool } from '../../src/host/index.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS, TetherError, type ToolDescriptor } from '../../src/protocol/index.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

function newHost(): Host {
  const home = mkdtempSync(join(tmpdir(), 'tether-registration-'));
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
  cleanups.push(() => host.close());
  return host;
}

/** The error `add` throws, held to the typed "cannot be added" shape. */
function refusal(add: () => unknown, data: Record<string, unknown>): TetherError {
  try {
    add();
  } catch (error) {
    expect(error).toBeInstanceOf(TetherError);
    expect(error).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('cannot be added: '), data });
    return error as TetherError;
  }
  throw new Error('not refused');
}

const ok = { description: 'Does it', handler: () => 'ok' };

describe('tool names', () => {
  it('refuses what Claude Desktop or Codex reject (a dot, past 64 characters), and says which clients', () => {
    const host = newHost();
    for (const name of ['scene.load', 'x'.repeat(65), 'my tool!', '']) {
      const error = refusal(() => host.tool({ name, ...ok }), { tool: name });
      expect(error.message).toContain('a tool name is 1 to 64 letters, digits, "_" or "-": Claude Desktop takes no other (^[a-zA-Z0-9_-]{1,64}$), nor Codex');
    }
    host.tool({ name: 'x'.repeat(64), ...ok }).tool({ name: 'Scene-Load_2', ...ok });
    expect(host.toolDescriptors().map((t) => t.name)).toEqual(['x'.repeat(64), 'Scene-Load_2']);
  });

  it("keeps the tether_ prefix for Tether's own tools, but for the conformance kit's (tether_conformance_*)", () => {
    const host = newHost();
    for (const name of ['tether_status', 'tether_use_host', 'tether_build', 'Tether_Status', 'TETHER_CONFORMANCE_COUNT']) {
      expect(refusal(() => host.tool({ name, ...ok }), { tool: name }).message).toContain(`names starting with "tether_" are Tether's own (tether_status, tether_use_host`);
    }
    // A remote tool (the sandbox's kind) is held to the same rule.
    const remote: ToolDescriptor = {
      name: 'tether_use_host',
      description: 'Impostor',
      inputSchema: { type: 'object', properties: {} },
      annotations: {},
      execution: { longRunning: false, mainThread: true },
    };
    refusal(() => host.addTool(registerRemoteTool(remote, () => 'ok')), { tool: 'tether_use_host' });
    // protocol.md §15: a host exposes the kit when asked, under its names.
    host.tool({ name: 'tether_conformance_count', ...ok }).tool({ name: 'tether_conformance_wait', ...ok });
    expect(host.toolDescriptors().map((t) => t.name)).toEqual(['tether_conformance_count', 'tether_conformance_wait']);
  });
});

describe('tool definitions', () => {
  it('refuses a tool without a description string', () => {
    const host = newHost();
    expect(refusal(() => host.tool({ name: 'quiet', handler: () => 'ok' } as never), { tool: 'quiet' }).message).toContain('it has no description');
    refusal(() => host.tool({ name: 'counted', description: 42, handler: () => 'ok' } as never), { tool: 'counted' });
  });

  it("refuses execution and annotations the protocol's schema does not take, naming the field and the value", () => {
    const host = newHost();
    const refused = (definition: Record<string, unknown>): string => refusal(() => host.tool({ name: 'build', ...ok, ...definition } as never), { tool: 'build' }).message;
    expect(refused({ execution: { duplicates: 'Reject' } })).toContain('its execution.duplicates is "Reject", not one of "attach", "reject", "allow"');
    expect(refused({ execution: { deadlineMs: 0 } })).toContain('its execution.deadlineMs is not what the protocol takes');
    expect(refused({ execution: { longRunning: 'yes' } })).toContain('its execution.longRunning is not what the protocol takes');
    expect(refused({ annotations: { readOnlyHint: 'true' } })).toContain('its annotations.readOnlyHint is not what the protocol takes');
    expect(refused({ annotations: 'read-only' })).toContain('its annotations is not what the protocol takes');
    // Nothing was added, and a right one is.
    expect(host.toolDescriptors()).toEqual([]);
    host.tool({ name: 'build', ...ok, execution: { duplicates: 'reject', deadlineMs: 60_000 }, annotations: { readOnlyHint: false, title: 'Build' } as never });
    expect(host.toolDescriptors()[0]?.execution).toMatchObject({ duplicates: 'reject', deadlineMs: 60_000 });
  });

  it('refuses a zod schema that has no JSON Schema with the "cannot be added" error naming the tool', () => {
    const host = newHost();
    const input = refusal(() => host.tool({ name: 'schedule', ...ok, input: z.object({ when: z.date() }) }), { tool: 'schedule' });
    expect(input.message).toContain('Tool "schedule" cannot be added: its input cannot be written as JSON Schema');
    expect(input.message).toContain('z.iso.datetime()');
    refusal(() => registerTool({ name: 'total', ...ok, output: z.object({ n: z.bigint() }) }), { tool: 'total' });
  });

  it('checks a JSON Schema input or output as the tool is added, not after it ran', () => {
    const host = newHost();
    let runs = 0;
    const handler = (): Record<string, unknown> => ({ value: String(++runs) });
    const output = refusal(() => host.tool({ name: 'read_value', description: 'Reads', output: { type: 'object', properties: { value: { type: 'strin' } } }, handler }), { tool: 'read_value' });
    expect(output.message).toContain('its output schema is not valid JSON Schema 2020-12: at /properties/value/type: must be equal to one of the allowed values ("array", "boolean"');
    const input = refusal(() => host.tool({ name: 'read_value', description: 'Reads', input: { type: 'object', required: 'value' }, handler }), { tool: 'read_value' });
    expect(input.message).toContain('its input schema is not valid JSON Schema 2020-12: at /required: must be array');
    // A descriptor from elsewhere (the sandbox's worker) is checked alike.
    const remote: ToolDescriptor = {
      name: 'read_value',
      description: 'Reads',
      inputSchema: { type: 'object', properties: { key: { type: 'strng' } } },
      annotations: {},
      execution: { longRunning: false, mainThread: true },
    };
    refusal(() => registerRemoteTool(remote, handler), { tool: 'read_value' });
    refusal(() => registerRemoteTool({ ...remote, inputSchema: { type: 'object' }, outputSchema: { type: 'object', minProperties: -1 } }, handler), { tool: 'read_value' });
    expect(runs).toBe(0);
    // A valid one, $defs and all, is taken.
    host.tool({ name: 'read_value', description: 'Reads', output: { type: 'object', properties: { value: { $ref: '#/$defs/text' } }, $defs: { text: { type: 'string' } } }, handler });
  });

  it("refuses an output that is not an object's schema: structuredContent is an object, as MCP requires", () => {
    const host = newHost();
    const list = refusal(() => host.tool({ name: 'list_names', description: 'Lists', output: z.array(z.string()), handler: () => ['a', 'b'] as never }), { tool: 'list_names' });
    expect(list.message).toContain("its output must be an object's schema");
    expect(list.message).toContain('z.object({ items: z.array(…) })');
    refusal(() => host.tool({ name: 'list_names', description: 'Lists', output: { type: 'array', items: { type: 'string' } }, handler: () => ['a'] as never }), { tool: 'list_names' });
    const remote = registerRemoteTool(
      { name: 'count', description: 'Counts', inputSchema: { type: 'object' }, outputSchema: { type: 'integer' }, annotations: {}, execution: { longRunning: false, mainThread: true } },
      () => 3,
    );
    refusal(() => host.addTool(remote), { tool: 'count' });
    host.tool({ name: 'list_names', description: 'Lists', output: z.object({ items: z.array(z.string()) }), handler: () => ({ items: ['a', 'b'] }) });
  });

  it('holds a tool built by hand to the same rules', () => {
    const host = newHost();
    const tool: RegisteredTool = {
      descriptor: {
        name: 'by_hand',
        description: 'Built by hand',
        inputSchema: { type: 'object' },
        annotations: {},
        execution: { longRunning: false, mainThread: true, duplicates: 'ignore' as never },
      },
      validate: (args) => args,
      handler: () => 'ok',
    };
    expect(refusal(() => host.addTool(tool), { tool: 'by_hand' }).message).toContain('its execution.duplicates is "ignore"');
  });
});

describe('resources, templates and prompts', () => {
  it('refuses one added twice, as a tool name is, and takes it again once removed', () => {
    const host = newHost();
    const read = () => [{ uri: 'scene://current', text: 'Main' }];
    host.resource({ uri: 'scene://current', name: 'Scene', read });
    expect(refusal(() => host.resource({ uri: 'scene://current', name: 'Other scene', read }), { uri: 'scene://current' }).message).toBe(
      'Resource "scene://current" cannot be added: a resource with that URI is already added (removeResource it first to replace it).',
    );
    host.resourceTemplate({ uriTemplate: 'scene://objects/{path}', name: 'Object', read });
    refusal(() => host.resourceTemplate({ uriTemplate: 'scene://objects/{path}', name: 'Again', read }), { uriTemplate: 'scene://objects/{path}' });
    const get = () => ({ messages: [] });
    host.prompt({ name: 'tidy_level', get });
    expect(refusal(() => host.prompt({ name: 'tidy_level', description: 'Again', get }), { prompt: 'tidy_level' }).message).toContain('removePrompt it first to replace it');
    // What was there stays; replacing is removing first.
    expect(host.catalog.listResources()).toEqual([{ uri: 'scene://current', name: 'Scene' }]);
    host.removeResource('scene://current').resource({ uri: 'scene://current', name: 'Scene, again', read });
    host.removeResourceTemplate('scene://objects/{path}').resourceTemplate({ uriTemplate: 'scene://objects/{path}', name: 'Object, again', read });
    host.removePrompt('tidy_level').prompt({ name: 'tidy_level', description: 'Tidy, again', get });
    expect([host.catalog.listResources()[0]?.name, host.catalog.listTemplates()[0]?.name, host.catalog.listPrompts()[0]?.description]).toEqual(['Scene, again', 'Object, again', 'Tidy, again']);
  });

  it('refuses one without its read or get function', () => {
    const host = newHost();
    refusal(() => host.resource({ uri: 'scene://current', name: 'Scene' } as never), { uri: 'scene://current' });
    refusal(() => host.resourceTemplate({ uriTemplate: 'scene://objects/{path}', name: 'Object' } as never), { uriTemplate: 'scene://objects/{path}' });
    refusal(() => host.prompt({ name: 'tidy_level' } as never), { prompt: 'tidy_level' });
  });
});

describe('what a handler throws', () => {
  it('is told by its message when it is an object with one, else by its JSON, and never breaks the call', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-registration-'));
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
    const thrown: Record<string, unknown> = {
      locked: { message: 'level is locked' },
      coded: { code: 'E_LOCKED', level: 3 },
      bare: Object.create(null) as object,
      text: 'out of disk',
    };
    for (const [name, value] of Object.entries(thrown)) {
      host.tool({
        name,
        description: 'Throws',
        handler: () => {
          throw value;
        },
      });
    }
    await host.start();
    cleanups.push(() => host.close());
    const { rpc } = await connectToHost({ port: host.port as number, token: host.token });
    cleanups.push(() => rpc.close());
    const failure = (tool: string) => rpc.request(METHODS.callStart, { callId: `t-${tool}`, tool }, { timeoutMs: 5_000 }).catch((error: TetherError) => error);
    expect(await failure('locked')).toMatchObject({ code: 'TOOL_FAILED', message: 'Tool "locked" failed: level is locked', data: { tool: 'locked' } });
    expect(await failure('coded')).toMatchObject({ code: 'TOOL_FAILED', message: 'Tool "coded" failed: {"code":"E_LOCKED","level":3}' });
    expect(await failure('bare')).toMatchObject({ code: 'TOOL_FAILED', message: 'Tool "bare" failed: a value that cannot be shown as text' });
    expect(await failure('text')).toMatchObject({ code: 'TOOL_FAILED', message: 'Tool "text" failed: out of disk' });
  });
});
