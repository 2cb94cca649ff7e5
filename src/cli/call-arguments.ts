/**
 * `tether call`'s arguments: `--args JSON`, and `key=value` words read as the tool's input
 * schema types each key (`tether call find_gameobjects name=Player limit=5`): a number for a
 * number or integer, true/false for a boolean, null for a null, JSON for an object or an
 * array, text otherwise. A value that fits none of its types stays text, and the tool's
 * argument validation then says what was expected.
 */
import { TetherError } from '../protocol/index.js';

/** A usage error (exit 2) about the arguments as typed. */
function usage(message: string): TetherError {
  return new TetherError('INVALID_PARAMS', message, { field: '--args' });
}

/** `--args`: a JSON object, or nothing. */
export function parseJsonArgs(text: string | undefined): Record<string, unknown> {
  if (!text) return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (error) {
    throw usage(`--args is not valid JSON: ${(error as Error).message}. Example: --args '{"name":"Cube"}', or name=Cube`);
  }
  if (typeof value !== 'object' || value === null || Array.isArray(value)) {
    throw usage('--args must be a JSON object, e.g. --args \'{"depth":2}\'');
  }
  return value as Record<string, unknown>;
}

/** The `key=value` words, split (before the editor is asked for the schema, so a typo costs no wait). */
export function splitPairs(words: string[]): Array<[string, string]> {
  const seen = new Set<string>();
  return words.map((word) => {
    const at = word.indexOf('=');
    if (at <= 0) throw usage(`"${word}" is not an argument: write key=value (e.g. name=Player), or pass JSON with --args.`);
    const key = word.slice(0, at);
    if (seen.has(key)) throw usage(`${key}= is given twice.`);
    seen.add(key);
    return [key, word.slice(at + 1)];
  });
}

/** The pairs as the schema types them, over what --args gave. */
export function withPairs(args: Record<string, unknown>, pairs: Array<[string, string]>, inputSchema: unknown): Record<string, unknown> {
  const properties = (inputSchema as { properties?: Record<string, unknown> } | undefined)?.properties ?? {};
  const typed = { ...args };
  for (const [key, text] of pairs) typed[key] = valueFor(key, text, Object.hasOwn(properties, key) ? properties[key] : undefined);
  return typed;
}

function valueFor(key: string, text: string, schema: unknown): unknown {
  const types = typesOf(schema);
  const fits = (value: unknown): boolean => types.size === 0 || [...types].some((type) => isOfType(value, type));
  // An enum's member as written (an enum of numbers takes 3, of strings "3").
  const members = (schema as { enum?: unknown[] } | undefined)?.enum;
  if (Array.isArray(members)) {
    const member = members.find((m) => (typeof m === 'string' ? m : JSON.stringify(m)) === text);
    if (member !== undefined) return member;
  }
  if ((types.has('number') || types.has('integer')) && text.trim() !== '' && Number.isFinite(Number(text))) return Number(text);
  if (types.has('boolean') && (text === 'true' || text === 'false')) return text === 'true';
  if (types.has('null') && text === 'null') return null;
  const wantsJson = types.has('object') || types.has('array') || types.size === 0;
  if (wantsJson && /^\s*[[{]/.test(text)) {
    try {
      const value: unknown = JSON.parse(text);
      if (fits(value)) return value;
    } catch (error) {
      if (!types.has('string')) throw usage(`${key}= is not valid JSON: ${(error as Error).message}. Quote it for the shell: ${key}='[1,2,3]'`);
    }
  }
  // Untyped (an argument the schema does not name): JSON when it reads as JSON, text otherwise.
  if (types.size === 0) {
    try {
      return JSON.parse(text) as unknown;
    } catch {
      return text;
    }
  }
  return text;
}

/** The JSON types a schema allows: its type(s), and those of its anyOf/oneOf branches. */
function typesOf(schema: unknown): Set<string> {
  const types = new Set<string>();
  if (typeof schema !== 'object' || schema === null) return types;
  const { type, anyOf, oneOf, enum: members } = schema as { type?: unknown; anyOf?: unknown[]; oneOf?: unknown[]; enum?: unknown[] };
  for (const t of Array.isArray(type) ? type : [type]) if (typeof t === 'string') types.add(t);
  for (const branch of [...(anyOf ?? []), ...(oneOf ?? [])]) for (const t of typesOf(branch)) types.add(t);
  if (types.size === 0 && Array.isArray(members)) for (const m of members) types.add(m === null ? 'null' : Array.isArray(m) ? 'array' : typeof m);
  return types;
}

function isOfType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}
