/**
 * `tether call`'s arguments: `--args JSON`, and `key=value` words read as the tool's input
 * schema types each key (`tether call find_gameobjects name=Player limit=5`): a number (plain
 * decimal, as JSON writes it) for a number or integer, true/false for a boolean, null for a
 * null, JSON for an object or an array, text otherwise; through local $refs, allOf, anyOf,
 * oneOf, enum and const. A value that fits none of its types stays text, and the tool's
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
  const root = inputSchema;
  const properties = propertiesOf(inputSchema, root);
  const typed = { ...args };
  for (const [key, text] of pairs) typed[key] = valueFor(key, text, typing(Object.hasOwn(properties, key) ? properties[key] : undefined, root));
  return typed;
}

/**
 * A plain decimal number as JSON writes one (`5`, `-1.5`, `2e3`): not `0x10`, `0b11`, ` 5` or
 * `Infinity`, which Number() also reads, and which a person meant as text, if anything.
 */
const JSON_NUMBER = /^-?(?:0|[1-9]\d*)(?:\.\d+)?(?:[eE][+-]?\d+)?$/;

function valueFor(key: string, text: string, { types, members }: Typing): unknown {
  const fits = (value: unknown): boolean => types.size === 0 || [...types].some((type) => isOfType(value, type));
  // An enum's (or a const's) member as written (an enum of numbers takes 3, of strings "3").
  if (members) {
    const member = members.find((m) => (typeof m === 'string' ? m : JSON.stringify(m)) === text);
    if (member !== undefined) return member;
  }
  if ((types.has('number') || types.has('integer')) && JSON_NUMBER.test(text)) return Number(text);
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

/** What a schema says of a value's JSON type: the types it allows (none: any), and the values it lists (enum, const). */
interface Typing {
  types: Set<string>;
  members?: unknown[];
}

/** How deep $refs and branches are followed: a schema that refers to itself ends there. */
const MAX_DEPTH = 16;

type Schema = {
  type?: unknown;
  anyOf?: unknown[];
  oneOf?: unknown[];
  allOf?: unknown[];
  enum?: unknown[];
  const?: unknown;
  $ref?: unknown;
  properties?: Record<string, unknown>;
};

function asSchema(schema: unknown): Schema | undefined {
  return typeof schema === 'object' && schema !== null && !Array.isArray(schema) ? (schema as Schema) : undefined;
}

/**
 * The JSON types a schema allows, and the values it lists: its type(s), those of its
 * anyOf/oneOf branches (any of them), its allOf branches (all of them: the types they share),
 * a local $ref (`#/$defs/…`, `#/definitions/…`) as the schema it points to, and an enum's or
 * a const's values (and their types, when it names none).
 */
function typing(schema: unknown, root: unknown, depth = 0): Typing {
  const found = asSchema(schema);
  if (!found || depth > MAX_DEPTH) return { types: new Set() };
  const parts: Typing[] = [];
  const own = new Set<string>();
  for (const t of Array.isArray(found.type) ? found.type : [found.type]) if (typeof t === 'string') own.add(t);
  let members: unknown[] | undefined = Array.isArray(found.enum) ? found.enum : undefined;
  if (Object.hasOwn(found, 'const')) members = [found.const];
  if (own.size === 0 && members) for (const m of members) own.add(m === null ? 'null' : Array.isArray(m) ? 'array' : typeof m === 'number' && Number.isInteger(m) ? 'integer' : typeof m);
  parts.push({ types: own, ...(members ? { members } : {}) });
  // Beside the keywords of its own, a $ref's target applies too (as an allOf of the two).
  if (typeof found.$ref === 'string') parts.push(typing(resolveRef(found.$ref, root), root, depth + 1));
  for (const branch of found.allOf ?? []) parts.push(typing(branch, root, depth + 1));
  const branches = [...(found.anyOf ?? []), ...(found.oneOf ?? [])].map((branch) => typing(branch, root, depth + 1));
  if (branches.length > 0) parts.push(anyOf(branches));
  return allOf(parts);
}

/** Any of the branches: the types those that name some allow, the values they list when every one lists some. */
function anyOf(branches: Typing[]): Typing {
  const types = new Set(branches.flatMap((b) => [...b.types]));
  const members = branches.every((b) => b.members) ? branches.flatMap((b) => b.members ?? []) : undefined;
  return { types, ...(members ? { members } : {}) };
}

/** All of the parts: the types they all allow (a part that names none allows any), the values the last that lists some lists. */
function allOf(parts: Typing[]): Typing {
  let types: Set<string> | undefined;
  let members: unknown[] | undefined;
  for (const part of parts) {
    if (part.members) members = part.members;
    if (part.types.size > 0) types = types === undefined ? new Set(part.types) : shared(types, part.types);
  }
  return { types: types ?? new Set(), ...(members ? { members } : {}) };
}

/** The types both allow; an integer is a number, so "number" and "integer" share "integer". */
function shared(a: Set<string>, b: Set<string>): Set<string> {
  const both = new Set([...a].filter((type) => b.has(type)));
  if ((a.has('integer') && b.has('number')) || (a.has('number') && b.has('integer'))) both.add('integer');
  return both;
}

/** A local reference, `#` or `#/a/b` (JSON Pointer, ~0 and ~1 escaped, percent-encoded), into the root schema; undefined for any other. */
function resolveRef(ref: string, root: unknown): unknown {
  if (!ref.startsWith('#')) return undefined;
  let pointer: string;
  try {
    pointer = decodeURIComponent(ref.slice(1));
  } catch {
    return undefined;
  }
  if (pointer === '') return root;
  if (!pointer.startsWith('/')) return undefined;
  let at: unknown = root;
  for (const token of pointer.slice(1).split('/')) {
    const key = token.replaceAll('~1', '/').replaceAll('~0', '~');
    if (typeof at !== 'object' || at === null || !Object.hasOwn(at, key)) return undefined;
    at = (at as Record<string, unknown>)[key];
  }
  return at;
}

/** The properties an input schema names: its own, through a $ref or allOf at the top. */
function propertiesOf(schema: unknown, root: unknown, depth = 0): Record<string, unknown> {
  const found = asSchema(schema);
  if (!found || depth > MAX_DEPTH) return {};
  const properties: Record<string, unknown> = {};
  if (typeof found.$ref === 'string') Object.assign(properties, propertiesOf(resolveRef(found.$ref, root), root, depth + 1));
  for (const branch of found.allOf ?? []) Object.assign(properties, propertiesOf(branch, root, depth + 1));
  if (found.properties && typeof found.properties === 'object') Object.assign(properties, found.properties);
  return properties;
}

function isOfType(value: unknown, type: string): boolean {
  if (type === 'integer') return Number.isInteger(value);
  if (type === 'null') return value === null;
  if (type === 'array') return Array.isArray(value);
  if (type === 'object') return typeof value === 'object' && value !== null && !Array.isArray(value);
  return typeof value === type;
}
