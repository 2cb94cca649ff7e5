/**
 * The front as its callers see it, in process against a fake editor: what it tells whatever
 * is attached to it, and how a tools/call that asks for a task is answered (raw JSON-RPC over
 * an in-memory pair, so the test sees the answer as it goes on the wire).
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { InMemoryTransport, type JSONRPCMessage } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { Front } from '../../src/mcp/front.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import type { Message } from '../../src/protocol/index.js';
import { FakeHost, deferred, isRequest, tempDir, type FakeConnection } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const ECHO = { name: 'echo', description: 'Says what it is told', inputSchema: { type: 'object', properties: { text: { type: 'string' } } } };
const SHOUT = { ...ECHO, name: 'shout', description: 'Says it louder' };

/** What a test may do as the fake editor is asked: before it lists its tools, and as a call starts. */
interface EditorHooks {
  /** Its tools/list answer waits for this. */
  listing?(): Promise<void>;
  /** Called as a calls/start arrives, before it is answered. */
  calling?(connection: FakeConnection): void;
}

/** A fake editor with `tools()` as its tool list, whose echo answers with the text it is given. */
async function fakeEditor(tools: () => unknown[], hooks: EditorHooks = {}): Promise<{ front: Front; connection: Promise<FakeConnection> }> {
  const { dir, remove } = tempDir('tether-facade-');
  cleanups.push(remove);
  const project = join(dir, 'project');
  mkdirSync(project);
  const answer = (connection: FakeConnection, message: Message & { id: string | number }, result: unknown): void => connection.send({ jsonrpc: '2.0', id: message.id, result });
  const fake = await new FakeHost(
    project,
    FakeHost.answerHello((message, connection) => {
      if (!isRequest(message)) return;
      const params = message.params as { callId?: string; arguments?: { text?: string } } | undefined;
      if (message.method === 'tools/list') {
        const list = (): void => answer(connection, message, { tools: tools() });
        // Answered at once unless a test holds it.
        if (hooks.listing) void hooks.listing().then(list);
        else list();
      } else if (message.method === 'calls/start') {
        hooks.calling?.(connection);
        const result = { content: [{ type: 'text', text: params?.arguments?.text ?? '' }] };
        answer(connection, message, { callId: params?.callId, result, replayed: false, startedAt: Date.now(), finishedAt: Date.now() });
      } else if (message.method === 'resources/list') answer(connection, message, { resources: [] });
      else if (message.method === 'resources/templates/list') answer(connection, message, { resourceTemplates: [] });
      else if (message.method === 'prompts/list') answer(connection, message, { prompts: [] });
    }),
  ).start();
  cleanups.push(() => fake.close());
  fake.writeRecord(join(dir, 'home', 'hosts'));
  const connection = fake.nextConnection();
  const front = new Front({ home: join(dir, 'home'), project, waitMs: 10_000 });
  cleanups.push(() => front.close());
  return { front, connection };
}

/** A 2025-11-25 client session of a front's MCP server, spoken to in raw JSON-RPC. */
async function legacySession(front: Front): Promise<(method: string, params: Record<string, unknown>) => Promise<JSONRPCMessage>> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  const server = createMcpServer(front, 'legacy');
  await server.connect(serverSide);
  cleanups.push(() => server.close());
  const waiting = new Map<number, (message: JSONRPCMessage) => void>();
  clientSide.onmessage = (message) => {
    if ('id' in message && !('method' in message)) waiting.get(message.id as number)?.(message);
  };
  await clientSide.start();
  let nextId = 0;
  const ask = (method: string, params: Record<string, unknown>): Promise<JSONRPCMessage> =>
    new Promise((resolve) => {
      const id = ++nextId;
      waiting.set(id, resolve);
      void clientSide.send({ jsonrpc: '2.0', id, method, params });
    });
  await ask('initialize', { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'facade-test', version: '1' } });
  await clientSide.send({ jsonrpc: '2.0', method: 'notifications/initialized' });
  return ask;
}

