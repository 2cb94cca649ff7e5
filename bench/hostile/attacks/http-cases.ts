/**
 * Attacks on `tether serve`: strangers flooding it with connections that never finish a
 * request while an agent keeps calling; one token holder flooding it with sessions; and Host
 * headers that are not `host[:port]`, or come twice.
 */
import { connect } from 'node:net';
import { connectionFlood, percentile } from '../../../test/http/connection-flood-scenario.js';
import { createWorkspace } from '../../../test/helpers/processes.js';
import { openRawSession, startServe, type Served } from '../../../test/helpers/serve.js';

export interface FloodCaseOutcome {
  connections: number;
  agentAnswered: number;
  agentFailures: string[];
  p99Ms: number;
  settledMs: number | undefined;
  limited: boolean;
}

export async function connectionFloodCase(full: boolean): Promise<FloodCaseOutcome> {
  // The quick form floods 2,000 against low limits, as the test suite does; the full one 20,000 against the defaults.
  const served = await startServe(createWorkspace(), full ? [] : ['--header-timeout-ms', '1000', '--max-unauthenticated-connections', '64']);
  const session = await openRawSession(served);
  const connections = full ? 20_000 : 2_000;
  const outcome = await connectionFlood(served, session, {
    connections,
    attackers: full ? 2 : 1,
    holdMs: full ? 120_000 : 10_000,
    window: full ? 512 : 256,
    serveDescriptorLimit: full ? 16_384 : 1_024,
    settleWithinMs: full ? 10_000 : 4_000,
  });
  return { connections, agentAnswered: outcome.latencies.length, agentFailures: outcome.failures, p99Ms: percentile(outcome.latencies, 99), settledMs: outcome.settledMs, limited: outcome.limited };
}

async function post(served: Served, headers: Record<string, string>, body: unknown): Promise<{ status: number; text: string }> {
  const response = await fetch(served.url, { method: 'POST', headers, body: JSON.stringify(body) });
  return { status: response.status, text: await response.text() };
}

export interface SessionFloodOutcome {
  initializes: number;
  statuses: Record<number, number>;
  /** The agent's session, working before the flood, refused after it. */
  agentRefused: boolean;
  /** A client other than the flooder refused a session after it. */
  newcomerRefused: boolean;
  evictions: number;
}

/** 512 initializes in waves of 32 from one client, against the defaults (capacity 256, ceiling 512). */
export async function sessionFloodCase(): Promise<SessionFloodOutcome> {
  const served = await startServe(createWorkspace());
  const agent = await openRawSession(served, {}, 'agent');
  const list = { jsonrpc: '2.0', id: 'list', method: 'tools/list' };
  if ((await post(served, agent, list)).status !== 200) throw new Error("the agent's session did not work before the flood");
  const initialize = (name: string): Promise<number> =>
    fetch(served.url, {
      method: 'POST',
      headers: { authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream' },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name, version: '1' } } }),
    }).then(async (response) => {
      await response.text();
      return response.status;
    });
  const statuses: Record<number, number> = {};
  for (let wave = 0; wave < 16; wave++) {
    for (const status of await Promise.all(Array.from({ length: 32 }, () => initialize('flood')))) statuses[status] = (statuses[status] ?? 0) + 1;
  }
  const agentRefused = (await post(served, agent, list)).status !== 200;
  const newcomerRefused = (await initialize('newcomer')) !== 200;
  const health = (await (await fetch(served.url.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${served.token}` } })).json()) as { sessions: { evictions: number } };
  return { initializes: 512, statuses, agentRefused, newcomerRefused, evictions: health.sessions.evictions };
}

export interface HostHeaderOutcome {
  /** Bad Host headers (or pairs) answered other than 400. */
  accepted: string[];
  /** The good request after them was answered 200. */
  stillServing: boolean;
}

/** The status line of a raw initialize with these Host lines (http.request refuses to send most of them). */
function statusWith(served: Served, hostLines: string[]): Promise<string> {
  const { hostname, port } = new URL(served.url);
  const body = JSON.stringify({ jsonrpc: '2.0', id: 1, method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'host-header', version: '1' } } });
  return new Promise((resolve, reject) => {
    const socket = connect({ host: hostname, port: Number(port) }, () => {
      const head = [
        'POST /mcp HTTP/1.1',
        ...hostLines.map((h) => `Host: ${h}`),
        `Authorization: Bearer ${served.token}`,
        'Content-Type: application/json',
        'Accept: application/json, text/event-stream',
        `Content-Length: ${Buffer.byteLength(body)}`,
        'Connection: close',
      ];
      socket.end(`${head.join('\r\n')}\r\n\r\n${body}`);
    });
    let answer = '';
    socket.on('data', (chunk: Buffer) => (answer += chunk.toString()));
    socket.on('end', () => resolve(answer.split('\r\n')[0] ?? ''));
    socket.on('error', reject);
  });
}

export async function hostHeaderCase(): Promise<HostHeaderOutcome> {
  const served = await startServe(createWorkspace());
  const { hostname, port } = new URL(served.url);
  const bad = [
    [`evil.example@${hostname}:${port}`],
    [`${hostname}:${port}/x`],
    [`${hostname}:${port}#x`],
    [`${hostname}:${port}?x`],
    [`${hostname}:port`],
    [`${hostname}:${port}`, 'evil.example'],
    [`${hostname}:${port} x`],
  ];
  const accepted: string[] = [];
  for (const lines of bad) if (!/^HTTP\/1\.1 400 /.test(await statusWith(served, lines))) accepted.push(lines.join(' + '));
  return { accepted, stillServing: /^HTTP\/1\.1 200 /.test(await statusWith(served, [`${hostname}:${port}`])) };
}

/** What `tether serve` tells a stranger without the token: it must not name the home folder or TETHER_HOME. */
export async function serveRefusalCase(): Promise<string[]> {
  const workspace = createWorkspace();
  const served = await startServe(workspace);
  const leaks: string[] = [];
  const attempts: Array<Record<string, string>> = [{}, { authorization: 'Bearer wrong' }, { authorization: 'Basic eDp5' }];
  for (const headers of attempts) {
    const response = await fetch(served.url, { method: 'POST', headers: { ...headers, 'content-type': 'application/json' }, body: '{}' });
    const text = `${[...response.headers].map(([k, v]) => `${k}: ${v}`).join('\n')}\n${await response.text()}`;
    for (const secret of [served.token, workspace.home, process.env.HOME ?? '/nonexistent-home'])
      if (secret.length > 1 && text.includes(secret)) leaks.push(`a 401 held ${secret === served.token ? 'the token' : 'a home path'}`);
  }
  return leaks;
}
