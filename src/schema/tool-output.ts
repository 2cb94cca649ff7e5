/**
 * A tool's output schema, held to its results as MCP clients hold them: a successful result
 * of a tool that declares one must carry structuredContent that conforms. A client refuses
 * one that does not with a protocol error, after the tool's effects have happened; checked
 * here, the host can say instead that the tool ran and its result is what needs fixing.
 */
import { compileToolSchema, warmSchemaCompiler, pointerKeys } from './json-schema.js';
import type { JsonSchema } from './tool-arguments.js';

/** What is wrong with a successful result's structuredContent, if anything. */
export type OutputCheck = (structuredContent: unknown) => string | undefined;

export function outputCheck(tool: string, schema: JsonSchema): OutputCheck {
  // Compiled at the first result, as input schemas are at the first call; the compiler warmed now (tool-arguments.ts says why).
  warmSchemaCompiler();
  let compiled: ReturnType<typeof compileToolSchema> | undefined;
  return (structuredContent) => {
    if (structuredContent === undefined) return 'it declares an output schema but returned no structuredContent';
    compiled ??= compileToolSchema(tool, 'output', schema);
    if (compiled(structuredContent)) return undefined;
    const issue = compiled.errors?.[0];
    const where = ['structuredContent', ...pointerKeys(issue?.instancePath ?? '')].join('.');
    return `its structuredContent does not match its output schema: ${where} ${issue?.message ?? 'is invalid'}`;
  };
}
