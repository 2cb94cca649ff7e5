/**
 * Tool definitions for hosts: a tool is declared with a zod schema or a JSON Schema
 * (2020-12), and the registry turns it into the wire descriptor and a validator that names
 * the offending field.
 */
import { z } from 'zod';
import {
  TetherError,
  ToolDescriptor as ToolDescriptorSchema,
  clipped,
  isObject,
  type Agent,
  type Content,
  type DuplicatePolicy,
  type ElicitResult,
  type LogLevel,
  type ToolDescriptor,
  type ToolResult,
} from '../protocol/index.js';
export { unknownTool } from '../schema/suggest.js';
import { schemaProblem } from '../schema/json-schema.js';
import { outputCheck, type OutputCheck } from '../schema/tool-output.js';
import { argumentValidator, isZod3Schema, isZodSchema, strictArguments, takesObject, type ZodSchema } from '../schema/tool-arguments.js';

export type { JsonSchema } from '../schema/tool-arguments.js';
import type { JsonSchema } from '../schema/tool-arguments.js';

/** What a running tool can do besides returning its result. */
export interface ToolContext {
  readonly callId: string;
  /** The agent that asked for the call, when the client said (calls/start's `agent`). */
  readonly agent?: Agent;
  /** Fires when the call is cancelled or passes its deadline. */
  readonly signal: AbortSignal;
  progress(update: { progress?: number; total?: number; message?: string }): void;
  log(level: LogLevel, data: unknown, logger?: string): void;
  /** Asks the human behind the MCP client a question. */
  elicit(message: string, requestedSchema: JsonSchema): Promise<ElicitResult>;
  /** Asks the MCP client's model for a completion (MCP sampling/createMessage params). */
  sample(params: Record<string, unknown>): Promise<unknown>;
}

/** A handler may return a full ToolResult, a string (text), or any JSON value (structured). */
export type ToolReturn = ToolResult | string | Record<string, unknown> | unknown[] | number | boolean | null | undefined;

