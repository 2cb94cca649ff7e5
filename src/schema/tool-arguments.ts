/**
 * Tool argument validation, shared by hosts (before a call is queued) and fronts (before a
 * call is sent): zod schemas or JSON Schema 2020-12, with errors that name the field.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ErrorObject, ValidateFunction } from 'ajv/dist/2020.js';
import { z } from 'zod';
import { TetherError } from '../protocol/index.js';

export type JsonSchema = Record<string, unknown>;

/** Returns the validated (for zod: parsed) arguments, or throws INVALID_ARGUMENTS. */
export type ArgumentValidator = (args: Record<string, unknown>) => Record<string, unknown>;

let ajv: Ajv2020 | undefined;

/**
 * Ajv takes ~80 ms to load; `tether mcp` must answer its first tools/list sooner than that
 * matters, so it is loaded on the first JSON Schema validation instead of at start-up.
 */
function schemaCompiler(): Ajv2020 {
  if (!ajv) {
    const { Ajv2020: Compiler } = createRequire(import.meta.url)('ajv/dist/2020.js') as typeof import('ajv/dist/2020.js');
    ajv = new Compiler({ allErrors: false, strict: false, validateFormats: false });
  }
  return ajv;
}

export function argumentValidator(tool: string, schema: z.ZodType | JsonSchema): ArgumentValidator {
  if (schema instanceof z.ZodType) {
    const input = schema;
    return (args) => {
      const parsed = input.safeParse(args);
      if (parsed.success) return parsed.data as Record<string, unknown>;
      const issue = parsed.error.issues[0];
      throw invalidArguments(tool, issue?.path.join('.') ?? '', issue?.message ?? 'invalid');
    };
  }
  let compiled: ValidateFunction;
  try {
    compiled = schemaCompiler().compile(schema);
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

