/**
 * Tool definitions for hosts: a tool is declared with a zod schema or a JSON Schema
 * (2020-12), and the registry turns it into the wire descriptor and a validator that names
 * the offending field.
 */
import { z } from 'zod';
import { TetherError, type Agent, type Content, type DuplicatePolicy, type ElicitResult, type LogLevel, type ToolDescriptor, type ToolResult } from '../protocol/index.js';
export { unknownTool } from '../schema/suggest.js';
import { outputCheck, type OutputCheck } from '../schema/tool-output.js';
import { argumentValidator, isZod3Schema, isZodSchema, strictArguments, type ZodSchema } from '../schema/tool-arguments.js';

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
  return new TetherError('INTERNAL_ERROR', `Tool "${tool}" cannot be added: ${problem}.`, { tool });
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
  const inputSchema = toJsonSchema(input);
  const descriptor: ToolDescriptor = {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema,
    ...(definition.output === undefined ? {} : { outputSchema: toJsonSchema(definition.output) }),
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
  return withOutputCheck({ descriptor, validate: argumentValidator(descriptor.name, descriptor.inputSchema), handler });
}

function withOutputCheck(tool: RegisteredTool): RegisteredTool {
  const { name, outputSchema } = tool.descriptor;
  return outputSchema === undefined ? tool : { ...tool, checkOutput: outputCheck(name, outputSchema) };
}

/**
 * Turns whatever a handler returned into a ToolResult. One it returned whole must be well
 * formed, and a successful one must match the tool's output schema (`checkOutput`), if any.
 */
export function toToolResult(value: ToolReturn, tool = 'the tool', checkOutput?: OutputCheck): ToolResult {
  const result = asToolResult(value);
  const problem = (isToolResult(value) ? malformedContent(value.content) : undefined) ?? (checkOutput && !result.isError ? checkOutput(result.structuredContent) : undefined);
  if (problem) {
    // Said here, in the editor's terms, rather than as a client's schema error about a result it cannot read.
    throw new TetherError(
      'TOOL_FAILED',
      `Tool "${tool}" ran, but returned a result MCP clients cannot read: ${problem}. Its effects have happened: fix the tool's result rather than calling it again.`,
      { tool, problem },
    );
  }
  return result;
}

function asToolResult(value: ToolReturn): ToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isToolResult(value)) return value;
  const text: Content = { type: 'text', text: JSON.stringify(value, null, 2) };
  if (typeof value === 'object' && !Array.isArray(value)) return { content: [text], structuredContent: value as Record<string, unknown> };
  return { content: [text] };
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