export interface ToolDefinition<Args = Record<string, unknown>> {
  name: string;
  title?: string;
  description: string;
  /** A zod 4 object schema (classic or `zod/mini`), or a JSON Schema (2020-12) object. */
  input?: ZodSchema<Args> | JsonSchema;
  output?: ZodSchema | JsonSchema;
  annotations?: ToolDescriptor['annotations'];
  execution?: Partial<ToolDescriptor['execution']>;
  handler(args: Args, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

export interface RegisteredTool {
  descriptor: ToolDescriptor;
  /** Returns the validated (and, for zod, transformed) arguments or throws INVALID_ARGUMENTS. */
  validate(args: Record<string, unknown>): Record<string, unknown>;
  handler(args: Record<string, unknown>, context: ToolContext): ToolReturn | Promise<ToolReturn>;
  /** Holds a successful result to the tool's output schema, when it declares one. */
  checkOutput?: OutputCheck;
}

export function toJsonSchema(schema: ZodSchema | JsonSchema | undefined): JsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  if (!isZodSchema(schema)) return schema;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  return rest;
}

/** A tool's input schema as advertised: a zod object that names its arguments refuses others (see strictArguments). */
export function toInputSchema(schema: ZodSchema | JsonSchema | undefined): JsonSchema {
  return toJsonSchema(strictArguments(schema));
}

/** Why a tool cannot be added, said as it is added rather than found later by a client. */
export function cannotAdd(tool: string, problem: string): TetherError {
  return cannotAddEntry('Tool', tool, { tool }, problem);
}

/** Why a tool, resource, template or prompt (`what`, by its `key`) cannot be added: INTERNAL_ERROR, said as it is added. */
export function cannotAddEntry(what: string, key: unknown, data: Record<string, unknown>, problem: string): TetherError {
  return new TetherError('INTERNAL_ERROR', `${what} "${clipped(String(key))}" cannot be added: ${problem}.`, data);
}

/**
 * Tool names every MCP client takes: Claude Desktop takes only `^[a-zA-Z0-9_-]{1,64}$`, Codex
 * only `^[a-zA-Z0-9_-]+$`, and either refuses the whole tool list for one name it does not take.
 */
const TOOL_NAME = /^[A-Za-z0-9_-]{1,64}$/;
/**
 * Tether's own namespace: the fronts' tools (`tether_status`, `tether_use_host`), which a front
 * lists in place of a host tool of the same name, and the conformance kit's
 * (`tether_conformance_*`), which a host exposes when asked (protocol.md §15) and so may add.
 * The C# host's rule too (ToolDefinitionChecks.cs).
 */
const RESERVED_PREFIX = 'tether_';
const KIT_PREFIX = 'tether_conformance_';

/**
 * What is wrong with a tool as a host would list it, if anything: what Host.addTool refuses
 * (besides a name taken already), for a tool from registerTool, registerRemoteTool or built
 * by hand alike.
 */
export function toolProblem(tool: RegisteredTool): string | undefined {
  const { name, description, inputSchema, outputSchema } = tool.descriptor;
  if (typeof name !== 'string' || !TOOL_NAME.test(name)) {
    return 'a tool name is 1 to 64 letters, digits, "_" or "-": Claude Desktop takes no other (^[a-zA-Z0-9_-]{1,64}$), nor Codex one with another character, and each refuses the whole tool list for one such name';
  }
  if (name.toLowerCase().startsWith(RESERVED_PREFIX) && !name.startsWith(KIT_PREFIX)) {
    return `names starting with "${RESERVED_PREFIX}" are Tether's own (tether_status, tether_use_host: a front would list its own tool in place of this one), so choose another name`;
  }
  if (typeof description !== 'string') return 'it has no description (a string that says what it does, for a model to read)';
  if (!takesObject(inputSchema)) return 'its input must be an object\'s schema (a zod object, or JSON Schema with "type": "object"), as MCP requires';
  if (outputSchema !== undefined && !takesObject(outputSchema)) {
    // What the C# host refuses too: MCP's structuredContent is an object (protocol.md §7: ToolResult).
    return 'its output must be an object\'s schema (a zod object, or JSON Schema with "type": "object"), as MCP requires of structuredContent: put a list or a single value in an object, e.g. z.object({ items: z.array(…) })';
  }
  if (typeof tool.handler !== 'function') return 'it has no handler function';
  return hintsProblem(tool.descriptor);
}

/**
 * Annotations and execution held to the protocol's own schema (methods.ts): a typo there
 * (`duplicates: 'Reject'`) would otherwise be advertised as it is and applied as the default.
 */
function hintsProblem(descriptor: ToolDescriptor): string | undefined {
  for (const field of ['annotations', 'execution'] as const) {
    const given: unknown = descriptor[field];
    const parsed = ToolDescriptorSchema.shape[field].safeParse(given);
    if (parsed.success) continue;
    const issue = parsed.error.issues[0];
    const path = [field, ...(issue?.path ?? []).map(String)].join('.');
    if (issue?.code === 'invalid_value') {
      const value = (issue.path ?? []).reduce<unknown>((at, key) => (isObject(at) ? at[String(key)] : undefined), given);
      return `its ${path} is ${shown(value)}, not one of ${issue.values.map(shown).join(', ')}`;
    }
    return `its ${path} is not what the protocol takes (${issue?.message ?? 'invalid'})`;
  }
  return undefined;
}

function shown(value: unknown): string {
  return typeof value === 'string' ? JSON.stringify(value) : String(value);
}

/**
 * The JSON Schema of a tool's input or output, from zod or as given. A zod schema that has no
 * JSON Schema (a `z.date()`, a `z.bigint()`) is the tool's mistake, said as it is added.
 */
function describedSchema(tool: string, which: 'input' | 'output', schema: ZodSchema | JsonSchema | undefined): JsonSchema {
  try {
    return toJsonSchema(schema);
  } catch (error) {
    throw cannotAdd(
      tool,
      `its ${which} cannot be written as JSON Schema, which is what MCP clients read (${errorText(error)}): use JSON types only (a date as z.iso.datetime(), a large integer as a string)`,
    );
  }
}

/**
 * A JSON Schema given as such, checked against the meta-schema as the tool is added: one that
 * could never compile would fail every call (an output schema, after the tool had run).
 */
function checkedSchema(tool: string, which: 'input' | 'output', schema: JsonSchema | undefined): void {
  if (!isObject(schema)) return; // not an object's schema: toolProblem says so
  const problem = schemaProblem(schema);
  if (problem !== undefined) throw cannotAdd(tool, `its ${which} schema is not valid JSON Schema 2020-12: ${problem}`);
}

export function registerTool<Args>(definition: ToolDefinition<Args>): RegisteredTool {
  for (const [which, schema] of [
    ['input', definition.input],
    ['output', definition.output],
  ] as const) {
    // It would be read as a JSON Schema, and its own fields (`_def`, …) make no sense as one.
    if (isZod3Schema(schema))
      throw cannotAdd(definition.name, `its ${which} is a zod 3 schema, which Tether does not read; use zod 4 (the "zod" package at 4 or later, or "zod/v4" in zod 3.25), or a JSON Schema`);
  }
  const input = strictArguments(definition.input as ZodSchema | JsonSchema | undefined);
  const inputSchema = describedSchema(definition.name, 'input', input);
  const outputSchema = definition.output === undefined ? undefined : describedSchema(definition.name, 'output', definition.output);
  // zod writes valid JSON Schema; one given as JSON Schema is checked (and the compiler warmed, as for any).
  if (input !== undefined && !isZodSchema(input)) checkedSchema(definition.name, 'input', inputSchema);
  if (definition.output !== undefined && !isZodSchema(definition.output)) checkedSchema(definition.name, 'output', outputSchema);
  const descriptor: ToolDescriptor = {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema,
    ...(outputSchema === undefined ? {} : { outputSchema }),
    annotations: definition.annotations ?? {},
    execution: { longRunning: false, mainThread: true, ...definition.execution },
  };
  return withOutputCheck({
    descriptor,
    validate: argumentValidator(definition.name, isZodSchema(input) ? input : inputSchema),
    handler: definition.handler as RegisteredTool['handler'],
  });
}

/** A registered tool whose handler lives elsewhere (another thread, another process). */
export function registerRemoteTool(descriptor: ToolDescriptor, handler: RegisteredTool['handler']): RegisteredTool {
  checkedSchema(descriptor.name, 'input', descriptor.inputSchema);
  checkedSchema(descriptor.name, 'output', descriptor.outputSchema);
  return withOutputCheck({ descriptor, validate: argumentValidator(descriptor.name, descriptor.inputSchema), handler });
}

function withOutputCheck(tool: RegisteredTool): RegisteredTool {
  const { name, outputSchema } = tool.descriptor;
  return outputSchema === undefined ? tool : { ...tool, checkOutput: outputCheck(name, outputSchema) };
}

/**
 * Turns whatever a handler returned into a ToolResult. One it returned whole must be well
 * formed, and a successful one must match the tool's output schema (`checkOutput`), if any.
 * Either way it must be one JSON can encode, or no one could receive it: found here, before
 * the call is journaled completed, it is the tool's failure, and the caller hears that it ran.
 */
export function toToolResult(value: ToolReturn, tool = 'the tool', checkOutput?: OutputCheck): ToolResult {
  const whole = isToolResult(value);
  const result = whole ? value : asToolResult(value, tool);
  // A value of its own was encoded already (its JSON is the text content); a whole result is
  // looked through instead, strings unread: a second stringify would cost a 50 MB result dear.
  const problem = (whole ? (malformedContent(value.content) ?? unencodable(value)) : undefined) ?? (checkOutput && !result.isError ? checkOutput(result.structuredContent) : undefined);
  if (problem) throw unreadable(tool, problem);
  return result;
}

/** TOOL_FAILED for a result the tool returned that MCP clients cannot take: its effects have happened. */
function unreadable(tool: string, problem: string): TetherError {
  // Said here, in the editor's terms, rather than as a client's schema error about a result it cannot read.
  return new TetherError(
    'TOOL_FAILED',
    `Tool "${tool}" ran, but returned a result MCP clients cannot read: ${problem}. Its effects have happened: fix the tool's result rather than calling it again.`,
    { tool, problem },
  );
}

function asToolResult(value: Exclude<ToolReturn, ToolResult>, tool: string): ToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  let json: string | undefined;
  try {
    json = JSON.stringify(value, null, 2);
  } catch (error) {
    // Looked through only now that it failed, to say where.
    throw unreadable(tool, unencodable(value) ?? `it cannot be encoded as JSON (${errorText(error)})`);
  }
  if (json === undefined) throw unreadable(tool, `it returned a ${typeof value}, which JSON cannot encode`);
  const text: Content = { type: 'text', text: json };
  if (typeof value === 'object' && !Array.isArray(value)) return { content: [text], structuredContent: value as Record<string, unknown> };
  return { content: [text] };
}

