/**
 * GET /status: what `tether status` shows of a running `tether serve`, behind the same guards
 * as /mcp (Host, Origin, bearer token). For each project's front: its editor link, the MCP
 * clients of the sessions bound to it (by the names they gave in initialize) and the calls
 * waiting on the editor, each with its agent; and the session counts by pool.
 */
import type { ServerResponse } from 'node:http';
import type { Agent } from '../protocol/index.js';
import type { Front } from '../mcp/front.js';

/** The most clients and calls listed per front; the rest are counted. */
const MAX_LISTED = 1_000;

export interface ServeStatus {
  pid: number;
  /** Sessions by pool (2025-11-25 era), and how many are awake (their MCP server in memory). */
  sessions: Record<string, unknown>;
  fronts: FrontStatus[];
}

export interface FrontStatus {
  project: string | null;
  link: string;
  host: { kind: string; name: string; state: string } | null;
  error?: string;
  /** The MCP clients of this front's awake sessions (a sleeping session's client is counted in `sessions`, not named). */
  clients: Agent[];
  calls: Array<{ callId: string; tool: string; state: string; startedAt: number; message?: string; agent?: Agent }>;
  omitted?: { clients: number; calls: number };
}

export function serveStatus(fronts: readonly Front[], sessions: Record<string, unknown>): ServeStatus {
  return { pid: process.pid, sessions, fronts: fronts.map(frontStatus) };
}

function frontStatus(front: Front): FrontStatus {
  const clients: Agent[] = [];
  for (const server of front.servers) {
    const info = server.getClientVersion();
    if (info) clients.push({ name: info.name, ...(info.version ? { version: info.version } : {}) });
  }
  const calls = [...front.pending.values()].map(({ callId, tool, state, startedAt, message, agent }) => ({
    callId,
    tool,
    state,
    startedAt,
    ...(message === undefined ? {} : { message }),
    ...(agent === undefined ? {} : { agent }),
  }));
  const { link } = front;
  const omitted = { clients: Math.max(0, clients.length - MAX_LISTED), calls: Math.max(0, calls.length - MAX_LISTED) };
  return {
    project: link.record?.projectPath ?? front.options.project ?? null,
    link: link.state,
    host: link.hello ? { kind: link.hello.host.kind, name: link.hello.host.name, state: front.hostState?.state ?? link.hello.state } : null,
    ...(link.state !== 'authenticated' && link.lastFailure ? { error: link.lastFailure.message } : {}),
    clients: clients.slice(0, MAX_LISTED),
    calls: calls.slice(0, MAX_LISTED),
    ...(omitted.clients + omitted.calls > 0 ? { omitted } : {}),
  };
}

export function sendServeStatus(res: ServerResponse, status: ServeStatus): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(status));
}
