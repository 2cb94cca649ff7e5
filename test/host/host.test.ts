import { existsSync, mkdirSync, mkdtempSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import * as zm from 'zod/mini';
import { z as z3 } from 'zod/v3';
import { RawConnection } from '../../src/conformance/raw-connection.js';
import { MAX_SUBSCRIPTIONS } from '../../src/host/host-methods.js';
import { Host, type HostOptions } from '../../src/host/index.js';
import { connectToHost, type HostSession } from '../../src/link/host-client.js';
import { METHODS, TetherError } from '../../src/protocol/index.js';
import { deferred } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

async function startHost(configure: (host: Host) => void = () => undefined, options: Partial<HostOptions> = {}): Promise<Host> {
  const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
  const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), heartbeatMs: 100, ...options });
  configure(host);
  await host.start();
  cleanups.push(() => host.close());
  return host;
}

async function connect(host: Host): Promise<HostSession> {
  const session = await connectToHost({ port: host.port as number, token: host.token });
  cleanups.push(() => session.rpc.close());
  return session;
}

describe('Host', () => {
  it('lists zod-defined tools with JSON Schema 2020-12 inputs and runs a call', async () => {
    const host = await startHost((h) =>
      h.tool({
        name: 'add',
        description: 'Adds two numbers',
        input: z.object({ a: z.number(), b: z.number() }),
        annotations: { readOnlyHint: true },
        handler: ({ a, b }) => ({ sum: a + b }),
      }),
    );
    const { rpc } = await connect(host);
    const { tools } = await rpc.request<{ tools: Array<{ name: string; inputSchema: { properties: object } }> }>(METHODS.toolsList);
    expect(tools.map((t) => t.name)).toEqual(['add']);
    expect(Object.keys(tools[0]!.inputSchema.properties)).toEqual(['a', 'b']);
    const result = await rpc.request<{ result: { structuredContent: unknown }; replayed: boolean }>(METHODS.callStart, {
      callId: 'c-1',
      tool: 'add',
      arguments: { a: 2, b: 3 },
    });
    expect(result.result.structuredContent).toEqual({ sum: 5 });
    expect(result.replayed).toBe(false);
  });

  it('takes zod/mini schemas, as zod 4 classic ones: listed as JSON Schema, arguments checked', async () => {
    const host = await startHost((h) =>
      h.tool({ name: 'add', description: 'Adds two numbers', input: zm.object({ a: zm.number(), b: zm.number() }), annotations: { readOnlyHint: true }, handler: ({ a, b }) => ({ sum: a + b }) }),
    );
    const { rpc } = await connect(host);
    const { tools } = await rpc.request<{ tools: Array<{ inputSchema: unknown }> }>(METHODS.toolsList);
    expect(tools[0]!.inputSchema).toEqual({ type: 'object', properties: { a: { type: 'number' }, b: { type: 'number' } }, required: ['a', 'b'], additionalProperties: false });
    const result = await rpc.request<{ result: { structuredContent: unknown } }>(METHODS.callStart, { callId: 'm-1', tool: 'add', arguments: { a: 2, b: 3 } });
    expect(result.result.structuredContent).toEqual({ sum: 5 });
    await expect(rpc.request(METHODS.callStart, { callId: 'm-2', tool: 'add', arguments: { a: 2, c: 3 } })).rejects.toMatchObject({ code: 'INVALID_ARGUMENTS', data: { field: 'c' } });
  });

  it('answers a tool that throws as it is called with its failure, not as a replay; its repeat is the replay', async () => {
    const host = await startHost((h) =>
      h.tool({
        name: 'broken',
        description: 'Throws before it returns anything',
        handler: () => {
          throw new Error('no scene is open');
        },
      }),
    );
    const { rpc } = await connect(host);
    const failed = await rpc.request(METHODS.callStart, { callId: 'b-1', tool: 'broken' }).catch((error: TetherError) => error);
    expect(failed).toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining('no scene is open'), data: { callId: 'b-1', replayed: false } });
    const again = await rpc.request(METHODS.callStart, { callId: 'b-1', tool: 'broken' }).catch((error: TetherError) => error);
    expect(again).toMatchObject({ code: 'TOOL_FAILED', data: { callId: 'b-1', replayed: true } });
  });

  it("refuses a result MCP clients cannot read as the tool's failure, naming what is wrong; passes content types it does not know", async () => {
    const host = await startHost((h) =>
      h.tool({ name: 'bad_image', description: 'An image without its type', handler: () => ({ content: [{ type: 'image', data: 'AAAA' }] }) as never }).tool({
        name: 'sound',
        description: 'Audio',
        handler: () =>
          ({
            content: [
              { type: 'audio', data: 'AAAA', mimeType: 'audio/wav' },
              { type: 'future_kind', x: 1 },
            ],
          }) as never,
      }),
    );
    const { rpc } = await connect(host);
    const refused = await rpc.request(METHODS.callStart, { callId: 'i-1', tool: 'bad_image' }).catch((error: TetherError) => error);
    expect(refused).toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining('content[0] (image) needs "mimeType" as a string'), data: { tool: 'bad_image' } });
    expect((refused as TetherError).message).toContain('Its effects have happened');
    const sound = await rpc.request<{ result: { content: unknown[] } }>(METHODS.callStart, { callId: 'a-1', tool: 'sound' });
    expect(sound.result.content).toHaveLength(2);
  });

  it("holds a successful result to the tool's output schema, as MCP clients do, and says the tool ran", async () => {
    const output = z.object({ count: z.int() });
    const host = await startHost((h) =>
      h
        .tool({
          name: 'count',
          description: 'Counts',
          input: z.object({ as: z.string() }),
          output,
          handler: ({ as }) => (as === 'number' ? { count: 3 } : as === 'text' ? 'three' : { count: 'three' }),
        })
        .tool({ name: 'fails', description: 'Fails its own way', output, handler: () => ({ content: [{ type: 'text', text: 'no scene open' }], isError: true }) }),
    );
    const { rpc } = await connect(host);
    const call = (callId: string, tool: string, args: Record<string, unknown> = {}) =>
      rpc.request<{ result: { structuredContent?: unknown; isError?: boolean } }>(METHODS.callStart, { callId, tool, arguments: args }).catch((error: TetherError) => error);
    expect(await call('o-1', 'count', { as: 'number' })).toMatchObject({ result: { structuredContent: { count: 3 } } });
    const mistyped = await call('o-2', 'count', { as: 'string' });
    expect(mistyped).toMatchObject({ code: 'TOOL_FAILED', data: { tool: 'count', problem: 'its structuredContent does not match its output schema: structuredContent.count must be integer' } });
    expect((mistyped as TetherError).message).toContain('Its effects have happened');
    expect(await call('o-3', 'count', { as: 'text' })).toMatchObject({ code: 'TOOL_FAILED', data: { problem: 'it declares an output schema but returned no structuredContent' } });
    // A failure of the tool's own is not held to the schema (clients do not hold it either).
    expect(await call('o-4', 'fails')).toMatchObject({ result: { isError: true } });

    // Replaced (as an editor does at each reload) with a schema of the same $id, changed: taken, and it holds.
    const named = (type: string) => ({ $id: 'https://example.com/count-output', type: 'object', properties: { count: { type } }, required: ['count'] });
    host.removeTool('count').tool({ name: 'count', description: 'Counts', output: named('integer'), handler: () => ({ count: 3 }) });
    host.removeTool('count').tool({ name: 'count', description: 'Counts in words', output: named('string'), handler: () => ({ count: 3 }) });
    expect(await call('o-5', 'count')).toMatchObject({ code: 'TOOL_FAILED', data: { problem: expect.stringContaining('structuredContent.count must be string') } });

    // Cancelled, but it ran to its end anyway and returned what its schema refuses: that it ran is what the caller hears.
    const running = deferred();
    host.tool({
      name: 'stubborn',
      description: 'Finishes whatever happens',
      output,
      handler: async (_args, ctx) => {
        running.resolve();
        await new Promise((resolve) => ctx.signal.addEventListener('abort', resolve, { once: true }));
        return { count: 'three' };
      },
    });
    const stubborn = call('o-6', 'stubborn');
    await running.promise;
    await rpc.request(METHODS.callCancel, { callId: 'o-6' });
    expect(await stubborn).toMatchObject({ code: 'TOOL_FAILED', message: expect.stringContaining('Its effects have happened') });
  });

  it('refuses, as it is added, a tool whose name is taken or not one MCP clients take, whose input is not an object, or that has no handler', () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts') });
    host.tool({ name: 'spawn', description: 'Spawns', handler: () => 'ok' });
    const refusal = (add: () => unknown): string => {
      try {
        add();
      } catch (error) {
        expect(error).toMatchObject({ code: 'INTERNAL_ERROR' });
        return (error as Error).message;
      }
      throw new Error('not refused');
    };
    expect(refusal(() => host.tool({ name: 'spawn', description: 'Again', handler: () => 'ok' }))).toContain('already added (removeTool it first to replace it)');
    expect(refusal(() => host.tool({ name: 'my tool!', description: 'Spaces', handler: () => 'ok' }))).toContain('1 to 64 letters, digits');
    expect(refusal(() => host.tool({ name: 'shout', description: 'A string', input: z.string() as never, handler: () => 'ok' }))).toContain("its input must be an object's schema");
    expect(refusal(() => host.tool({ name: 'idle', description: 'No handler' } as never))).toContain('it has no handler function');
    // zod 3 would be taken for a JSON Schema, and refused as "not an object" when it is one.
    expect(refusal(() => host.tool({ name: 'legacy', description: 'zod 3', input: z3.object({ a: z3.string() }) as never, handler: () => 'ok' }))).toContain(
      'its input is a zod 3 schema, which Tether does not read; use zod 4',
    );
    expect(refusal(() => host.tool({ name: 'legacy', description: 'zod 3', output: z3.object({ a: z3.string() }) as never, handler: () => 'ok' }))).toContain('its output is a zod 3 schema');
    // Replacing is removing first.
    host.removeTool('spawn').tool({ name: 'spawn', description: 'Spawns, again', handler: () => 'ok' });
    expect(host.toolDescriptors().map((t) => t.description)).toEqual(['Spawns, again']);
  });

  it('stops listening, and says where, when it cannot write its record; starts once', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    writeFileSync(join(home, 'file'), 'not a folder');
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'file', 'hosts') });
    const failed = await host.start().catch((error: TetherError) => error);
    expect(failed).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining(`could not write its record in ${join(home, 'file', 'hosts')}`) });
    // Nothing listens on the port it had: a connection there is refused.
    expect(host.port).toBeTypeOf('number');
    const refused = await connectToHost({ port: host.port as number, token: host.token, timeoutMs: 1_000 }).catch((error: Error) => error);
    expect(refused).toBeInstanceOf(Error);
    await expect(host.close()).resolves.toBeUndefined();
    await expect(host.start()).rejects.toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('a Host starts once') });
  });

  it('does not start without a journal it can read and write, and says what to do', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    const start = (journalPath: string): Promise<unknown> =>
      new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), journalPath }).start().catch((error: TetherError) => error);
    mkdirSync(join(home, 'folder'));
    expect(await start(join(home, 'folder'))).toMatchObject({
      code: 'INTERNAL_ERROR',
      message: expect.stringMatching(
        /could not open its journal .*folder \(.*EISDIR.*\), so it did not start: without it, a call it ran before could run again\. Give the journal a file's path, not a folder's, then start it again\./,
      ),
      data: { journalPath: join(home, 'folder') },
    });
    writeFileSync(join(home, 'file'), 'not a folder');
    expect(await start(join(home, 'file', 'journal.jsonl'))).toMatchObject({ code: 'INTERNAL_ERROR', message: expect.stringContaining('Open the editor on a project folder it can write') });
    // Nothing was advertised for either.
    expect(existsSync(join(home, 'hosts')) ? readdirSync(join(home, 'hosts')) : []).toEqual([]);
  });

  it('keeps finished read-only calls within their memory budget, oldest forgotten first, every result delivered whole', async () => {
    let runs = 0;
    const host = await startHost((h) => h.tool({ name: 'look', description: 'Reads 40 KB', annotations: { readOnlyHint: true }, handler: () => `${++runs}`.padEnd(40_000, '.') }), {
      readOnlyBudgetBytes: 100_000,
    });
    const { rpc } = await connect(host);
    type Started = { replayed: boolean; result: { content: Array<{ text: string }> } };
    for (const callId of ['r1', 'r2', 'r3']) {
      const { result } = await rpc.request<Started>(METHODS.callStart, { callId, tool: 'look' });
      expect(result.content[0]!.text).toHaveLength(40_000);
    }
    // Two results fit in 100 KB, three do not: the oldest went, the newer ones still replay.
    await expect(rpc.request(METHODS.callStatus, { callId: 'r1' })).rejects.toMatchObject({ code: 'UNKNOWN_CALL' });
    expect(await rpc.request<Started>(METHODS.callStart, { callId: 'r3', tool: 'look' })).toMatchObject({ replayed: true });
    expect(runs).toBe(3);
    // A forgotten read-only callId simply runs again.
    expect((await rpc.request<Started>(METHODS.callStart, { callId: 'r1', tool: 'look' })).replayed).toBe(false);
    expect(runs).toBe(4);
  });

  it('delivers a read-only result larger than the whole budget', async () => {
    const host = await startHost((h) => h.tool({ name: 'big', description: 'Reads 50 KB', annotations: { readOnlyHint: true }, handler: () => 'x'.repeat(50_000) }), {
      readOnlyBudgetBytes: 10_000,
    });
    const { rpc } = await connect(host);
    for (const callId of ['b1', 'b2']) {
      const { result } = await rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId, tool: 'big' });
      expect(result.content[0]!.text).toHaveLength(50_000);
    }
    await expect(rpc.request(METHODS.callStatus, { callId: 'b1' })).rejects.toMatchObject({ code: 'UNKNOWN_CALL' });
    expect(await rpc.request(METHODS.callStatus, { callId: 'b2' })).toMatchObject({ state: 'completed' });
  });

  it('runs a callId at most once and replays its stored result', async () => {
    let runs = 0;
    const host = await startHost((h) => h.tool({ name: 'bump', description: 'Counts runs', handler: () => `run ${++runs}` }));
    const { rpc } = await connect(host);
    const first = rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'same', tool: 'bump' });
    const second = rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'same', tool: 'bump' });
    const [a, b] = await Promise.all([first, second]);
    const c = await rpc.request<{ replayed: boolean; result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'same', tool: 'bump' });
    expect(runs).toBe(1);
    expect([a.result.content[0]!.text, b.result.content[0]!.text, c.result.content[0]!.text]).toEqual(['run 1', 'run 1', 'run 1']);
    expect(c.replayed).toBe(true);
  });

  // A read-only call's arguments are hashed only when a repeat needs it: the same rule holds.
  it.each([false, true])('refuses a callId reused with other arguments, and replays it for the same ones in any order (read-only: %s)', async (readOnly) => {
    const host = await startHost((h) =>
      h.tool({ name: 'echo', description: 'Echo', input: z.object({ v: z.string(), w: z.string() }), annotations: { readOnlyHint: readOnly }, handler: ({ v }) => v }),
    );
    const { rpc } = await connect(host);
    await rpc.request(METHODS.callStart, { callId: 'x', tool: 'echo', arguments: { v: 'a', w: 'b' } });
    await expect(rpc.request(METHODS.callStart, { callId: 'x', tool: 'echo', arguments: { v: 'b', w: 'b' } })).rejects.toMatchObject({ code: 'CALL_ID_CONFLICT' });
    await expect(rpc.request(METHODS.callStart, { callId: 'x', tool: 'echo', arguments: { w: 'b', v: 'a' } })).resolves.toMatchObject({ replayed: true });
    await expect(rpc.request(METHODS.callStart, { callId: 'x', tool: 'echo', arguments: { v: 'a' } })).rejects.toMatchObject({ code: 'CALL_ID_CONFLICT' });
  });

  // A read-only call's hash is put off only for a copy of flat arguments: a JSON Schema tool is
  // given the very object that came, and a zod one the nested values, and either may change them.
  it.each([
    ['flat ones, the very object given to a JSON Schema tool', { text: 'a' }, (args: Record<string, unknown>): void => void (args.text = 'changed')],
    ['nested ones', { o: { text: 'a' } }, (args: Record<string, unknown>): void => void ((args.o as Record<string, unknown>).text = 'changed')],
  ])('a read-only tool that changes its arguments does not make a retry of the call a conflict: %s', async (_, args, change) => {
    const host = await startHost((h) =>
      h.tool({
        name: 'look',
        description: 'Reads',
        input: { type: 'object', properties: { text: { type: 'string' }, o: { type: 'object' } } },
        annotations: { readOnlyHint: true },
        handler: (given) => {
          change(given as Record<string, unknown>);
          return 'seen';
        },
      }),
    );
    const { rpc } = await connect(host);
    await rpc.request(METHODS.callStart, { callId: 'r', tool: 'look', arguments: args });
    await expect(rpc.request(METHODS.callStart, { callId: 'r', tool: 'look', arguments: args })).resolves.toMatchObject({ replayed: true });
  });

  it('names the invalid field and suggests close tool names; input too long or too deep to read is refused as such', async () => {
    const host = await startHost((h) => h.tool({ name: 'get_hierarchy', description: 'Tree', input: z.object({ depth: z.number().int() }), handler: () => 'ok' }));
    const { rpc } = await connect(host);
    const invalid = await rpc.request(METHODS.callStart, { callId: 'a', tool: 'get_hierarchy', arguments: { depth: 'deep' } }).catch((e: TetherError) => e);
    expect(invalid).toMatchObject({ code: 'INVALID_ARGUMENTS', data: { field: 'depth' } });
    const unknown = await rpc.request(METHODS.callStart, { callId: 'b', tool: 'get_hierarchie' }).catch((e: TetherError) => e);
    expect(unknown).toMatchObject({ code: 'UNKNOWN_TOOL', data: { suggestions: ['get_hierarchy'] } });

    // A name a megabyte long is compared with nothing (that would hold the process), and echoed clipped.
    const long = 'get_hierarchy'.padEnd(1_000_000, 'x');
    const huge = (await rpc.request(METHODS.callStart, { callId: 'c', tool: long }).catch((e: TetherError) => e)) as TetherError;
    expect(huge).toMatchObject({ code: 'UNKNOWN_TOOL', data: { suggestions: [], tool: expect.stringContaining('… (1000000 characters)') } });
    expect(JSON.stringify(huge.toWire()).length).toBeLessThan(1_000);
    // Arguments nested too deeply to walk (written by hand: JSON.stringify cannot) are the caller's to fix, not an internal
    // error; the host measures the depth before it parses (protocol.md §3.4) and answers under the request's id.
    const raw = await RawConnection.open(host.port as number);
    cleanups.push(() => raw.close());
    expect(await raw.hello({ token: host.token })).toHaveProperty('result');
    const nested = `${'{"a":'.repeat(20_000)}{}${'}'.repeat(20_000)}`;
    const body = `{"jsonrpc":"2.0","id":"deep","method":"${METHODS.callStart}","params":{"callId":"d","tool":"get_hierarchy","arguments":{"depth":1,"nested":${nested}}}}`;
    await raw.write(`Content-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
    const deep = await raw.response('deep', 'the answer to arguments 20,000 levels deep');
    expect(deep).toMatchObject({ error: { data: { code: 'INVALID_REQUEST', maxDepth: 64 }, message: expect.stringContaining('nests deeper than 64 levels') } });
    const method = (await rpc.request(long).catch((e: TetherError) => e)) as TetherError;
    expect(method.code).toBe('METHOD_NOT_FOUND');
    expect(JSON.stringify(method.toWire()).length).toBeLessThan(1_000);
  });

  it('refuses an argument the tool does not name, suggesting the closest, unless its schema lets extra keys through', async () => {
    const ran: unknown[] = [];
    const host = await startHost((h) => {
      h.tool({ name: 'move', description: 'Moves', input: z.object({ path: z.string(), position: z.array(z.number()) }), handler: (args) => void ran.push(args) });
      h.tool({ name: 'loose', description: 'Takes anything more', input: z.looseObject({ path: z.string() }), handler: (args) => void ran.push(args) });
    });
    const { rpc } = await connect(host);
    const { tools } = await rpc.request<{ tools: Array<{ name: string; inputSchema: Record<string, unknown> }> }>(METHODS.toolsList);
    expect(tools.find((t) => t.name === 'move')?.inputSchema).toMatchObject({ additionalProperties: false });
    expect(tools.find((t) => t.name === 'loose')?.inputSchema).not.toHaveProperty('additionalProperties', false);
    const misspelled = await rpc.request(METHODS.callStart, { callId: 'a', tool: 'move', arguments: { path: '/B', postion: [1, 2, 3] } }).catch((e: TetherError) => e);
    expect(misspelled).toMatchObject({ code: 'INVALID_ARGUMENTS', data: { field: 'postion', suggestions: ['position'] } });
    expect((misspelled as TetherError).message).toContain('"postion" is not an argument of this tool (did you mean "position"?)');
    await rpc.request(METHODS.callStart, { callId: 'b', tool: 'loose', arguments: { path: '/B', extra: true } });
    expect(ran).toEqual([{ path: '/B', extra: true }]);
  });

  it('cancels a queued call so it never runs, and signals a running one', async () => {
    const ran: string[] = [];
    const host = await startHost((h) =>
      h.tool({
        name: 'wait',
        description: 'Waits until cancelled',
        input: z.object({ tag: z.string() }),
        handler: ({ tag }, ctx) =>
          new Promise((resolve, reject) => {
            ran.push(tag);
            ctx.signal.addEventListener('abort', () => reject(ctx.signal.reason));
            void resolve;
          }),
      }),
    );
    const { rpc } = await connect(host);
    const running = rpc.request(METHODS.callStart, { callId: 'r', tool: 'wait', arguments: { tag: 'r' } }).catch((e: TetherError) => e);
    const queued = rpc.request(METHODS.callStart, { callId: 'q', tool: 'wait', arguments: { tag: 'q' } }).catch((e: TetherError) => e);
    await expect.poll(() => ran).toEqual(['r']);
    expect(await rpc.request(METHODS.callStatus, { callId: 'q' })).toMatchObject({ state: 'queued', position: 0 });
    expect(await rpc.request(METHODS.callCancel, { callId: 'q' })).toMatchObject({ state: 'cancelled' });
    expect(await queued).toMatchObject({ code: 'CANCELLED', data: { started: false } });
    await rpc.request(METHODS.callCancel, { callId: 'r' });
    expect(await running).toMatchObject({ code: 'CANCELLED', data: { started: true } });
    expect(ran).toEqual(['r']);
  });

  it('shows a tool that first looks at its signal after a cancel that the call was cancelled', async () => {
    const running = deferred();
    const gate = deferred();
    const host = await startHost((h) =>
      h.tool({
        name: 'late_look',
        description: 'Looks at its signal only when told to',
        handler: async (_args, ctx) => {
          running.resolve();
          await gate.promise;
          if (ctx.signal.aborted) throw ctx.signal.reason;
          return 'not cancelled';
        },
      }),
    );
    const { rpc } = await connect(host);
    const call = rpc.request(METHODS.callStart, { callId: 'l', tool: 'late_look' }).catch((e: TetherError) => e);
    await running.promise;
    await rpc.request(METHODS.callCancel, { callId: 'l' });
    gate.resolve();
    expect(await call).toMatchObject({ code: 'CANCELLED', data: { started: true } });
  });

  it('lets a client abandon its calls/start without cancelling the call, which runs on and replays its result', async () => {
    const running = deferred();
    const gate = deferred();
    const runs: string[] = [];
    const host = await startHost((h) =>
      h.tool({
        name: 'long',
        description: 'Runs until told to finish, unless cancelled',
        execution: { longRunning: true },
        handler: async (_args, ctx) => {
          runs.push(ctx.callId);
          running.resolve();
          await gate.promise;
          if (ctx.signal.aborted) throw ctx.signal.reason;
          return 'done';
        },
      }),
    );
    const { rpc } = await connect(host);
    const heartbeats: string[] = [];
    const twoForTwin = deferred();
    rpc.onNotification(METHODS.callProgress, (params) => {
      const { callId } = params as { callId: string };
      heartbeats.push(callId);
      if (heartbeats.filter((id) => id === 'twin').length === 2) twoForTwin.resolve();
    });
    const controller = new AbortController();
    const abandoned = rpc.request(METHODS.callStart, { callId: 'a', tool: 'long' }, { signal: controller.signal }).catch((e: TetherError) => e);
    await running.promise;
    // The client stops waiting (notifications/cancelled for its request): not calls/cancel.
    controller.abort();
    expect(await abandoned).toMatchObject({ code: 'CANCELLED' });
    // Sent after the abandonment on the same connection, so the host has handled it by then.
    expect(await rpc.request(METHODS.callStatus, { callId: 'a' })).toMatchObject({ state: 'running' });
    // The host stopped telling this connection about "a": an identical call on it attaches to
    // the same execution, and while that one hears two heartbeats (100 ms apart), "a" hears none.
    heartbeats.length = 0;
    const twin = rpc.request<{ attachedTo?: string }>(METHODS.callStart, { callId: 'twin', tool: 'long' });
    await twoForTwin.promise;
    expect(heartbeats.filter((id) => id === 'a')).toEqual([]);
    gate.resolve();
    const again = await rpc.request<{ result: { content: Array<{ text: string }> }; replayed: boolean }>(METHODS.callStart, { callId: 'a', tool: 'long' });
    expect(again.result.content[0]!.text).toBe('done');
    expect(await twin).toMatchObject({ attachedTo: 'a' });
    expect(runs).toEqual(['a']);
  });

  it('takes a deadline longer than a timer can wait (24.8 days) as 24.8 days, not as an instant', async () => {
    const host = await startHost((h) =>
      h.tool({
        name: 'brief',
        description: 'Works for 50 ms',
        handler: async (_args, ctx) => {
          await new Promise((resolve, reject) => {
            const timer = setTimeout(resolve, 50);
            ctx.signal.addEventListener('abort', () => (clearTimeout(timer), reject(ctx.signal.reason)), { once: true });
          });
          return 'done';
        },
      }),
    );
    const { rpc } = await connect(host);
    const result = await rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'long-1', tool: 'brief', deadlineMs: 2 ** 31 });
    expect(result.result.content[0]!.text).toBe('done');
  });

  it('tells subscribers of a resource that it changed, and bounds how many resources one connection follows', async () => {
    const host = await startHost((h) => h.resource({ uri: 'scene://current', name: 'Scene', read: () => [{ uri: 'scene://current', text: 'SampleScene' }] }));
    const { rpc } = await connect(host);
    const updated: string[] = [];
    rpc.onNotification(METHODS.resourceUpdated, (params) => void updated.push((params as { uri: string }).uri));
    await rpc.request(METHODS.resourcesSubscribe, { uri: 'scene://current' });
    host.resourceUpdated('scene://current');
    await expect.poll(() => updated).toEqual(['scene://current']);

    for (let i = 1; i < MAX_SUBSCRIPTIONS; i++) await rpc.request(METHODS.resourcesSubscribe, { uri: `asset://${i}` });
    await expect(rpc.request(METHODS.resourcesSubscribe, { uri: 'asset://one-too-many' })).rejects.toMatchObject({
      code: 'INVALID_PARAMS',
      message: expect.stringContaining('unsubscribe from some first'),
      data: { limit: MAX_SUBSCRIPTIONS },
    });
    await rpc.request(METHODS.resourcesSubscribe, { uri: 'scene://current' }); // followed already: no more room needed
    await rpc.request(METHODS.resourcesUnsubscribe, { uri: 'asset://1' });
    await expect(rpc.request(METHODS.resourcesSubscribe, { uri: 'asset://one-too-many' })).resolves.toEqual({});
  });

  it('sends heartbeats while a call is silent', async () => {
    const host = await startHost((h) => h.tool({ name: 'slow', description: 'Slow', handler: () => new Promise((resolve) => setTimeout(() => resolve('done'), 450)) }));
    const beats: unknown[] = [];
    const session = await connectToHost({
      port: host.port as number,
      token: host.token,
      prepare: (rpc) => rpc.onNotification(METHODS.callProgress, (p) => beats.push(p)),
    });
    cleanups.push(() => session.rpc.close());
    await session.rpc.request(METHODS.callStart, { callId: 's', tool: 'slow' });
    expect(beats.filter((b) => (b as { heartbeat: boolean }).heartbeat).length).toBeGreaterThanOrEqual(3);
  });

  it('tells a call queued behind another so at once, not at the first heartbeat', async () => {
    let finish!: () => void;
    const host = await startHost(
      (h) => h.tool({ name: 'hold', description: 'Runs until released', input: z.object({ tag: z.string() }), handler: () => new Promise<string>((resolve) => (finish = () => resolve('done'))) }),
      { heartbeatMs: 60_000 },
    );
    const notices: Array<{ callId: string; state: string; heartbeat: boolean }> = [];
    const queuedNotice = deferred();
    const session = await connectToHost({
      port: host.port as number,
      token: host.token,
      prepare: (rpc) =>
        rpc.onNotification(METHODS.callProgress, (p) => {
          notices.push(p as (typeof notices)[number]);
          queuedNotice.resolve();
        }),
    });
    cleanups.push(() => session.rpc.close());
    const first = session.rpc.request(METHODS.callStart, { callId: 'first', tool: 'hold', arguments: { tag: 'a' } });
    const second = session.rpc.request(METHODS.callStart, { callId: 'second', tool: 'hold', arguments: { tag: 'b' } });
    await queuedNotice.promise;
    expect(notices).toEqual([expect.objectContaining({ callId: 'second', state: 'queued', heartbeat: false })]);
    finish();
    await first;
    finish();
    await second;
  });

  it('refuses a wrong token with a typed error and closes', async () => {
    const host = await startHost();
    await expect(connectToHost({ port: host.port as number, token: 'nope' })).rejects.toMatchObject({ code: 'UNAUTHORIZED' });
    await expect(connectToHost({ port: host.port as number, token: host.token, protocolVersion: 99 })).rejects.toMatchObject({
      code: 'UNSUPPORTED_VERSION',
      data: { supported: [1] },
    });
  });
});

