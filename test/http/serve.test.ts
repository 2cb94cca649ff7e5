/**
 * `tether serve` end to end: a real server process, real SDK clients over Streamable HTTP,
 * a real sandbox behind it, and what reaches the host counted on disk.
 */
import { readFileSync, statSync, existsSync } from 'node:fs';
import { once } from 'node:events';
import { request } from 'node:http';
import { createConnection, createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { afterEach, describe, expect, it } from 'vitest';
import { writeHostRecord } from '../../src/discovery/host-record.js';
import { MAX_BODY_DEPTH } from '../../src/http/mcp-requests.js';
import { TetherProcess, cleanupProcesses, createWorkspace, executedTools, startSandbox, type Workspace } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, openRawSession, sameLengthWrong, startServe, type Served } from '../helpers/serve.js';

afterEach(async () => {
  await closeHttpClients();
  await cleanupProcesses();
});

const serve = startServe;

async function connect(served: Served, headers: Record<string, string> = {}): Promise<Client> {
  return (await connectHttp(served, { headers })).client;
}

function executions(workspace: Workspace): number {
  try {
    return readFileSync(join(workspace.project, 'Library', 'Tether', 'executions.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean).length;
  } catch {
    return 0;
  }
}

const initialize = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'raw', version: '1' } } });
const callTool = JSON.stringify({ jsonrpc: '2.0', id: 2, method: 'tools/call', params: { name: 'create_gameobject', arguments: { name: 'Intruder' } } });

function post(url: string, body: string, headers: Record<string, string>): Promise<Response> {
  return fetch(url, { method: 'POST', body, headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } });
}

/** A POST /mcp on the server's own socket with exactly these headers (Host included, which fetch cannot set), read to its end. */
function sendRaw(served: Served, body: string, headers: Record<string, string>): Promise<{ status: number; body: string }> {
  const url = new URL(served.url);
  return new Promise((resolve, reject) => {
    const req = request(
      { host: url.hostname, port: url.port, path: url.pathname, method: 'POST', headers: { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers } },
      (res) => {
        let text = '';
        res.setEncoding('utf8').on('data', (chunk: string) => (text += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, body: text }));
      },
    );
    req.on('error', reject);
    req.end(body);
  });
}

