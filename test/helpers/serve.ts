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

/**
 * Opens a session as a script does (initialize, then initialized; no GET stream); returns the
 * headers of its later requests. `clientName` is the clientInfo.name it gives (with its
 * address, what `tether serve` tells clients apart by).
 */
export async function openRawSession(served: Served, headers: Record<string, string> = {}, clientName = 'raw'): Promise<Record<string, string>> {
  const init = await fetch(served.url, {
    method: 'POST',
    headers: { Authorization: `Bearer ${served.token}`, 'content-type': 'application/json', accept: 'application/json, text/event-stream', ...headers },
    body: JSON.stringify({ jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: clientName, version: '1' } } }),
  });
  await init.text();
  if (!init.ok) throw new Error(`initialize was answered with HTTP ${init.status}`);
  const session = { ...sessionHeaders(served, init.headers.get('mcp-session-id')!), 'mcp-protocol-version': '2025-11-25', ...headers };
  const initialized = await fetch(served.url, { method: 'POST', headers: session, body: JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }) });
  await initialized.text();
  return session;
}

/**
 * Posts a tools/call, reads its stream's priming event, then drops the connection as a network
 * blip does. Returns the event id to resume from with Last-Event-ID.
 */
export async function callThenDrop(served: Served, headers: Record<string, string>, id: string, name: string): Promise<string> {
  const dropped = new AbortController();
  const call = await fetch(served.url, {
    method: 'POST',
    headers,
    body: JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } }),
    signal: dropped.signal,
  });
  const primed = new TextDecoder().decode((await call.body!.getReader().read()).value);
  dropped.abort();
  return /^id: (.+)$/m.exec(primed)![1]!;
}

/** Resumes a dropped stream with Last-Event-ID: the HTTP status, and what came until a result (or the end). */
export async function resumeStream(served: Served, headers: Record<string, string>, lastEventId: string): Promise<{ status: number; text: string }> {
  const resumed = await fetch(served.url, { method: 'GET', headers: { ...headers, accept: 'text/event-stream', 'last-event-id': lastEventId } });
  if (!resumed.headers.get('content-type')?.startsWith('text/event-stream')) return { status: resumed.status, text: await resumed.text() };
  const reader = resumed.body!.getReader();
  let text = '';
  while (!text.includes('"result"')) {
    const { value, done } = await reader.read();
    if (done) break;
    text += new TextDecoder().decode(value);
  }
  await reader.cancel();
  return { status: resumed.status, text };
}

/**
 * A wrong secret as long as the right one: the right one with its last character changed. A
 * comparison that looked only at lengths would take it; a short "wrong" would never show that.
 */
export function sameLengthWrong(secret: string): string {
  return `${secret.slice(0, -1)}${secret.endsWith('A') ? 'B' : 'A'}`;
}
