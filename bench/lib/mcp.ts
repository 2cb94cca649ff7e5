/** SDK v2 clients for the benchmark: stdio (spawning a server) and Streamable HTTP. */
import { Client, StreamableHTTPClientTransport } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { performance } from 'node:perf_hooks';
import { createInterface } from 'node:readline';
import type { Readable } from 'node:stream';
import { TETHER_BIN, trackPid, untrackPid, type Workspace } from './procs.js';

/** Big enough for a 50 MiB result; the SDK client's default (10 MiB) refuses anything larger. */
export const CLIENT_MAX_BUFFER = 512 * 1024 * 1024;

export interface StdioSession {
  client: Client;
  transport: StdioClientTransport;
  pid: number;
  stderrLines: string[];
  /** Called with every stderr line as it arrives. */
  onStderr?: (line: string) => void;
  close(): Promise<void>;
}

export function tetherMcpArgs(workspace: Workspace, extra: string[] = []): string[] {
  return [TETHER_BIN, 'mcp', '--project', workspace.project, ...extra];
}

/** Spawns `node args…` as a stdio MCP server and connects an SDK client to it (initialize done). */
export async function connectStdio(args: string[], env: Record<string, string>): Promise<StdioSession> {
  const transport = new StdioClientTransport({ command: process.execPath, args, env, stderr: 'pipe', maxBufferSize: CLIENT_MAX_BUFFER });
  const session: StdioSession = {
    client: new Client({ name: 'tether-bench', version: '1.0.0' }, { versionNegotiation: { mode: 'legacy' } }),
    transport,
    pid: 0,
    stderrLines: [],
    close: async () => {
      await session.client.close().catch(() => undefined);
      untrackPid(session.pid);
    },
  };
  createInterface({ input: transport.stderr as Readable }).on('line', (line) => {
    session.stderrLines.push(line);
    session.onStderr?.(line);
  });
  session.client.onerror = () => undefined;
  await session.client.connect(transport);
  session.pid = transport.pid ?? 0;
  trackPid(session.pid);
  return session;
}

export async function connectHttp(url: string, token?: string): Promise<Client> {
  const client = new Client({ name: 'tether-bench', version: '1.0.0' });
  client.onerror = () => undefined;
  await client.connect(new StreamableHTTPClientTransport(new URL(url), token ? { requestInit: { headers: { Authorization: `Bearer ${token}` } } } : {}));
  return client;
}

export interface ToolCallResult {
  isError?: boolean;
  content?: Array<{ type: string; text?: string; data?: string }>;
}

/** tools/call that throws on an isError result, so a failure can never pass for a fast call. */
export async function call(client: Client, name: string, args: Record<string, unknown>, timeoutMs = 120_000): Promise<ToolCallResult> {
  const result = (await client.callTool({ name, arguments: args }, { timeout: timeoutMs })) as ToolCallResult;
  if (result.isError) throw new Error(`${name} failed: ${result.content?.[0]?.text ?? JSON.stringify(result)}`);
  return result;
}

/**
 * Each session makes echo calls, one in flight, until `until` says stop (asked before each
 * call, with that session's count so far and the time); returns the calls made in all.
 */
export async function echoUntil(sessions: StdioSession[], until: (sessionCalls: number, now: number) => boolean): Promise<number> {
  let calls = 0;
  await Promise.all(
    sessions.map(async (session) => {
      for (let mine = 0; !until(mine, performance.now()); mine++) {
        await call(session.client, 'echo', { text: 'ping' });
        calls++;
      }
    }),
  );
  return calls;
}