/**
 * What makes a value impossible to write as JSON, if anything: a BigInt, a cycle, a `toJSON`
 * or getter that throws, nesting deeper than the stack. It walks what `JSON.stringify` would
 * (own enumerable keys, what `toJSON` returns) but reads no string: a result holding a 50 MB
 * image costs a few steps, a small one ~0.1 µs, a large structuredContent ~15 ns a value
 * (under half of what its stringify costs).
 */
function unencodable(value: unknown): string | undefined {
  const keys: Key[] = [];
  let problem: 'bigint' | 'cycle' | undefined;
  try {
    problem = firstUnencodable(value, '', [], keys);
  } catch (error) {
    return error instanceof RangeError ? 'it is nested too deeply to be encoded as JSON' : `it cannot be encoded as JSON (${errorText(error)})`;
  }
  if (problem === undefined) return undefined;
  // The keys were gathered on the way back up, the deepest first.
  let path = '';
  for (const key of keys.reverse()) path += typeof key === 'number' ? `[${key}]` : path ? `.${key}` : key;
  const where = path ? ` at "${path}"` : '';
  return problem === 'bigint'
    ? `it holds a BigInt${where}, which JSON cannot encode (return a number, or a string for a large integer)`
    : `it holds a cycle${where} (an object inside itself), which JSON cannot encode`;
}

