/**
 * Tether itself on Node 22 (the product supports Node >= 20; the tests run on 20): the sandbox
 * editor, `tether serve` and `tether mcp`, each started through bin/tether.js (the bundle and
 * its code cache) by the Node 22 binary, and driven by real clients.
 *
 * On Node 22, `tether serve` once answered initialize with its head and an empty event stream:
 * a response corked while its stream ended in the same turn lost its body (web-adapter.ts).
 */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { SandboxProcess, TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, type Workspace } from '../helpers/processes.js';

const skipped = NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`;
const clients: Client[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close().catch(() => undefined)));
  await cleanupProcesses();
});

/** The sandbox editor on Node 22, with the fast durations of startSandbox. */
async function startSandbox22(workspace: Workspace): Promise<void> {
  const sandbox = new SandboxProcess(['sandbox', '--project', workspace.project, '--build-seconds', '2', '--reload-ms', '300', '--compile-ms', '100', '--test-ms', '50'], workspace.env, {
    node: NODE22!,
  });
  await sandbox.ready();
}

/** Lists the tools and calls one: what an agent does first. A hang fails within seconds, not at the test's timeout. */
async function listAndCall(client: Client): Promise<void> {
  const { tools } = await client.listTools(undefined, { timeout: 10_000 });
  expect(tools.map((tool) => tool.name)).toContain('get_hierarchy');
  const result = await client.callTool({ name: 'get_hierarchy', arguments: {} }, { timeout: 10_000 });
  expect(result.isError, JSON.stringify(result)).toBeFalsy();
}

describe('Tether on Node 22', () => {
  it.skipIf(!NODE22)(`tether serve answers initialize and tools/list with their bodies${skipped}`, async () => {
    const workspace = createWorkspace();
    await startSandbox22(workspace);
    const server = new TetherProcess(['serve', '--port', '0', '--project', workspace.project], workspace.env, { node: NODE22! });
    const { url } = JSON.parse(await server.waitForLine((l) => l.includes('"event":"listening"'))) as { url: string };
    const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };

    // Raw first: the answer is an event stream that ends, so its whole text is the proof.
    const answer = await fetch(url, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } }),
      signal: AbortSignal.timeout(10_000),
    });
    expect(answer.status).toBe(200);
    expect(answer.headers.get('content-type')).toMatch(/^text\/event-stream/);
    const text = await answer.text();
    expect(text).toMatch(/^event: message$/m);
    expect(text).toContain('"serverInfo":{"name":"tether"');

    // Then the official client: initialize, tools/list, a call.
    const client = new Client({ name: 'node22-test', version: '1' }, { capabilities: {} });
    client.onerror = () => undefined;
    clients.push(client);
    await client.connect(new StreamableHTTPClientTransport(new URL(url), { requestInit: { headers: { Authorization: `Bearer ${token}` } } }), { timeout: 10_000 });
    await listAndCall(client);
  });

  it.skipIf(!NODE22)(`tether mcp serves an agent over stdio${skipped}`, async () => {
    const workspace = createWorkspace();
    await startSandbox22(workspace);
    const client = new Client({ name: 'node22-test', version: '1' }, { capabilities: {} });
    clients.push(client);
    const transport = new StdioClientTransport({ command: NODE22!, args: [TETHER_BIN, 'mcp', '--project', workspace.project], env: workspace.env as Record<string, string>, stderr: 'pipe' });
    let stderr = '';
    transport.stderr?.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    await client.connect(transport, { timeout: 10_000 }).catch((error: Error) => {
      throw new Error(`${error.message}; stderr: ${stderr}`);
    });
    await listAndCall(client);
  });
});
