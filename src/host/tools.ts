/**
 * Tool definitions for hosts: a tool is declared with a zod schema or a JSON Schema
 * (2020-12), and the registry turns it into the wire descriptor and a validator that names
 * the offending field.
 */
import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { TetherError, type Content, type DuplicatePolicy, type ElicitResult, type LogLevel, type ToolDescriptor, type ToolResult } from '../protocol/index.js';
import { closestNames } from './suggest.js';

export type JsonSchema = Record<string, unknown>;

/** What a running tool can do besides returning its result. */
export interface ToolContext {
  readonly callId: string;
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
  /** A zod object schema, or a JSON Schema (2020-12) object. */
  input?: z.ZodType<Args> | JsonSchema;
  output?: z.ZodType | JsonSchema;
  annotations?: ToolDescriptor['annotations'];
  execution?: Partial<ToolDescriptor['execution']>;
  handler(args: Args, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

export interface RegisteredTool {
  descriptor: ToolDescriptor;
  /** Returns the validated (and, for zod, transformed) arguments or throws INVALID_ARGUMENTS. */
  validate(args: Record<string, unknown>): Record<string, unknown>;
  handler(args: Record<string, unknown>, context: ToolContext): ToolReturn | Promise<ToolReturn>;
}

const ajv = new Ajv2020({ allErrors: false, strict: false, validateFormats: false });

export function isZodSchema(schema: unknown): schema is z.ZodType {
  return schema instanceof z.ZodType;
}

export function toJsonSchema(schema: z.ZodType | JsonSchema | undefined): JsonSchema {
  if (schema === undefined) return { type: 'object', properties: {} };
  if (!isZodSchema(schema)) return schema;
  const { $schema: _ignored, ...rest } = z.toJSONSchema(schema, { target: 'draft-2020-12', io: 'input' }) as JsonSchema;
  return rest;
}

export function registerTool<Args>(definition: ToolDefinition<Args>): RegisteredTool {
  const inputSchema = toJsonSchema(definition.input as z.ZodType | JsonSchema | undefined);
  const descriptor: ToolDescriptor = {
    name: definition.name,
    ...(definition.title === undefined ? {} : { title: definition.title }),
    description: definition.description,
    inputSchema,
    ...(definition.output === undefined ? {} : { outputSchema: toJsonSchema(definition.output) }),
    annotations: definition.annotations ?? {},
    execution: { longRunning: false, mainThread: true, ...definition.execution },
  };
  return {
    descriptor,
    validate: argumentValidator(definition.name, definition.input as z.ZodType | JsonSchema | undefined, inputSchema),
    handler: definition.handler as RegisteredTool['handler'],
  };
}

/** A registered tool whose handler lives elsewhere (another thread, another process). */
export function registerRemoteTool(descriptor: ToolDescriptor, handler: RegisteredTool['handler']): RegisteredTool {
  return { descriptor, validate: argumentValidator(descriptor.name, undefined, descriptor.inputSchema), handler };
}

function argumentValidator(tool: string, input: z.ZodType | JsonSchema | undefined, schema: JsonSchema): RegisteredTool['validate'] {
  if (isZodSchema(input)) {
    return (args) => {
      const parsed = input.safeParse(args);
      if (parsed.success) return parsed.data as Record<string, unknown>;
      const issue = parsed.error.issues[0];
      throw invalidArguments(tool, issue?.path.join('.') ?? '', issue?.message ?? 'invalid');
    };
  }
  let compiled: ValidateFunction;
  try {
    compiled = ajv.compile(schema);
  } catch (error) {
    throw new TetherError('INTERNAL_ERROR', `Tool "${tool}" has an invalid input schema: ${(error as Error).message}`);
  }
  return (args) => {
    if (compiled(args)) return args;
    const issue = (compiled.errors ?? [])[0] as ErrorObject | undefined;
    throw invalidArguments(tool, fieldOf(issue), issue?.message ?? 'invalid');
  };
}

function fieldOf(issue: ErrorObject | undefined): string {
  if (!issue) return '';
  const path = issue.instancePath.replace(/^\//, '').replaceAll('/', '.');
  const missing = issue.keyword === 'required' ? String(issue.params.missingProperty) : '';
  const extra = issue.keyword === 'additionalProperties' ? String(issue.params.additionalProperty) : '';
  return [path, missing || extra].filter(Boolean).join('.');
}

function invalidArguments(tool: string, field: string, problem: string): TetherError {
  const where = field ? `"${field}"` : 'the arguments';
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for tool "${tool}": ${where} ${problem}. Fix the field and call again; tools/list has the input schema.`, {
    tool,
    field,
    problem,
  });
}

export function unknownTool(name: string, known: Iterable<string>): TetherError {
  const suggestions = closestNames(name, known);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  return new TetherError('UNKNOWN_TOOL', `No tool named "${name}".${hint} tools/list shows every tool.`, { tool: name, suggestions });
}

/** Turns whatever a handler returned into a ToolResult. */
export function toToolResult(value: ToolReturn): ToolResult {
  if (typeof value === 'string') return { content: [{ type: 'text', text: value }] };
  if (value === undefined || value === null) return { content: [] };
  if (isToolResult(value)) return value;
  const text: Content = { type: 'text', text: JSON.stringify(value, null, 2) };
  if (typeof value === 'object' && !Array.isArray(value)) return { content: [text], structuredContent: value as Record<string, unknown> };
  return { content: [text] };
}

function isToolResult(value: unknown): value is ToolResult {
  return typeof value === 'object' && value !== null && Array.isArray((value as { content?: unknown }).content);
}

/** The duplicate policy a tool gets when it does not say: only side-effecting tools are shared. */
export function duplicatePolicyOf(descriptor: ToolDescriptor): DuplicatePolicy {
  if (descriptor.execution.duplicates) return descriptor.execution.duplicates;
  const { readOnlyHint, idempotentHint } = descriptor.annotations;
  return readOnlyHint || idempotentHint ? 'allow' : 'attach';
}
