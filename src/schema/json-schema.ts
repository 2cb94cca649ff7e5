/**
 * The one JSON Schema 2020-12 compiler (Ajv), for tool arguments and tool results alike.
 */
import { createRequire } from 'node:module';
import type { Ajv2020, ValidateFunction } from 'ajv/dist/2020.js';
import { TetherError } from '../protocol/index.js';

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

let warm = false;

/**
 * Loads Ajv and compiles the meta-schema every compile checks a schema against (~40 + ~50 ms,
 * the bulk of a first compile), without compiling any tool's schema. A host calls it as it
 * registers a tool with a JSON Schema, before it says it is ready: paid once per process at
 * start, not by the first call after a restart, which an agent is waiting on.
 */
export function warmSchemaCompiler(): void {
  if (warm) return;
  schemaCompiler().validateSchema({});
  warm = true;
}

/**
 * What is wrong with a JSON Schema itself, if anything, as its check against the 2020-12
 * meta-schema says (Ajv's `validateSchema`, with the meta-schema warmSchemaCompiler compiled):
 * a host asks it as a tool is added, so that a schema that could never compile is refused
 * then, not found by a call. Tens of microseconds a schema, where compiling one costs
 * milliseconds (why tools compile theirs at first use, tool-arguments.ts). It does not see
 * what only a compile meets: a `$ref` that leads nowhere, a `pattern` that is no regular
 * expression (formats are not validated).
 */
export function schemaProblem(schema: Record<string, unknown>): string | undefined {
  warmSchemaCompiler();
  const compiler = schemaCompiler();
  try {
    if (compiler.validateSchema(schema) === true) return undefined;
  } catch (error) {
    // A `$schema` this compiler does not know (draft-07's): compiling would throw the same.
    return (error as Error).message;
  }
  const issue = compiler.errors?.[0];
  const where = issue?.instancePath ? `at ${issue.instancePath}: ` : '';
  const allowed = Array.isArray(issue?.params.allowedValues) ? ` (${(issue.params.allowedValues as unknown[]).map((value) => JSON.stringify(value)).join(', ')})` : '';
  return `${where}${issue?.message ?? 'it is not one'}${allowed}`;
}

/** Validators by schema text: tools are registered again, with the same schemas, at every reload. */
const compiled = new Map<string, ValidateFunction>();
/** Distinct schemas kept compiled; the oldest goes first. Ajv keeps ~4 KB of each compile for good, so a compile saved is memory saved. */
const MAX_COMPILED = 512;

/** One of a tool's schemas, compiled; one that does not compile is the tool's mistake, said as such. */
export function compileToolSchema(tool: string, which: 'input' | 'output', schema: Record<string, unknown>): ValidateFunction {
  const text = JSON.stringify(schema);
  const known = compiled.get(text);
  if (known) return known;
  const compiler = schemaCompiler();
  let validate: ValidateFunction;
  try {
    validate = compiler.compile(schema);
  } catch (error) {
    const reason = (error as Error).message;
    throw new TetherError('INTERNAL_ERROR', `Tool "${tool}" has an invalid ${which} schema: ${reason}`, { tool, reason });
  } finally {
    // The validator keeps what it needs; left registered in Ajv, a tool's schema changed under
    // the same $id (edited, then reloaded) would be refused as a duplicate.
    compiler.removeSchema(schema);
  }
  compiled.set(text, validate);
  if (compiled.size > MAX_COMPILED) compiled.delete(compiled.keys().next().value as string);
  return validate;
}

/** A JSON Pointer segment as the name it stands for (RFC 6901). */
export function unescapePointer(segment: string): string {
  return segment.replaceAll('~1', '/').replaceAll('~0', '~');
}

/** The keys an instance path (Ajv's `/a/0/b~1c`) leads through. */
export function pointerKeys(instancePath: string): string[] {
  return instancePath.split('/').slice(1).map(unescapePointer);
}
