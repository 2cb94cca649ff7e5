/**
 * GET /status: what `tether status` shows of a running `tether serve`, behind the same guards
 * as /mcp (Host, Origin, bearer token). For each project's front: its editor link, the MCP
 * clients of the sessions bound to it (by the names they gave in initialize) and the calls
 * waiting on the editor, each with its agent; and the session counts by pool.
 */
import type { ServerResponse } from 'node:http';
import type { Agent } from '../protocol/index.js';
import type { EditorStatus, Front } from '../mcp/front.js';

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
  const status = front.status();
  const calls = status.calls.map(({ callId, tool, state, startedAt, message, agent }) => ({
    callId,
    tool,
    state,
    startedAt,
    ...(message === undefined ? {} : { message }),
    ...(agent === undefined ? {} : { agent }),
  }));
  const clients = status.agents;
  const { project, host, error } = editorOf(status);
  const omitted = { clients: Math.max(0, clients.length - MAX_LISTED), calls: Math.max(0, calls.length - MAX_LISTED) };
  return {
    project,
    link: status.link,
    host,
    ...(error === undefined ? {} : { error }),
    clients: clients.slice(0, MAX_LISTED),
    calls: calls.slice(0, MAX_LISTED),
    ...(omitted.clients + omitted.calls > 0 ? { omitted } : {}),
  };
}

interface LinkHealth {
  project: string | null;
  state: string;
  host: FrontStatus['host'];
  error?: string;
}

/** What /healthz says of one front's link. */
function linkHealth(front: Front): LinkHealth {
  const status = front.status();
  const { project, host, error } = editorOf(status);
  return { project, state: status.link, host, ...(error === undefined ? {} : { error }) };
}

/** Which editor a front is for, and why it cannot reach it while it cannot. */
function editorOf({ project, host, lastFailure }: EditorStatus): Pick<FrontStatus, 'project' | 'host' | 'error'> {
  return { project, host: host ? { kind: host.kind, name: host.name, state: host.state } : null, ...(lastFailure ? { error: lastFailure.message } : {}) };
}

export function sendServeStatus(res: ServerResponse, status: ServeStatus): void {
  res.writeHead(200, { 'content-type': 'application/json', 'cache-control': 'no-store' });
  res.end(JSON.stringify(status));
}

/** GET /healthz: every link's state, not a constant; 200 when every link is authenticated. */
export function sendHealth(res: ServerResponse, fronts: readonly Front[], sessions: Record<string, unknown>): void {
  const links = fronts.map(linkHealth);
  const healthy = links.length > 0 && links.every((l) => l.state === 'authenticated');
  res.writeHead(healthy ? 200 : 503, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ status: healthy ? 'ok' : 'degraded', links, sessions }));
}