describe('tether serve', () => {
  it('refuses, inside a live session, no token or a wrong one (401), a bad Origin or Host (403) and a body too large (413), and none of those calls reaches the editor', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await serve(workspace);
    // A session opened with the right token: its tools/call would run, were it not refused.
    const { Authorization: _token, ...session } = await openRawSession(served);
    const auth = { authorization: `Bearer ${served.token}` };
    const call = (name: string) => JSON.stringify({ jsonrpc: '2.0', id: name, method: 'tools/call', params: { name: 'create_gameobject', arguments: { name } } });
    // The positive control: the session's call with nothing wrong in it runs, and is counted.
    const admitted = await sendRaw(served, call('Admitted'), { ...session, ...auth });
    expect(admitted.status).toBe(200);
    expect(admitted.body).toContain('Admitted');
    expect(executedTools(workspace)).toEqual(['create_gameobject']);

    const sameLength = sameLengthWrong(served.token);
    expect(sameLength).toHaveLength(served.token.length);
    const refused = {
      noToken: (await sendRaw(served, call('NoToken'), session)).status,
      shortWrongToken: (await sendRaw(served, call('ShortToken'), { ...session, authorization: 'Bearer nope' })).status,
      sameLengthWrongToken: (await sendRaw(served, call('SameLengthToken'), { ...session, authorization: `Bearer ${sameLength}` })).status,
      badOrigin: (await sendRaw(served, call('BadOrigin'), { ...session, ...auth, origin: 'https://evil.example' })).status,
      badHost: (await sendRaw(served, call('BadHost'), { ...session, ...auth, host: 'evil.example' })).status,
      tooLarge: (await sendRaw(served, call(`TooLarge${'x'.repeat(5 * 1024 * 1024)}`), { ...session, ...auth })).status,
    };
    // Statuses and executions together: a guard that let a call through shows in both.
    expect({ refused, executed: executedTools(workspace) }).toEqual({
      refused: { noToken: 401, shortWrongToken: 401, sameLengthWrongToken: 401, badOrigin: 403, badHost: 403, tooLarge: 413 },
      executed: ['create_gameobject'],
    });
    // The session itself is unharmed: the next good call runs.
    expect((await sendRaw(served, call('After'), { ...session, ...auth })).status).toBe(200);
    expect(executedTools(workspace)).toEqual(['create_gameobject', 'create_gameobject']);
  });

  it('refuses a body nested past the bound with a typed 400, in either protocol era, and keeps serving', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await serve(workspace);
    const auth = { authorization: `Bearer ${served.token}` };
    const era = { 'mcp-protocol-version': '2026-07-28' };
    const meta = { 'io.modelcontextprotocol/protocolVersion': '2026-07-28', 'io.modelcontextprotocol/clientCapabilities': {}, 'io.modelcontextprotocol/clientInfo': { name: 'deep', version: '1' } };
    const deepCall = (depth: number, withMeta: boolean) =>
      JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'create_gameobject', arguments: { name: 'x', extra: 0 }, ...(withMeta ? { _meta: meta } : {}) } }).replace(
        '"extra":0',
        `"extra":${'['.repeat(depth)}1${']'.repeat(depth)}`,
      );
    // Thousands deep: the SDK's handler answered a bare 500 to the newer era's request.
    for (const [body, headers] of [
      [deepCall(6_000, true), { ...auth, ...era }],
      [deepCall(6_000, false), auth],
      [deepCall(MAX_BODY_DEPTH, true), { ...auth, ...era }],
    ] as const) {
      const response = await post(served.url, body, headers);
      expect(response.status).toBe(400);
      expect(await response.json()).toMatchObject({ jsonrpc: '2.0', error: { code: -32600, message: expect.stringContaining(`nests deeper than ${MAX_BODY_DEPTH} levels`) } });
    }
    expect(executions(workspace)).toBe(0);
    // Just within the bound, it is the editor's to judge; and the server serves on.
    const within = await post(served.url, deepCall(MAX_BODY_DEPTH - 4, true), { ...auth, ...era });
    expect(within.status).not.toBe(500);
    expect((await post(served.url, initialize, auth)).status).toBe(200);
  });

  it('keeps its token and state in 0600 files and removes serve.json on exit', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace);
    for (const file of ['serve.json', 'serve-token']) expect(statSync(join(workspace.home, file)).mode & 0o777).toBe(0o600);
    await served.server.stop();
    expect(existsSync(join(workspace.home, 'serve.json'))).toBe(false);
    // The token survives restarts (clients keep their configuration).
    const again = await serve(workspace);
    expect(again.token).toBe(served.token);
  });

  it('puts back the serve.json of another server of its home when it stops before it', async () => {
    const workspace = createWorkspace();
    const state = () => JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { url: string; pid: number };
    const first = await serve(workspace);
    const second = await serve(workspace);
    expect(state().url).toBe(second.url);
    await second.server.stop();
    expect(state()).toMatchObject({ url: first.url, pid: first.server.child.pid });
    await first.server.stop();
    expect(existsSync(join(workspace.home, 'serve.json'))).toBe(false);
  });

  it('refuses a non-loopback bind without --allow-remote', async () => {
    const workspace = createWorkspace();
    const server = new TetherProcess(['serve', '--port', '0', '--host', '0.0.0.0'], workspace.env);
    expect(await server.exited).toBe(2);
    expect(server.stderr).toMatch(/--allow-remote/);
  });

  it('serves many concurrent sessions, each with its own results and without warnings', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await serve(workspace);
    // More than Node's default of 10 listeners per emitter: every session's server listens to the front.
    const sessions = await Promise.all(Array.from({ length: 12 }, () => connect(served)));
    const results = await Promise.all(
      sessions.map(async (client, i) => {
        const created = await client.callTool({ name: 'create_gameobject', arguments: { name: `Http${i}` } });
        return (created.structuredContent as { created: { name: string } }).created.name;
      }),
    );
    expect(results).toEqual(Array.from({ length: 12 }, (_, i) => `Http${i}`));
    expect(served.server.stderr).not.toContain('MaxListenersExceededWarning');
  });

  it('answers 404 for an unknown session so clients re-initialize', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace);
    const response = await post(served.url, callTool, { authorization: `Bearer ${served.token}`, 'mcp-session-id': 'no-such-session' });
    expect(response.status).toBe(404);
  });

  it('tells a client that sends no session id to initialize first, rather than call its protocol version unsupported', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace);
    const auth = { authorization: `Bearer ${served.token}` };
    const refusal = async (headers: Record<string, string>): Promise<{ status: number; error: { code: number; message: string; data?: Record<string, unknown> } }> => {
      const response = await post(served.url, callTool, { ...auth, ...headers });
      return { status: response.status, error: ((await response.json()) as { error: { code: number; message: string } }).error };
    };
    const unnamed = await refusal({});
    expect(unnamed.status).toBe(400);
    expect(unnamed.error.message).toContain('no Mcp-Session-Id header. A request that names no protocol version needs a session: send "initialize" first');
    expect(unnamed.error.data).toMatchObject({ sessionRequired: true, supported: expect.arrayContaining(['2026-07-28', '2025-11-25']) });
    const legacy = await refusal({ 'mcp-protocol-version': '2025-11-25' });
    expect(legacy.status).toBe(400);
    expect(legacy.error.message).toContain('Protocol 2025-11-25 needs a session');
    // The protocol that needs no session still reaches the stateless handler (which wants its _meta).
    const modern = await refusal({ 'mcp-protocol-version': '2026-07-28' });
    expect(modern.error.message).not.toContain('needs a session');
    expect(modern.error.message).toContain('_meta');
    // A GET stream or a DELETE without the session's id: the same answer, not "method not allowed".
    for (const method of ['GET', 'DELETE']) {
      const response = await fetch(served.url, { method, headers: { ...auth, accept: 'text/event-stream' } });
      expect(response.status, method).toBe(400);
      expect(((await response.json()) as { error: { data: unknown } }).error.data).toMatchObject({ sessionRequired: true });
    }
    expect(executions(workspace)).toBe(0);
  });

  it('evicts the least recently used idle session when a pool is full, never a pinned one', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '3']);
    const served = await serve(workspace, ['--interactive-sessions', '2', '--session-recency-floor-ms', '0']);
    const busy = await connect(served);
    const building = busy.callTool({ name: 'build_player', arguments: {} }, { onprogress: () => undefined });
    await expect
      .poll(async () => (await (await fetch(served.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${served.token}` } })).text()).match(/tether_calls_in_flight (\d+)/)?.[1])
      .toBe('1');
    const idle = await connect(served);
    await idle.listTools();
    await connect(served); // third: over capacity; the idle one goes, the busy (pinned) one stays
    await expect
      .poll(async () =>
        (
          await idle.listTools().then(
            () => 'alive',
            (e: Error) => e.message,
          )
        ).toString(),
      )
      .toMatch(/404|not known|Session/i);
    expect((await building).isError).toBeFalsy();
  });

  it('reaps idle sessions after their TTL even without DELETE', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace, ['--session-idle-ms', '400']);
    // Not listening on a GET stream, as a script's client: listening is not being idle (below).
    const { client } = await connectHttp(served, { listening: false });
    const metrics = async () =>
      (await (await fetch(served.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${served.token}` } })).text()).match(
        /tether_sessions\{pool="interactive"\} (\d+)|tether_session_evictions_total\{pool="interactive",reason="idle"\} (\d+)/g,
      );
    // Counted as reaped for idleness (proof that it existed, whenever the reaper came), and gone.
    await expect.poll(metrics, { timeout: 5_000 }).toEqual(['tether_sessions{pool="interactive"} 0', 'tether_session_evictions_total{pool="interactive",reason="idle"} 1']);
    await expect(client.listTools()).rejects.toThrow();
  });

  it('does not reap as idle a session whose client listens on its GET stream', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace, ['--session-idle-ms', '400']);
    // An IDE that calls no tool for a while, listening for list changes all along.
    let listening!: () => void;
    const opened = new Promise<void>((resolve) => (listening = resolve));
    const signalled: typeof fetch = async (input, init) => {
      const response = await fetch(input, init);
      if (init?.method === 'GET' && response.ok) listening();
      return response;
    };
    const ide = new Client({ name: 'ide', version: '1' });
    ide.onerror = () => undefined;
    await ide.connect(new StreamableHTTPClientTransport(new URL(served.url), { requestInit: { headers: { Authorization: `Bearer ${served.token}` } }, fetch: signalled }));
    await opened;
    // A script's session, opened after it and never used again: once it is reaped, the IDE's was due too.
    await openRawSession(served);
    const reapedForIdleness = async () =>
      (await (await fetch(served.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${served.token}` } })).text()).match(
        /tether_session_evictions_total\{pool="interactive",reason="idle"\} (\d+)/,
      )?.[1];
    await expect.poll(reapedForIdleness).toBe('1');
    expect((await ide.listTools()).tools.map((t) => t.name)).toContain('tether_status');
    await ide.close();
  });

  it.runIf(process.platform === 'linux')('arms TCP keepalive on its connections, so a listener that vanished is found dead', async () => {
    const served = await serve(createWorkspace());
    const socket = createConnection(Number(new URL(served.url).port), '127.0.0.1');
    await once(socket, 'connect');
    const hex = (port: number) => `:${port.toString(16).toUpperCase().padStart(4, '0')}`;
    const [serverPort, ourPort] = [hex(socket.remotePort!), hex(socket.localPort!)];
    // The server's end of this connection in /proc/net/tcp, by both its ports: another line may
    // have ours as its remote port (one in TIME_WAIT, timer kind 03, from an earlier connection
    // that used our port). Timer kind 02 is keepalive.
    const timerOfServerEnd = () =>
      readFileSync('/proc/net/tcp', 'utf8')
        .split('\n')
        .map((line) => line.trim().split(/\s+/))
        .find((fields) => fields[1]?.endsWith(serverPort) && fields[2]?.endsWith(ourPort))?.[5]
        ?.split(':')[0];
    await expect.poll(timerOfServerEnd).toBe('02');
    socket.destroy();
  });

  it('takes --wait-ms 0 to mean no wait for an editor that is away', async () => {
    const workspace = createWorkspace();
    // An editor between two listeners (its record there, its process alive, its port refusing):
    // one that is coming, so waited for, here not at all.
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const { port } = closed.address() as AddressInfo;
    await new Promise((resolve) => closed.close(resolve));
    const record = {
      instanceId: 'away',
      pid: process.pid,
      port,
      host: '127.0.0.1',
      token: 'unused',
      projectPath: workspace.project,
      kind: 'sandbox',
      protocolVersion: 1,
      startedAt: new Date().toISOString(),
    };
    writeHostRecord(record, join(workspace.home, 'hosts'));
    const served = await serve(workspace, ['--wait-ms', '0']);
    const client = await connect(served);
    const result = await client.callTool({ name: 'get_hierarchy', arguments: {} });
    expect(result.isError).toBe(true);
    expect((result._meta as Record<string, { code: string }>)['tether/error']!.code).toBe('HOST_UNAVAILABLE');
    expect(JSON.stringify(result.content)).toContain('after waiting 0 ms');
  });

  it('reports real health and Prometheus metrics', async () => {
    const workspace = createWorkspace();
    const served = await serve(workspace);
    const health = () => fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } });
    const down = await health();
    expect(down.status).toBe(503);
    expect(await down.json()).toMatchObject({ status: 'degraded', links: [{ state: expect.stringMatching(/lost|connecting/) }] });
    await startSandbox(workspace);
    await expect.poll(async () => (await health()).status, { timeout: 5_000 }).toBe(200);
    const client = await connect(served);
    await client.callTool({ name: 'get_hierarchy', arguments: {} });
    const text = await (await fetch(served.url.replace('/mcp', '/metrics'), { headers: { authorization: `Bearer ${served.token}` } })).text();
    expect(text).toMatch(/tether_call_duration_seconds_count\{tool="get_hierarchy",outcome="ok"\} 1/);
    expect(text).toMatch(/tether_sessions\{pool="interactive"\} 1/);
    expect(text).toMatch(/tether_calls_in_flight 0/);
  });
});