type Key = string | number;

/**
 * What unencodable looks for, below `item` (`key`: its key in its parent, for its toJSON); on
 * finding it, `keys` gets the path to it, deepest first. A function of the module, with no
 * closure or path string made per value: it runs on every whole result a handler returns.
 */
function firstUnencodable(item: unknown, key: Key, ancestors: object[], keys: Key[]): 'bigint' | 'cycle' | undefined {
  let current = item;
  const type = typeof current;
  if (type === 'string' || type === 'number' || type === 'boolean' || current === null || current === undefined) return undefined;
  if (type === 'object' || type === 'bigint') {
    const toJson = (current as { toJSON?: unknown }).toJSON;
    if (typeof toJson === 'function') current = (toJson as (key: string) => unknown).call(current, String(key));
  }
  if (typeof current === 'bigint') return 'bigint';
  if (typeof current !== 'object' || current === null) return undefined;
  if (ancestors.includes(current)) return 'cycle';
  ancestors.push(current);
  if (Array.isArray(current)) {
    for (let i = 0; i < current.length; i++) {
      const problem = firstUnencodable(current[i], i, ancestors, keys);
      if (problem !== undefined) {
        keys.push(i);
        return problem;
      }
    }
  } else {
    for (const name in current) {
      if (!Object.hasOwn(current, name)) continue;
      const problem = firstUnencodable((current as Record<string, unknown>)[name], name, ancestors, keys);
      if (problem !== undefined) {
        keys.push(name);
        return problem;
      }
    }
  }
  ancestors.pop();
  return undefined;
}

/** What was thrown, as text, whatever it was. */
function errorText(error: unknown): string {
  try {
    return error instanceof Error ? error.message : String(error);
  } catch {
    return 'an error that cannot be shown as text';
  }
}

/** Fields each MCP content type must have, as strings (other types pass: a newer MCP may have them). */
const REQUIRED_STRINGS: Record<string, readonly string[]> = {
  text: ['text'],
  image: ['data', 'mimeType'],
  audio: ['data', 'mimeType'],
  resource_link: ['uri', 'name'],
};

/** What is wrong with a result's content, if anything. */
function malformedContent(content: unknown[]): string | undefined {
  for (const [index, item] of content.entries()) {
    if (typeof item !== 'object' || item === null || typeof (item as { type?: unknown }).type !== 'string') return `content[${index}] is not an object with a "type"`;
    const { type } = item as { type: string };
    for (const field of REQUIRED_STRINGS[type] ?? []) {
      if (typeof (item as Record<string, unknown>)[field] !== 'string') return `content[${index}] (${type}) needs "${field}" as a string`;
    }
    if (type === 'resource' && (typeof (item as { resource?: unknown }).resource !== 'object' || (item as { resource?: unknown }).resource === null)) {
      return `content[${index}] (resource) needs "resource" as an object`;
    }
  }
  return undefined;
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/**
 * The duplicate policy a tool gets when it does not say (protocol.md §8.10): a long-running
 * tool with side effects is shared, so that a client re-sending a build it thinks lost joins
 * the build in flight; any other runs each call. A short tool is long done by the time a
 * client gives up on it, while an agent that makes identical calls at once (two undos, three
 * identical enemies) means each of them.
 */
export function duplicatePolicyOf(descriptor: ToolDescriptor): DuplicatePolicy {
  if (descriptor.execution.duplicates) return descriptor.execution.duplicates;
  const { readOnlyHint, idempotentHint } = descriptor.annotations;
  return !readOnlyHint && !idempotentHint && descriptor.execution.longRunning === true ? 'attach' : 'allow';
}
