/** A real `tether serve` process and real SDK clients over Streamable HTTP, closed after each test. */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { TetherProcess, type Workspace } from './processes.js';

export interface Served {
  server: TetherProcess;
  url: string;
  token: string;
}

export interface HttpConnection {
  client: Client;
  transport: StreamableHTTPClientTransport;
}

const clients = new Set<Client>();

/** Starts `tether serve` on a free port for the workspace's project; resolves once it listens. */
export async function startServe(workspace: Workspace, extra: string[] = []): Promise<Served> {
  const server = new TetherProcess(['serve', '--port', '0', '--project', workspace.project, ...extra], workspace.env);
  const { url } = JSON.parse(await server.waitForLine((l) => l.includes('"event":"listening"'))) as { url: string };
  const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
  return { server, url, token };
}

/** Refuses the standalone GET stream client-side, as if the server offered none. */
function withoutListening(input: string | URL | Request, init?: RequestInit): Promise<Response> {
  return init?.method === 'GET' ? Promise.resolve(new Response(null, { status: 405 })) : fetch(input, init);
}

/**
 * Connects an SDK client (initialize done). `listening: false` keeps it from opening the
 * standalone GET stream, as a client does when the server refuses it.
 */
export async function connectHttp(
  served: Served,
  options: {
    headers?: Record<string, string>;
    listening?: boolean;
    capabilities?: Record<string, unknown>;
    version?: 'legacy' | '2026-07-28';
    /** Declares form elicitation and accepts every question with this content. */
    answersWith?: Record<string, string>;
  } = {},
): Promise<HttpConnection> {
  const capabilities = options.answersWith ? { ...options.capabilities, elicitation: { form: {} } } : (options.capabilities ?? {});
  const client = new Client(
    { name: 'http-test', version: '1' },
    { capabilities, ...(options.version && options.version !== 'legacy' ? { versionNegotiation: { mode: { pin: options.version } } } : {}) },
  );
  client.onerror = () => undefined; // an evicted or ended session's stream closing is expected in tests
  const answer = options.answersWith;
  if (answer) client.setRequestHandler('elicitation/create', () => ({ action: 'accept', content: answer }));
  const transport = new StreamableHTTPClientTransport(new URL(served.url), {
    requestInit: { headers: { Authorization: `Bearer ${served.token}`, ...options.headers } },
    ...(options.listening === false ? { fetch: withoutListening } : {}),
  });
  await client.connect(transport);
  clients.add(client);
  return { client, transport };
}

/** The headers of a raw request in an existing session (add mcp-protocol-version where it belongs). */
export function sessionHeaders(served: Served, sessionId: string): Record<string, string> {
  return { Authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', 'mcp-session-id': sessionId };
}

/** Closes every client connected by connectHttp (call in afterEach, before killing processes). */
export async function closeHttpClients(): Promise<void> {
  const open = [...clients];
  clients.clear();
  await Promise.all(open.map((client) => client.close().catch(() => undefined)));
}
