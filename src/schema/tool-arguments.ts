/**
 * Tool argument validation, shared by hosts (before a call is queued) and fronts (before a
 * call is sent): zod schemas or JSON Schema 2020-12, with errors that name the field.
 */
import type { ErrorObject } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { TetherError, isObject } from '../protocol/index.js';
import { compileToolSchema, warmSchemaCompiler, pointerKeys, unescapePointer } from './json-schema.js';
import { closestNames } from './suggest.js';

export type JsonSchema = Record<string, unknown>;

/** Returns the validated (for zod: parsed) arguments, or throws INVALID_ARGUMENTS. */
export type ArgumentValidator = (args: Record<string, unknown>) => Record<string, unknown>;

/**
 * Whether a tool's (JSON Schema) input is an object's, as MCP requires of every tool: a client
 * may refuse a whole tool list for one that is not.
 */
export function takesObject(inputSchema: unknown): boolean {
  return isObject(inputSchema) && inputSchema.type === 'object';
}

/**
 * A zod 4 schema, classic or `zod/mini`, from this copy of zod or from the host's own: zod's
 * functions (`z.safeParse`, `z.toJSONSchema`) read any of them, but `instanceof` knows only
 * the classes of one copy, and `zod/mini`'s are not classic ones.
 */
export type ZodSchema<Output = unknown> = z.core.$ZodType<Output>;

export function isZodSchema(schema: unknown): schema is ZodSchema {
  return isObject(schema) && isObject(schema._zod) && isObject(schema._zod.def);
}

/** A zod 3 schema, which has no `_zod`: its shape is nothing Tether can read. */
export function isZod3Schema(schema: unknown): boolean {
  return isObject(schema) && !('_zod' in schema) && isObject(schema._def) && typeof schema.safeParse === 'function';
}

/** What zod says a schema is, and the parts named in its definition. */
function zodDef(schema: unknown): { type?: string; [part: string]: unknown } | undefined {
  return isZodSchema(schema) ? (schema._zod.def as { type?: string }) : undefined;
}

/**
 * A tool's zod arguments object as Tether validates and advertises it: a top-level
 * `z.object` in zod's default (strip) mode, which would drop keys it does not name, refuses
 * them instead, so an agent that misspells an argument hears so instead of getting a call
 * that silently ignored it. One that takes more (`z.looseObject`, `.catchall()`) keeps its
 * choice; nested objects, and a top level wrapped in `.optional()` or `.default()`, are the
 * tool's own business.
 */
export function strictArguments<Schema>(schema: Schema): Schema {
  const def = zodDef(schema);
  // What `.strict()` does, for a `zod/mini` object too (which has no such method).
  return def?.type === 'object' && def.catchall === undefined ? (z.core.clone(schema as ZodSchema, { ...def, catchall: z.never() } as never) as Schema) : schema;
}

