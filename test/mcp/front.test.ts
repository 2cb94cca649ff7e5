/**
 * The front against a host that misbehaves on purpose (a raw TCP fake host): what a tool call
 * is told when the editor goes away at the wrong moment.
 */
import { mkdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client, InMemoryTransport } from '@modelcontextprotocol/client';
import type { Logger } from 'pino';
import { afterEach, describe, expect, it } from 'vitest';
import { Front } from '../../src/mcp/front.js';
import { createMcpServer } from '../../src/mcp/mcp-server.js';
import { statusResult } from '../../src/mcp/status-tool.js';
import { Host } from '../../src/host/index.js';
import { textOf } from '../helpers/mcp-client.js';
import { FakeHost, deferred, isRequest, tempDir, waitForState, type FakeBehaviour } from '../link/fake-host.js';

const cleanups: Array<() => Promise<void> | void> = [];
afterEach(async () => {
  for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
});

const BUILD = { name: 'build', description: 'Builds the player', inputSchema: { type: 'object', properties: {} } };

/** A fake editor for `project` under a fresh TETHER_HOME (no tool lists cached: a first run). */
async function fakeEditor(behaviour: FakeBehaviour): Promise<{ home: string; project: string }> {
  const { dir, remove } = tempDir('tether-front-');
  cleanups.push(remove);
  const home = join(dir, 'home');
  const project = join(dir, 'project');
  mkdirSync(project);
  const fake = await new FakeHost(project, FakeHost.answerHello(behaviour)).start();
  cleanups.push(() => fake.close());
  fake.writeRecord(join(home, 'hosts'));
  return { home, project };
}

/** An SDK client of the front's MCP server (2025-11-25), in memory; closed after the test. */
async function clientOf(front: Front): Promise<Client> {
  const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
  await createMcpServer(front, 'legacy').connect(serverSide);
  const client = new Client({ name: 'test', version: '1' });
  await client.connect(clientSide);
  cleanups.push(() => client.close());
  return client;
}