describe('frame limits', () => {
  it("sends a result as large as the client announced it reads, beyond the host's own read limit", async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-host-'));
    const host = new Host({ kind: 'test', name: 'Test', version: '1.0.0', projectPath: home, recordsDir: join(home, 'hosts'), limits: { maxFrameBytes: 10_000 } });
    host.tool({ name: 'big', description: 'A large result', annotations: { readOnlyHint: true }, handler: () => 'x'.repeat(100_000) });
    await host.start();
    cleanups.push(() => host.close());

    // A client that reads 1 MiB says so in its hello, and gets the 100 KB result.
    const roomy = await connectToHost({ port: host.port as number, token: host.token, limits: { maxFrameBytes: 1024 * 1024 } });
    cleanups.push(() => roomy.rpc.close());
    const result = await roomy.rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'big-1', tool: 'big' });
    expect(result.result.content[0]!.text).toHaveLength(100_000);

    // One that reads only 64 KiB gets a typed refusal in place of the result, and the connection serves on.
    const narrow = await connectToHost({ port: host.port as number, token: host.token, limits: { maxFrameBytes: 65_536 } });
    cleanups.push(() => narrow.rpc.close());
    await expect(narrow.rpc.request(METHODS.callStart, { callId: 'big-2', tool: 'big' })).rejects.toMatchObject({ code: 'FRAME_TOO_LARGE', data: { maxFrameBytes: 65_536 } });
    await expect(narrow.rpc.request(METHODS.ping)).resolves.toEqual({});
  });

  it('drops, for a client, a notification larger than it reads: the call and the host carry on', async () => {
    const attached = deferred();
    const host = await startHost((h) =>
      h.tool({
        name: 'chatty',
        description: 'Reports at length',
        handler: async (_args, ctx) => {
          await attached.promise;
          ctx.progress({ message: 'P'.repeat(100_000) });
          ctx.log('info', 'L'.repeat(100_000));
          return 'done';
        },
      }),
    );
    const narrow = await connectToHost({ port: host.port as number, token: host.token, limits: { maxFrameBytes: 65_536 } });
    const roomy = await connectToHost({ port: host.port as number, token: host.token, limits: { maxFrameBytes: 1024 * 1024 } });
    cleanups.push(
      () => roomy.rpc.close(),
      () => narrow.rpc.close(),
    );
    const heard: number[] = [];
    roomy.rpc.onNotification(METHODS.callProgress, (params) => void heard.push((params as { message?: string }).message?.length ?? 0));
    const first = narrow.rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'chat-1', tool: 'chatty' });
    const second = roomy.rpc.request<{ result: { content: Array<{ text: string }> } }>(METHODS.callStart, { callId: 'chat-1', tool: 'chatty' });
    await expect.poll(() => host.calls.status('chat-1').state).toBe('running');
    await roomy.rpc.request(METHODS.ping); // its attach has been handled: both hear the call now
    attached.resolve();
    expect((await first).result.content[0]!.text).toBe('done');
    expect((await second).result.content[0]!.text).toBe('done');
    expect(heard).toContain(100_000);
    await expect(narrow.rpc.request(METHODS.ping)).resolves.toEqual({});
  });
});

