/**
 * "The first ten minutes", and a security review: `tether serve` took the token in an
 * `?access_token=` query string, so it ended up in other tools' logs and result files. It is
 * taken from the Authorization header only; a token in the URL is refused (401) and nothing
 * reaches the editor.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { cleanupProcesses, createWorkspace, executedTools, startSandbox } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, startServe } from '../helpers/serve.js';

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

const callTool = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_gameobject', arguments: { name: 'Intruder' } } });
const headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream' };

describe('tether serve and the bearer token', () => {
  it('refuses a token in the access_token query parameter, on every path, and takes it in the Authorization header', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await startServe(workspace);
    const query = `access_token=${encodeURIComponent(served.token)}`;

    const inUrl = await fetch(`${served.url}?${query}`, { method: 'POST', headers, body: callTool });
    expect(inUrl.status).toBe(401);
    expect((await inUrl.json()) as unknown).toMatchObject({ error: 'UNAUTHORIZED' });
    expect((await fetch(`${served.url.replace('/mcp', '/healthz')}?${query}`)).status).toBe(401);
    expect((await fetch(`${served.url.replace('/mcp', '/metrics')}?${query}`)).status).toBe(401);
    expect(executedTools(workspace)).toEqual([]);

    const { client } = await connectHttp(served);
    expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('create_gameobject');
  });
});
