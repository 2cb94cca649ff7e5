/**
 * The params of `calls/start` as the schema would give them, read without zod when they are
 * the usual ones: every call a host answers runs the schema's checks otherwise (~1.5k
 * instructions a call in the bench host, its largest zod cost). Only params the schema
 * certainly accepts are read here, into what its parse returns (a new object, its keys in the
 * schema's order, `arguments` defaulted and copied, `agent` as the schema writes it); anything
 * else (an unknown key, an undefined value, a string out of bounds, a value of another type)
 * gives undefined, and the schema parses it, so every refusal is the schema's own.
 */
import { MAX_ID_CHARS, type CallStartParams } from './methods.js';
import { isPlainObject } from './plain-object.js';

type ParsedCallStart = CallStartParams & { arguments: Record<string, unknown> };

const KEYS = new Set(['callId', 'tool', 'arguments', 'deadlineMs', 'attachOnly', 'agent']);

/** Plain, with no `__proto__` of its own (which the schema's copy leaves out). */
function isPlainRecord(value: unknown): value is Record<string, unknown> {
  return isPlainObject(value) && !Object.hasOwn(value, '__proto__');
}

function isString(value: unknown, min: number, max: number): value is string {
  return typeof value === 'string' && value.length >= min && value.length <= max;
}

/** What the schema's parse of `raw` returns, when `raw` is params it certainly accepts; undefined otherwise. */
export function fastCallStartParams(raw: unknown): ParsedCallStart | undefined {
  if (!isPlainRecord(raw)) return undefined;
  for (const key in raw) if (!KEYS.has(key) || raw[key] === undefined) return undefined;
  const { callId, tool, arguments: args, deadlineMs, attachOnly, agent } = raw;
  if (!isString(callId, 1, MAX_ID_CHARS) || !isString(tool, 1, Number.POSITIVE_INFINITY)) return undefined;
  if (args !== undefined && !isPlainRecord(args)) return undefined;
  if (deadlineMs !== undefined && !(Number.isSafeInteger(deadlineMs) && (deadlineMs as number) > 0)) return undefined;
  if (attachOnly !== undefined && typeof attachOnly !== 'boolean') return undefined;
  const parsedAgent = agent === undefined ? undefined : fastAgent(agent);
  if (agent !== undefined && !parsedAgent) return undefined;
  const params: ParsedCallStart = { callId, tool, arguments: { ...args } };
  if (deadlineMs !== undefined) params.deadlineMs = deadlineMs as number;
  if (attachOnly !== undefined) params.attachOnly = attachOnly;
  if (parsedAgent) params.agent = parsedAgent;
  return params;
}

/** An agent of only a name and maybe a version, both in bounds, as the schema writes it (name first). */
function fastAgent(agent: unknown): { name: string; version?: string } | undefined {
  if (!isPlainRecord(agent)) return undefined;
  let keys = 0;
  for (const key in agent) {
    if (key !== 'name' && key !== 'version') return undefined;
    keys++;
  }
  const { name, version } = agent;
  if (!isString(name, 1, MAX_ID_CHARS)) return undefined;
  if (version === undefined) return keys === 1 ? { name } : undefined;
  return isString(version, 0, MAX_ID_CHARS) ? { name, version } : undefined;
}
