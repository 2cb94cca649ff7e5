/**
 * The call semantics of #4 over HTTP: progress keeps a short-timeout client alive,
 * cancelling a request cancels the host call, an idempotency key gives exactly-once across
 * sessions, and a session can be rebound to another editor with tether_use_host.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Client } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { listHostRecords } from '../../src/discovery/host-record.js';
import { connectToHost } from '../../src/link/host-client.js';
import { METHODS } from '../../src/protocol/index.js';
import { buildLog, cleanupProcesses, createWorkspace, sceneText, startSandbox, startTwoSandboxes } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, startServe, type Served } from '../helpers/serve.js';

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

const serve = startServe;

async function connect(served: Served, era: 'legacy' | '2026-07-28' = 'legacy'): Promise<Client> {
  return (await connectHttp(served, { version: era })).client;
}

describe('calls over tether serve', () => {
  it('keeps a client with a short timeout alive through a long build with progress', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '2', '--heartbeat-ms', '200']);
    const client = await connect(await serve(workspace));
    // Warm (the session's server, the editor's tools, the schema checker): the 600 ms is for progress during the call.
    await client.callTool({ name: 'get_hierarchy', arguments: {} });
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
    const { client, transport } = await connectHttp(served, { capabilities: { elicitation: { form: {} } } });
    let asked!: () => void;
    const questionArrived = new Promise<void>((resolve) => (asked = resolve));
    client.setRequestHandler('elicitation/create', () => {
      asked();
      return new Promise(() => undefined); // the human never answers
    });
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

  it("asks a client that does not listen on a GET stream on its call's own stream", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-fixtures']);
    const served = await serve(workspace);
    // As if the server offered no standalone stream: the question can only come with the call.
    const { client } = await connectHttp(served, { listening: false, answersWith: { username: 'ada', email: 'ada@example.com' } });
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
    expect((other._meta as Record<string, { code: string }>)['tether/error']!).toMatchObject({ code: 'CALL_ID_CONFLICT', data: { idempotencyKey: 'spawn-boss-once' } });
    // Said in the client's terms: the key it sent, not the callId the front made of it.
    expect((other.content as Array<{ text: string }>)[0]!.text).toContain('The idempotency key "spawn-boss-once" was already used for a different call (tool "create_gameobject")');
  });

  it('rebinds a session to another editor with tether_use_host', async () => {
    const [first, second] = await startTwoSandboxes();
    const client = await connect(await serve(first, ['--wait-ms', '1000']));
    await client.callTool({ name: 'create_gameobject', arguments: { name: 'InFirst' } });
    // Refused, and the session keeps its editor: arguments the tool does not take, a folder
    // that does not exist, and one where no editor answers.
    const refusal = async (args: Record<string, unknown>): Promise<string> => {
      const result = await client.callTool({ name: 'tether_use_host', arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      return (result.content as Array<{ text: string }>)[0]!.text;
    };
    expect(await refusal({})).toContain('"project" is required but missing');
    expect(await refusal({ project: second.project, also: 1 })).toContain('"also" is not an argument of this tool');
    expect(await refusal({ project: join(second.project, 'Asets') })).toContain('is not a folder on this machine');
    expect(await refusal({ project: join(second.project, 'Assets') })).toContain(`This session still uses ${first.project}.`);
    await client.callTool({ name: 'create_gameobject', arguments: { name: 'StillInFirst' } });
    expect(sceneText(first)).toContain('StillInFirst');
    // Every list is the other editor's afterwards: the client hears that each changed.
    const changed = new Set<string>();
    for (const list of ['tools', 'resources', 'prompts'] as const) client.setNotificationHandler(`notifications/${list}/list_changed`, () => void changed.add(list));
    const switched = await client.callTool({ name: 'tether_use_host', arguments: { project: second.project } });
    expect(switched.isError).toBeFalsy();
    expect((switched.structuredContent as { project: string }).project).toBe(second.project);
    await expect.poll(() => [...changed].sort()).toEqual(['prompts', 'resources', 'tools']);
    await client.callTool({ name: 'create_gameobject', arguments: { name: 'InSecond' } });
    expect(sceneText(first)).toContain('InFirst');
    expect(sceneText(first)).not.toContain('InSecond');
    expect(sceneText(second)).toContain('InSecond');
  });

  it('finds a task started at either editor, before or after tether_use_host, from this session and from a new one', async () => {
    const [first, second] = await startTwoSandboxes();
    const served = await serve(first, ['--wait-ms', '1000']);
    const client = await connect(served);
    const Task = z.looseObject({ taskId: z.string(), status: z.string() });
    const startTask = async (): Promise<string> =>
      (await client.request({ method: 'tools/call', params: { name: 'get_hierarchy', arguments: {}, task: { ttl: 60_000 } } }, z.object({ task: Task }).loose())).task.taskId;
    const before = await startTask();
    expect((await client.callTool({ name: 'tether_use_host', arguments: { project: second.project } })).isError).toBeFalsy();
    const after = await startTask();
    for (const taskId of [before, after]) {
      await expect.poll(async () => (await client.request({ method: 'tasks/get', params: { taskId } }, Task)).status).toBe('completed');
      const result = await client.request({ method: 'tasks/result', params: { taskId } }, z.looseObject({ content: z.array(z.unknown()) }));
      expect(result.content.length).toBeGreaterThan(0);
    }
    const listed = await client.request({ method: 'tasks/list', params: {} }, z.object({ tasks: z.array(Task) }).loose());
    expect(listed.tasks.map((task) => task.taskId).sort()).toEqual([before, after].sort());
    // A new session, bound to the first editor, follows the task at the second by its id.
    const other = await connect(served);
    expect((await other.request({ method: 'tasks/get', params: { taskId: after } }, Task)).status).toBe('completed');
  });
});