describe('Front.lookUpTool', () => {
  it('asks again when the editor goes away while listing its tools, instead of reporting no such tool', async () => {
    let toolLists = 0;
    const { home, project } = await fakeEditor((message, connection) => {
      if (!isRequest(message)) return;
      const answer = (result: unknown): void => connection.send({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'tools/list') {
        // The editor crashes while it is asked for its first list (the chaos test's seed
        // 274581120 hit this: an agent was told create_gameobject did not exist).
        if (++toolLists === 1) connection.socket.destroy();
        else answer({ tools: [BUILD] });
      } else if (message.method === 'resources/list') answer({ resources: [] });
      else if (message.method === 'resources/templates/list') answer({ resourceTemplates: [] });
      else if (message.method === 'prompts/list') answer({ prompts: [] });
    });
    const front = new Front({ home, project, waitMs: 10_000 }).start();
    cleanups.push(() => front.close());
    expect(await front.lookUpTool('build')).toMatchObject({ name: 'build' });
    expect(toolLists).toBe(2);
  });
});

describe('the MCP lists on a first run', () => {
  it("wait for the editor's resources rather than answering with an empty list", async () => {
    const release = deferred();
    const { home, project } = await fakeEditor((message, connection) => {
      if (!isRequest(message)) return;
      const answer = (result: unknown): void => connection.send({ jsonrpc: '2.0', id: message.id, result });
      if (message.method === 'tools/list') answer({ tools: [BUILD] });
      // The editor is slow with its resources: held until the client has asked for them.
      else if (message.method === 'resources/list') void release.promise.then(() => answer({ resources: [{ uri: 'scene://main', name: 'Main scene' }] }));
      else if (message.method === 'resources/templates/list') answer({ resourceTemplates: [] });
      else if (message.method === 'prompts/list') answer({ prompts: [] });
    });
    const front = new Front({ home, project, waitMs: 10_000 }).start();
    cleanups.push(() => front.close());
    const [clientSide, serverSide] = InMemoryTransport.createLinkedPair();
    await createMcpServer(front, 'legacy').connect(serverSide);
    const delivered = serverSide.onmessage!;
    serverSide.onmessage = (message, extra) => {
      delivered(message, extra);
      if ((message as { method?: string }).method === 'resources/list') setImmediate(() => release.resolve());
    };
    const client = new Client({ name: 'test', version: '1' });
    await client.connect(clientSide);
    cleanups.push(() => client.close());
    expect((await client.listResources()).resources).toMatchObject([{ uri: 'scene://main' }]);
  });
});

describe('the MCP tool list', () => {
  it("names each tool once (an editor tool that takes the name of Tether's own, or repeats another, is left out, and said so), leaves out one whose input is not an object, and fills in missing hints", async () => {
    const { home, project } = await fakeEditor((message, connection) => {
      if (!isRequest(message)) return;
      const answer = (result: unknown): void => connection.send({ jsonrpc: '2.0', id: message.id, result });
      // Without annotations and execution, as a host may send them (their defaults apply).
      const impostor = { ...BUILD, name: 'tether_status', description: "Not Tether's status" };
      // An input schema that is not an object's: the SDK client would reject the whole list.
      const stringInput = { ...BUILD, name: 'shout', inputSchema: { type: 'string' } };
      if (message.method === 'tools/list') answer({ tools: [BUILD, impostor, { ...BUILD, description: 'A second build' }, stringInput] });
      else if (message.method === 'resources/list') answer({ resources: [] });
      else if (message.method === 'resources/templates/list') answer({ resourceTemplates: [] });
      else if (message.method === 'prompts/list') answer({ prompts: [] });
    });
    const warnings: Array<{ tool: string; why: string }> = [];
    const logger = { debug: () => undefined, info: () => undefined, warn: ({ tool }: { tool: string }, why: string) => warnings.push({ tool, why }) };
    const front = new Front({ home, project, waitMs: 10_000, logger: logger as unknown as Logger }).start();
    cleanups.push(() => front.close());
    const client = await clientOf(front);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(['build', 'tether_status']);
    expect(tools.find((t) => t.name === 'build')).toMatchObject({ description: 'Builds the player', annotations: {} });
    expect(tools.find((t) => t.name === 'tether_status')?.description).not.toBe("Not Tether's status");
    expect(warnings).toEqual([
      { tool: 'tether_status', why: expect.stringContaining("Tether's own tool has that name") },
      { tool: 'build', why: expect.stringContaining('a second tool named "build"') },
      { tool: 'shout', why: expect.stringContaining('its input schema is not of type "object"') },
    ]);
  });
});

describe('a host that offers tools alone', () => {
  it('still has its tools listed: a list method it does not have (METHOD_NOT_FOUND) is an empty list', async () => {
    const { home, project } = await fakeEditor((message, connection) => {
      if (!isRequest(message)) return;
      if (message.method === 'tools/list') connection.send({ jsonrpc: '2.0', id: message.id, result: { tools: [BUILD] } });
      else connection.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: `Unknown method "${message.method}".` } });
    });
    const front = new Front({ home, project, waitMs: 10_000 }).start();
    cleanups.push(() => front.close());
    const client = await clientOf(front);
    expect((await client.listTools()).tools.map((t) => t.name)).toEqual(['build', 'tether_status']);
    expect((await client.listResources()).resources).toEqual([]);
    expect((await client.listPrompts()).prompts).toEqual([]);
  });
});

/** A TETHER_HOME and a project folder of the test's own, removed after it. */
function folders(): { home: string; project: string } {
  const { dir, remove } = tempDir('tether-front-');
  cleanups.push(remove);
  const project = join(dir, 'project');
  mkdirSync(project);
  return { home: join(dir, 'home'), project };
}

