/**
 * The call semantics of #4 over HTTP: progress keeps a short-timeout client alive,
 * cancelling a request cancels the host call, an idempotency key gives exactly-once across
 * sessions, and a session can be rebound to another editor with tether_use_host.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { listHostRecords } from '../../src/discovery/host-record.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS } from '../../src/protocol/index.js';
import { TetherProcess, cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

const clients: Client[] = [];
afterEach(async () => {
  await Promise.all(clients.splice(0).map((c) => c.close().catch(() => undefined)));
  await cleanupProcesses();
});

async function serve(workspace: Workspace): Promise<{ url: string; token: string }> {
  const server = new TetherProcess(['serve', '--port', '0', '--project', workspace.project], workspace.env);
  const { url } = JSON.parse(await server.waitForLine((l) => l.includes('"event":"listening"'))) as { url: string };
  const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
  return { url, token };
}

async function connect(served: { url: string; token: string }, era: 'legacy' | '2026-07-28' = 'legacy'): Promise<Client> {
  const client = new Client({ name: 'http-calls', version: '1' }, era === 'legacy' ? {} : { versionNegotiation: { mode: { pin: era } } });
  client.onerror = () => undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } } }));
  clients.push(client);
  return client;
}

function buildLog(workspace: Workspace): Array<{ status: string }> {
  try {
    return readFileSync(join(workspace.project, 'Library', 'Builds', 'build-log.jsonl'), 'utf8').split('\n').filter(Boolean).map((l) => JSON.parse(l) as { status: string });
  } catch {
    return [];
  }
}

describe('calls over tether serve', () => {
  it('keeps a client with a short timeout alive through a long build with progress', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '2', '--heartbeat-ms', '200']);
    const client = await connect(await serve(workspace));
    const result = await client.callTool({ name: 'build_player', arguments: {} }, { timeout: 600, resetTimeoutOnProgress: true, onprogress: () => undefined });
    expect(result.isError).toBeFalsy();
    expect(buildLog(workspace)).toEqual([expect.objectContaining({ status: 'succeeded' })]);
  });

  it.each([
    ['cancelling its request (2025-11-25)', 'legacy'],
    ['closing its response stream (2026-07-28)', '2026-07-28'],
  ] as const)('cancels the host call when a client stops waiting by %s', async (_how, era) => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '20']);
    const client = await connect(await serve(workspace), era);
    const abort = new AbortController();
    let started!: () => void;
    const progressed = new Promise<void>((resolve) => (started = resolve));
    const call = client.callTool({ name: 'build_player', arguments: {} }, { signal: abort.signal, onprogress: () => started() }).catch((e: Error) => e);
    await progressed;
    abort.abort(new Error('changed my mind'));
    await call;
    await expect.poll(() => buildLog(workspace), { timeout: 5_000 }).toEqual([expect.objectContaining({ status: 'cancelled' })]);
  });

  it('ends a pending question with its session: cancelled or declined, never a made-up answer', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-fixtures']);
    const served = await serve(workspace);
    const client = new Client({ name: 'silent', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.onerror = () => undefined;
    let asked!: () => void;
    const questionArrived = new Promise<void>((resolve) => (asked = resolve));
    client.setRequestHandler('elicitation/create', () => {
      asked();
      return new Promise(() => undefined); // the human never answers
    });
    const transport = new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } } });
    await client.connect(transport);
    clients.push(client);
    void client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } }).catch(() => undefined);
    await questionArrived;
    await transport.terminateSession(); // DELETE: the session ends with the question open
    // What the editor's tool got, from the host itself (read-only calls are not journaled on disk).
    const executed = () =>
      readFileSync(join(workspace.project, 'Library', 'Tether', 'executions.jsonl'), 'utf8')
        .split('\n')
        .filter(Boolean)
        .map((l) => JSON.parse(l) as { tool: string; callId: string })
        .find((e) => e.tool === 'test_elicitation')!;
    const [record] = listHostRecords(join(workspace.home, 'hosts'));
    const host = await connectToHost({ port: record!.port, token: record!.token });
    const status = () => host.rpc.request<{ state: string; result?: { content: Array<{ text: string }> } }>(METHODS.callStatus, { callId: executed().callId });
    // The session's end cancels its call; if the tool still got an answer first, it is a decline.
    await expect.poll(async () => (await status()).state, { timeout: 5_000 }).toMatch(/^(cancelled|completed)$/);
    const entry = await status();
    host.rpc.close();
    if (entry.state === 'completed') expect(entry.result!.content[0]!.text).toBe('User response: action=decline, content={}');
  });

  it('asks a client that does not listen on a GET stream on its call\'s own stream', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-fixtures']);
    const served = await serve(workspace);
    const client = new Client({ name: 'no-listener', version: '1' }, { capabilities: { elicitation: { form: {} } } });
    client.onerror = () => undefined;
    client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: { username: 'ada', email: 'ada@example.com' } }));
    // As if the server offered no standalone stream: the question can only come with the call.
    const noGet = (input: string | URL | Request, init?: RequestInit): Promise<Response> => (init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init));
    await client.connect(new StreamableHTTPClientTransport(new URL(served.url), { fetch: noGet, requestInit: { headers: { Authorization: `Bearer ${served.token}` } } }));
    clients.push(client);
    const result = await client.callTool({ name: 'test_elicitation', arguments: { message: 'Who are you?' } }, { timeout: 10_000 });
    expect((result.content as Array<{ text: string }>)[0]!.text).toBe('User response: action=accept, content={"username":"ada","email":"ada@example.com"}');
  });

  it('runs a keyed operation once across sessions and refuses the key with other arguments', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await serve(workspace);
    const [a, b] = await Promise.all([connect(served), connect(served)]);
    const meta = { 'tether/idempotencyKey': 'spawn-boss-once' };
    const first = await a.callTool({ name: 'create_gameobject', arguments: { name: 'Boss' }, _meta: meta });
    const again = await b.callTool({ name: 'create_gameobject', arguments: { name: 'Boss' }, _meta: meta });
    expect(again.structuredContent).toEqual(first.structuredContent);
    const found = await a.callTool({ name: 'find_gameobjects', arguments: { name: 'Boss' } });
    expect((found.structuredContent as { count: number }).count).toBe(1);
    const other = await b.callTool({ name: 'create_gameobject', arguments: { name: 'Other' }, _meta: meta });
    expect(other.isError).toBe(true);
    expect((other._meta as Record<string, { code: string }>)['tether/error']!.code).toBe('CALL_ID_CONFLICT');
  });

  it('rebinds a session to another editor with tether_use_host', async () => {
    const first = createWorkspace();
    const second = createWorkspace();
    second.env.TETHER_HOME = first.home; // one user, two editors
    await startSandbox(first);
    await startSandbox(second);
    const client = await connect(await serve(first));
    await client.callTool({ name: 'create_gameobject', arguments: { name: 'InFirst' } });
    const switched = await client.callTool({ name: 'tether_use_host', arguments: { project: second.project } });
    expect(switched.isError).toBeFalsy();
    expect((switched.structuredContent as { project: string }).project).toBe(second.project);
    await client.callTool({ name: 'create_gameobject', arguments: { name: 'InSecond' } });
    const scene = (w: Workspace) => readFileSync(join(w.project, 'Assets', 'Scenes', 'SampleScene.json'), 'utf8');
    expect(scene(first)).toContain('InFirst');
    expect(scene(first)).not.toContain('InSecond');
    expect(scene(second)).toContain('InSecond');
  });
});