describe('journal durability', () => {
  it('writes side-effecting calls to the journal file, and keeps read-only ones in memory only', async () => {
    const home = mkdtempSync(join(tmpdir(), 'tether-journal-'));
    const journalPath = join(home, 'journal.jsonl');
    const host = new Host({ kind: 'test', name: 'T', version: '1', projectPath: home, recordsDir: join(home, 'hosts'), journalPath });
    host.tool({ name: 'look', description: 'reads', annotations: { readOnlyHint: true }, handler: () => 'seen' });
    host.tool({ name: 'touch', description: 'writes', handler: () => 'done' });
    await host.start();
    cleanups.push(() => host.close());
    const { rpc } = await connect(host);
    await rpc.request(METHODS.callStart, { callId: 'r1', tool: 'look' });
    await rpc.request(METHODS.callStart, { callId: 'w1', tool: 'touch' });
    const lines = readFileSync(journalPath, 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((l) => JSON.parse(l) as { callId: string; state: string });
    expect(lines.map((l) => `${l.callId}:${l.state}`)).toEqual(['w1:queued', 'w1:running', 'w1:completed']);
    // The read-only call is still replayed by callId while the host lives.
    expect(await rpc.request(METHODS.callStart, { callId: 'r1', tool: 'look' })).toMatchObject({ replayed: true });
  });
});

describe('refusals', () => {
  it('processes nothing a refused connection sent after the refused frame, even in the same write', async () => {
    let runs = 0;
    const host = await startHost((h) => h.tool({ name: 'touch', description: 'writes', handler: () => `run ${++runs}` }));
    const { openSocket } = await import('../../src/link/host-client.js');
    const { encodeFrame, frameBytes, FrameDecoder } = await import('../../src/protocol/index.js');
    const socket = await openSocket(host.port!);
    cleanups.push(() => void socket.destroy());
    const frames = [
      { jsonrpc: '2.0' as const, id: 1, method: 'tools/list' },
      { jsonrpc: '2.0' as const, id: 2, method: 'tether/hello', params: { token: host.token, protocolVersion: 1, client: { name: 'sneaky' } } },
      { jsonrpc: '2.0' as const, id: 3, method: 'calls/start', params: { callId: 'x', tool: 'touch' } },
    ].map((m) => frameBytes(encodeFrame(m, 1 << 20)));
    socket.write(Buffer.concat(frames));
    const decoder = new FrameDecoder({ maxFrameBytes: 1 << 20, maxHeaderBytes: 8192 });
    const replies: Array<{ id: number; error?: { data: { code: string } } }> = [];
    socket.on('data', (chunk: Buffer) => replies.push(...decoder.push(chunk).map((b) => JSON.parse(Buffer.from(b).toString()) as never)));
    await new Promise((resolve) => socket.once('close', resolve));
    expect(replies).toEqual([
      expect.objectContaining({
        id: 1,
        error: expect.objectContaining({ message: expect.stringContaining("with a proof of the token in the host's record"), data: expect.objectContaining({ code: 'HANDSHAKE_REQUIRED' }) }),
      }),
    ]);
    expect(runs).toBe(0);
  });
});

describe('execution hints', () => {
  it('runs a tool that does not need the main thread while the main thread is busy', async () => {
    let release!: () => void;
    const host = await startHost((h) => {
      h.tool({ name: 'block', description: 'holds the main thread', handler: () => new Promise<string>((resolve) => (release = () => resolve('released'))) });
      h.tool({ name: 'status', description: 'off the main thread', annotations: { readOnlyHint: true }, execution: { mainThread: false }, handler: () => 'fine' });
      h.tool({ name: 'queued', description: 'needs the main thread', annotations: { readOnlyHint: true }, handler: () => 'late' });
    });
    const { rpc } = await connect(host);
    const blocking = rpc.request(METHODS.callStart, { callId: 'b', tool: 'block' });
    await expect.poll(async () => (await rpc.request<{ state: string }>(METHODS.callStatus, { callId: 'b' })).state).toBe('running');
    const waiting = rpc.request(METHODS.callStart, { callId: 'q', tool: 'queued' });
    expect(await rpc.request(METHODS.callStart, { callId: 's', tool: 'status' })).toMatchObject({ result: { content: [{ text: 'fine' }] } });
    expect(await rpc.request(METHODS.callStatus, { callId: 'q' })).toMatchObject({ state: 'queued' });
    release();
    await Promise.all([blocking, waiting]);
  });

  // The client hears over the wire, before the bye, that a call still queued when the host
  // closed for good never ran: its answer used to be dropped by the close that followed at once,
  // and the client, its connection gone, could say only that the outcome was unknown.
  it.each(['quit', 'shutdown'] as const)('on %s, answers a queued call CANCELLED (started: false) before its bye', async (reason) => {
    const held = deferred<void>();
    const host = await startHost((h) => h.tool({ name: 'hold', description: 'Holds the main thread', input: z.object({ tag: z.string() }), handler: () => held.promise.then(() => 'done') }));
    const session = await connect(host);
    const running = session.rpc.request(METHODS.callStart, { callId: 'first', tool: 'hold', arguments: { tag: 'a' } }).catch((error: unknown) => error);
    const queued = session.rpc.request(METHODS.callStart, { callId: 'second', tool: 'hold', arguments: { tag: 'b' } }).catch((error: unknown) => error);
    await expect.poll(() => host.calls.status('second').state).toBe('queued');
    const closing = host.close({ reason });
    expect(await queued).toMatchObject({ code: 'CANCELLED', data: { callId: 'second', started: false } });
    held.resolve();
    await closing;
    await running;
  });
});