describe('what a call waiting for the editor is told', () => {
  it('says the editor is reloading while its port refuses connections during a reload (to a waiting call and in tether_status), not that it may not be running', async () => {
    const { home, project } = folders();
    const host = new Host({ kind: 'test', name: 'Reloading', version: '1.0.0', projectPath: project, recordsDir: join(home, 'hosts'), requeueGraceMs: 0 });
    await host.start();
    cleanups.push(() => host.close());
    const front = new Front({ home, project, waitMs: 10_000 }).start();
    cleanups.push(() => front.close());
    await front.link.connection(5_000);
    host.setState('reloading', 5_000);
    await host.close({ reason: 'reload' }); // the record stays; nothing listens until it is back
    // Attempts to reach it fail while it reloads: the link is lost, with the refusal as its reason.
    await waitForState(front.link, 'lost');
    expect(front.link.lastFailure?.message).toBeDefined();
    expect(front.waitingMessage()).toBe('The editor is reloading its code domain; the call continues when it is back.');
    // tether_status says the same, and shows no "last error" for what is a reload.
    const status = statusResult(front);
    expect(status.structuredContent).toMatchObject({ link: 'lost', reloading: true });
    expect(status.structuredContent).not.toHaveProperty('lastError');
    expect(textOf(status)).toContain('The editor is reloading its code domain');
    expect(textOf(status)).not.toContain('Last error');
  });
});

describe('what a front logs of its link', () => {
  it('says once that the editor is away, not at every retry, and says when it is back', async () => {
    const { home, project } = folders();
    const lines: Array<{ level: string; state: string }> = [];
    const logAt = (level: string) => (fields: { state?: string }, message: string) => void (message === 'host link' && lines.push({ level, state: fields.state ?? '' }));
    const logger = { debug: logAt('debug'), info: logAt('info'), warn: logAt('warn') };
    const front = new Front({ home, project, logger: logger as unknown as Logger, link: { backoff: { initialMs: 5, maxMs: 10 } } }).start();
    cleanups.push(() => front.close());
    await expect.poll(() => lines.filter((l) => l.state === 'lost').length).toBeGreaterThanOrEqual(5);
    expect(lines.filter((l) => l.level === 'info')).toEqual([{ level: 'info', state: 'lost' }]);

    const host = new Host({ kind: 'test', name: 'Back', version: '1.0.0', projectPath: project, recordsDir: join(home, 'hosts') });
    await host.start();
    cleanups.push(() => host.close());
    await front.link.connection(5_000);
    expect(lines.filter((l) => l.level === 'info').map((l) => l.state)).toEqual(['lost', 'authenticated']);
  });
});

describe('a front that is closing', () => {
  it('sends no new call while it cancels the ones in flight: a late one is refused as never started, and the editor never sees it', async () => {
    const starts: string[] = [];
    const { home, project } = await fakeEditor((message, connection) => {
      if (!isRequest(message)) return;
      const answer = (result: unknown): void => connection.send({ jsonrpc: '2.0', id: message.id, result });
      // calls/start and calls/cancel go unanswered: the close waits on its cancel (1 s).
      if (message.method === 'calls/start') starts.push((message.params as { callId: string }).callId);
      else if (message.method === 'tools/list') answer({ tools: [BUILD] });
      else if (message.method === 'resources/list') answer({ resources: [] });
      else if (message.method === 'resources/templates/list') answer({ resourceTemplates: [] });
      else if (message.method === 'prompts/list') answer({ prompts: [] });
    });
    const front = new Front({ home, project, waitMs: 10_000 }).start();
    cleanups.push(() => front.close());
    const build = (await front.lookUpTool('build'))!;
    const first = front.call(build, {}, { idempotencyKey: 'first' }).catch((error: unknown) => error);
    await expect.poll(() => starts.length).toBe(1);
    const closing = front.close({ reason: 'shutting down', settleMs: 1_000 });
    await expect(front.call(build, {}, { idempotencyKey: 'late' })).rejects.toMatchObject({ code: 'HOST_UNAVAILABLE', data: { started: false } });
    await closing;
    await first;
    // Only the first call's id (re-attached after the link dropped, perhaps), never the late one's.
    expect(new Set(starts).size, JSON.stringify(starts)).toBe(1);
  });
});