describe('Front.attach', () => {
  it("tells what is attached when the editor's tools change and names its agent in status, until it is detached", async () => {
    let tools = [ECHO];
    const { front, connection } = await fakeEditor(() => tools);
    const firstList = deferred();
    let heardByDetached = 0;
    const detach = front.attach({ agent: () => ({ name: 'agent-a', version: '2' }), toolsChanged: () => void (heardByDetached++, firstList.resolve()) });
    const heard: string[][] = [];
    const changed = deferred();
    front.attach({ toolsChanged: () => void (heard.push(front.tools.map((tool) => tool.name)), heard.length === 2 && changed.resolve()) });
    front.start();
    await firstList.promise;
    expect(front.status().agents).toEqual([{ name: 'agent-a', version: '2' }]);

    detach();
    expect(front.status().agents).toEqual([]);
    tools = [ECHO, SHOUT];
    (await connection).send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
    await changed.promise;
    expect(heard).toEqual([['echo'], ['echo', 'shout']]);
    expect(heardByDetached).toBe(1);
  });
});

describe('Front.call', () => {
  it("answers a call that changed the editor's tools once the mirror has them, so that a tools/list right after it is current", async () => {
    let tools = [ECHO];
    const listAsked = deferred();
    const listAnswered = deferred();
    let changedByCall = false;
    const { front } = await fakeEditor(() => tools, {
      listing: () => (changedByCall ? (listAsked.resolve(), listAnswered.promise) : Promise.resolve()),
      calling: (connection) => {
        // As a compile does: the tools change, and the editor says so before it answers.
        tools = [ECHO, SHOUT];
        changedByCall = true;
        connection.send({ jsonrpc: '2.0', method: 'notifications/tools/list_changed' });
      },
    });
    front.start();
    await front.ready();
    let answered = false;
    const call = front.call(front.tool('echo')!, { text: 'hi' }, {}).then((outcome) => ((answered = true), outcome));
    await listAsked.promise;
    // The editor answered the call before this request, on the same connection: once this
    // answer is in, the front has read the call's, and after setImmediate every turn of
    // work that answer started has run.
    await front.request('resources/list', {});
    await new Promise((resolve) => setImmediate(resolve));
    expect(answered).toBe(false);
    listAnswered.resolve();
    expect((await call).result).toMatchObject({ content: [{ type: 'text', text: 'hi' }] });
    expect(front.tools.map((tool) => tool.name)).toEqual(['echo', 'shout']);
  });
});

describe('a tools/call that asks for a task', () => {
  it("is answered with the task itself (no tool result fields), kept in the front's store, and tasks/result gives the call's result", async () => {
    const { front } = await fakeEditor(() => [ECHO]);
    front.start();
    const ask = await legacySession(front);
    const created = (await ask('tools/call', { name: 'echo', arguments: { text: 'hello' }, task: { ttl: 60_000 } })) as { result?: Record<string, unknown> };
    expect(created.result).toMatchObject({ task: { taskId: expect.any(String), status: 'working' } });
    expect(Object.keys(created.result ?? {}).sort()).toEqual(['_meta', 'task']);
    expect(front.tasks.size).toBe(1);
    const { taskId } = created.result?.task as { taskId: string };
    const result = (await ask('tasks/result', { taskId })) as { result?: Record<string, unknown> };
    expect(result.result).toMatchObject({ content: [{ type: 'text', text: 'hello' }] });
  });

  it("is refused by the SDK's own check when it names no tool (-32602), and starts no task", async () => {
    const { front } = await fakeEditor(() => [ECHO]);
    front.start();
    const ask = await legacySession(front);
    const refused = (await ask('tools/call', { arguments: {}, task: { ttl: 60_000 } })) as { error?: { code: number; message: string } };
    expect(refused.error?.code).toBe(-32602);
    expect(front.tasks.size).toBe(0);
  });
});
