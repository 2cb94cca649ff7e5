/** Starting the pieces the scenarios share: the bench host, tether serve, the floors. */
import { readFileSync } from 'node:fs';
import { Agent, request } from 'node:http';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { helper } from './build.js';
import { Child, TETHER_BIN, node, type Workspace } from './procs.js';

export interface HostReady {
  event: 'ready';
  pid: number;
  port: number;
  instanceId: string;
  recordAt: number;
}

/** How a helper process is started: plain node, or node under a tool (bench/lib/callgrind.ts). */
export type Launch = (script: string, args: string[], env: Record<string, string>) => Child;

export async function startBenchHost(workspace: Workspace, prewarm: string[] = [], extra: string[] = [], launch: Launch = node): Promise<{ host: Child; ready: HostReady }> {
  const host = launch(helper('bench-host'), ['--project', workspace.project, ...(prewarm.length ? ['--prewarm', prewarm.join(',')] : []), ...extra], workspace.env);
  const ready = JSON.parse(await host.waitForLine((l) => l.includes('"event":"ready"'), 120_000)) as HostReady;
  return { host, ready };
}

export async function startServe(workspace: Workspace, extra: string[] = [], launch: Launch = node): Promise<{ serve: Child; url: string; token: string }> {
  const serve = launch(TETHER_BIN, ['serve', '--port', '0', '--project', workspace.project, ...extra], workspace.env);
  const { url } = JSON.parse(await serve.waitForLine((l) => l.includes('"event":"listening"'), 120_000)) as { url: string };
  const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
  return { serve, url, token };
}

export async function startFloorHttp(env: Record<string, string>, extra: string[] = []): Promise<{ server: Child; url: string }> {
  const server = node(helper('floor-sdk-server'), ['--http', ...extra], env);
  const { url } = JSON.parse(await server.waitForLine((l) => l.includes('"event":"listening"'))) as { url: string };
  return { server, url };
}

/**
 * The raw host behind the SDK relay floor (bench/helpers/raw-tcp-host.ts). `relayArgs` are
 * the arguments that start an SDK floor server relaying to it: the thinnest bridge with a hop.
 */
export async function startRawTcpHost(workspace: Workspace, prewarm: string[] = []): Promise<{ host: Child; relayArgs: string[] }> {
  const host = node(helper('raw-tcp-host'), prewarm.length ? ['--prewarm', prewarm.join(',')] : [], workspace.env);
  const { port } = JSON.parse(await host.waitForLine((l) => l.includes('"event":"listening"'), 120_000)) as { port: number };
  return { host, relayArgs: ['--relay', String(port)] };
}

/**
 * How the tables name the hop floor (bench/helpers/raw-mcp-server.ts with `relayArgs`): a
 * stdio MCP server with no SDK and no checks, relaying each call over TCP to the raw host.
 */
export const HOP_FLOOR = 'hop floor: a server with no SDK and no checks relaying over TCP to a raw host';

/** A client of the raw newline-JSON echo process: one line out, one line back. */
export class RawEcho {
  readonly child: Child;
  private next: ((line: string) => void) | undefined;
  private id = 0;

  constructor(env: Record<string, string>) {
    this.child = node(helper('raw-echo'), [], env, { stdin: 'pipe' });
    createInterface({ input: this.child.child.stdout! }).on('line', (line) => {
      const resolve = this.next;
      this.next = undefined;
      resolve?.(line);
    });
  }

  call(text: string): Promise<unknown> {
    return new Promise((resolve) => {
      this.next = (line) => resolve(JSON.parse(line));
      this.child.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id: ++this.id, method: 'tools/call', params: { name: 'echo', arguments: { text } } })}\n`);
    });
  }
}

/**
 * A lean Streamable HTTP client (node:http, keep-alive, one session, 2025-11-25): what the
 * server costs without the SDK client's own overhead (fetch, SSE parsing, schema checks).
 */
export class RawHttpSession {
  private readonly agent = new Agent({ keepAlive: true, maxSockets: 1 });
  private headers: Record<string, string>;
  private nextId = 1;

  constructor(
    private readonly url: string,
    token?: string,
  ) {
    this.headers = { 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...(token ? { authorization: `Bearer ${token}` } : {}) };
  }

  post(body: unknown): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; text: string }> {
    return new Promise((resolve, reject) => {
      const req = request(this.url, { method: 'POST', agent: this.agent, headers: this.headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (chunk: Buffer) => chunks.push(chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(chunks).toString('utf8') }));
        res.on('error', reject);
      });
      req.on('error', reject);
      req.end(JSON.stringify(body));
    });
  }

  async initialize(): Promise<this> {
    const init = await this.post({
      jsonrpc: '2.0',
      id: this.nextId++,
      method: 'initialize',
      params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'bench-raw-http', version: '1' } },
    });
    const id = init.headers['mcp-session-id'];
    if (init.status !== 200 || typeof id !== 'string') throw new Error(`initialize failed: HTTP ${init.status} ${init.text.slice(0, 200)}`);
    this.headers = { ...this.headers, 'mcp-session-id': id, 'mcp-protocol-version': '2025-11-25' };
    await this.post({ jsonrpc: '2.0', method: 'notifications/initialized' });
    return this;
  }

  async call(name: string, args: Record<string, unknown>): Promise<string> {
    const answer = await this.post({ jsonrpc: '2.0', id: this.nextId++, method: 'tools/call', params: { name, arguments: args } });
    if (answer.status !== 200 || !answer.text.includes('"result"') || answer.text.includes('"isError":true')) throw new Error(`tools/call failed: HTTP ${answer.status} ${answer.text.slice(0, 200)}`);
    return answer.text;
  }

  close(): void {
    this.agent.destroy();
  }
}
