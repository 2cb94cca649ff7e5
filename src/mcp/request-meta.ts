/**
 * What a client may ask of a call in the request's `_meta`:
 * - `tether/idempotencyKey`: a repeat with the same key returns the stored result (within the
 *   host's retention) instead of running again; the same key with other arguments is refused.
 *   Without a key every tools/call is a new call: a client that lost its answer and sends a
 *   finished non-idempotent call again runs it again (only a drop Tether sees, between it and
 *   the editor, is re-attached by callId).
 * - `tether/deadlineMs`: the execution deadline for this call, instead of the tool's.
 */
import { createHash } from 'node:crypto';
import type { Server } from '@modelcontextprotocol/server';
import { Agent, TetherError } from '../protocol/index.js';

export const IDEMPOTENCY_KEY = 'tether/idempotencyKey';
export const DEADLINE_KEY = 'tether/deadlineMs';

export interface CallRequestOptions {
  idempotencyKey?: string;
  deadlineMs?: number;
}

export function callOptionsFrom(meta: Record<string, unknown> | undefined): CallRequestOptions {
  if (!meta) return {};
  const key = meta[IDEMPOTENCY_KEY];
  const deadline = meta[DEADLINE_KEY];
  if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 256)) {
    throw new TetherError('INVALID_PARAMS', `_meta["${IDEMPOTENCY_KEY}"] must be a non-empty string of at most 256 characters.`, { field: IDEMPOTENCY_KEY });
  }
  if (deadline !== undefined && (typeof deadline !== 'number' || !Number.isInteger(deadline) || deadline <= 0)) {
    throw new TetherError('INVALID_PARAMS', `_meta["${DEADLINE_KEY}"] must be a positive integer (milliseconds).`, { field: DEADLINE_KEY });
  }
  return { ...(key === undefined ? {} : { idempotencyKey: key }), ...(deadline === undefined ? {} : { deadlineMs: deadline }) };
}

/**
 * The callId for an idempotency key: the same key always maps to the same callId, so the
 * host's journal does the rest (replay within retention, CALL_ID_CONFLICT for other arguments),
 * across every front that talks to that host.
 */
export function callIdForKey(key: string): string {
  return `key-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}

/** Where a 2026-07-28 client, which has no initialize, says who it is: in each request's `_meta`. */
const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** What `Agent` made of one client-info object, and the two fields it read to make it. */
interface ParsedAgent {
  name: unknown;
  version: unknown;
  agent: Agent | undefined;
}

/**
 * Client-info objects already parsed. The session's info is the same object on every call, and
 * a zod parse of it was ~2k instructions a call; the parse depends on nothing but the object
 * being one and its `name` and `version`, so a hit with those two unchanged is what the parse
 * would give. A stateless-era request's info is a new object each time: parsed, as before.
 */
const parsedAgents = new WeakMap<object, ParsedAgent>();

/**
 * The agent behind a tools/call, for the host's status and logs: the client info the request
 * carries (stateless era), else what the session's client said in initialize. Undefined when
 * neither names it (a host then shows no agent). Treat it as read-only: the same object comes
 * back for the same client info.
 */
export function agentOf(server: Pick<Server, 'getClientVersion'>, meta: Record<string, unknown> | undefined): Agent | undefined {
  const info: unknown = meta?.[CLIENT_INFO_KEY] ?? server.getClientVersion();
  if (typeof info !== 'object' || info === null) return parseAgent(info);
  const { name, version } = info as { name?: unknown; version?: unknown };
  const parsed = parsedAgents.get(info);
  if (parsed && parsed.name === name && parsed.version === version) return parsed.agent;
  const agent = parseAgent(info);
  parsedAgents.set(info, { name, version, agent });
  return agent;
}

function parseAgent(info: unknown): Agent | undefined {
  const said = Agent.safeParse(info);
  if (!said.success) return undefined;
  const { name, version } = said.data;
  return { name, ...(version ? { version } : {}) };
}