export function argumentValidator(tool: string, schema: ZodSchema | JsonSchema): ArgumentValidator {
  if (isZodSchema(schema)) {
    const input = schema;
    return (args) => {
      const parsed = z.safeParse(input, args);
      if (parsed.success) return parsed.data as Record<string, unknown>;
      // A misspelled required argument is both missing and unknown: the unknown key says more.
      const issue = parsed.error.issues.find((i) => i.code === 'unrecognized_keys') ?? parsed.error.issues[0];
      const path = (issue?.path ?? []).map(String);
      if (issue?.code === 'unrecognized_keys') {
        const shape = zodShapeAt(input, path);
        throw unknownArgument(tool, [...path, issue.keys[0] ?? ''], shape && Object.keys(shape));
      }
      const parent = valueAt(args, path.slice(0, -1));
      if (issue?.code === 'invalid_type' && path.length > 0 && isObject(parent) && !Object.hasOwn(parent, path.at(-1) ?? '')) throw invalidArguments(tool, path.join('.'), 'is required but missing');
      throw invalidArguments(tool, path.join('.'), issue?.message ?? 'invalid');
    };
  }
  // Compiled at the first call, not at registration: an editor registers every tool at each
  // start and reload, and a `tether call` process checks one tool; ajv's compile of all of
  // them cost ~300 ms of the sandbox's start and ~250 ms of each `tether call`. The compiler
  // itself is warmed now (~90 ms, once per process): left to the first call, it would delay
  // the call an agent waits on after a restart.
  warmSchemaCompiler();
  let compiled: ReturnType<typeof compileToolSchema> | undefined;
  return (args) => {
    compiled ??= compileToolSchema(tool, 'input', schema);
    if (compiled(args)) return args;
    const issue = (compiled.errors ?? [])[0] as ErrorObject | undefined;
    const path = issue ? pointerKeys(issue.instancePath) : [];
    // The object schema the issue is about (found when the schema path leads there plainly).
    const node = issue ? jsonSchemaAt(schema, issue.schemaPath.split('/').slice(1, -1)) : undefined;
    const known = node && Object.keys(isObject(node.properties) ? node.properties : {});
    if (issue?.keyword === 'additionalProperties') throw unknownArgument(tool, [...path, String(issue.params.additionalProperty)], known);
    if (issue?.keyword === 'required') {
      const missing = String(issue.params.missingProperty);
      // Missing because misspelled: where extra keys are refused, a key the schema does not
      // name that is close to the missing one says more than "missing".
      const given = valueAt(args, path);
      const refusesExtra = node?.additionalProperties === false;
      const misspelled = refusesExtra && known && isObject(given) ? Object.keys(given).find((key) => !known.includes(key) && closestNames(key, [missing]).length > 0) : undefined;
      if (misspelled !== undefined) throw unknownArgument(tool, [...path, misspelled], known);
      throw invalidArguments(tool, [...path, missing].join('.'), 'is required but missing');
    }
    if (issue?.keyword === 'enum') {
      const allowed = (issue.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ');
      throw invalidArguments(tool, path.join('.'), `must be one of ${allowed}`);
    }
    throw invalidArguments(tool, path.join('.'), issue?.message ?? 'invalid');
  };
}

/** An argument the schema does not name, with the names it does that come closest (`known`: undefined when they could not be found). */
function unknownArgument(tool: string, path: string[], known: string[] | undefined): TetherError {
  const name = path.at(-1) ?? '';
  const suggestions = closestNames(name, known ?? []);
  const listed = (names: string[]): string => names.map((n) => `"${n}"`).join(', ');
  const hint =
    known === undefined ? '' : suggestions.length > 0 ? ` (did you mean ${listed(suggestions)}?)` : known.length > 0 ? ` (the arguments here are ${listed(known)})` : ' (none are taken here)';
  return invalidArguments(tool, path.join('.'), `is not an argument of this tool${hint}`, { suggestions });
}

/** The shape of the zod object at `path` inside `schema` (through wrappers and array items), if it is one. */
function zodShapeAt(schema: ZodSchema, path: string[]): Record<string, unknown> | undefined {
  let current: unknown = schema;
  for (let depth = 0; ; depth++) {
    const def = zodDef(unwrapped(current));
    const shape = def?.type === 'object' && isObject(def.shape) ? def.shape : undefined;
    if (depth === path.length) return shape;
    const key = path[depth] as string;
    if (shape) current = shape[key];
    else if (def?.type === 'array' && /^\d+$/.test(key)) current = def.element;
    else return undefined;
  }
}

/** What wraps a value's own schema, and where each keeps the schema it wraps. */
const WRAPPED: Record<string, string> = {
  optional: 'innerType',
  nullable: 'innerType',
  default: 'innerType',
  prefault: 'innerType',
  nonoptional: 'innerType',
  readonly: 'innerType',
  catch: 'innerType',
  pipe: 'in',
};

/** A schema without what wraps the value's own schema: optional, nullable, default, readonly, catch, lazy, a pipe's input. */
function unwrapped(schema: unknown): unknown {
  let current = schema;
  for (let def = zodDef(current); def?.type !== undefined; def = zodDef(current)) {
    if (def.type === 'lazy') current = (def as { getter(): unknown }).getter();
    else if (Object.hasOwn(WRAPPED, def.type)) current = def[WRAPPED[def.type] as string];
    else break;
  }
  return current;
}

/** The subschema at a JSON Schema path (`properties/a`), for schemas without $ref. */
function jsonSchemaAt(schema: JsonSchema, path: string[]): JsonSchema | undefined {
  let current: unknown = schema;
  for (const key of path) current = isObject(current) ? current[unescapePointer(decodeURIComponent(key))] : undefined;
  return isObject(current) ? current : undefined;
}

/** The value at a path of keys inside the arguments. */
function valueAt(args: unknown, path: string[]): unknown {
  let current = args;
  for (const key of path) current = isObject(current) ? current[key] : undefined;
  return current;
}

/** INVALID_ARGUMENTS for one field, worded as every tool's argument errors are. */
export function invalidArguments(tool: string, field: string, problem: string, more: Record<string, unknown> = {}): TetherError {
  const where = field ? `"${field}"` : 'the arguments';
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for tool "${tool}": ${where} ${problem}. Fix the field and call again; tools/list has the input schema.`, {
    tool,
    field,
    problem,
    ...more,
  });
}
