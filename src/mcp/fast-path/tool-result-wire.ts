/**
 * A tools/call result as the SDK would put it on the wire in the 2025 era. The SDK's Server
 * parses every result with its zod schema before sending it, and the parse rebuilds objects
 * in the schema's key order and drops keys the schema does not know, so bytes written without
 * it could differ. The common result (text content, maybe structured content and isError,
 * keys already in the schema's order) comes out of that parse unchanged, and is recognized
 * here without running it (protocol/tool-result-json.ts); any other result is parsed with the
 * SDK's own schema, as the SDK would.
 */
import { specTypeSchemas, type CallToolResult } from '@modelcontextprotocol/server';
import { isPlainObject } from '../../protocol/plain-object.js';
import { commonToolResultJson, isCommonToolResult } from '../../protocol/tool-result-json.js';

/**
 * The SDK's schema for the result. Typed as a Standard Schema, it is a zod schema, and the
 * SDK's error message is the zod error's text, which the Standard Schema issues do not give.
 */
const callToolResultSchema = specTypeSchemas.CallToolResult as unknown as {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
};

/**
 * The result as the SDK would send it; `json`, when set, is `JSON.stringify(value)`, written
 * from the common result's shape (unset when it holds a long string).
 */
export type WireResult = { ok: true; value: CallToolResult; json?: string } | { ok: false; message: string };

/** The SDK's result checks, in its words (see Server._wrapHandler for tools/call). */
export function wireToolResult(result: CallToolResult): WireResult {
  if (isCommonToolResult(result)) return { ok: true, value: result, json: commonToolResultJson(result) };
  const normalized = withEmptyContent(result);
  const parsed = callToolResultSchema.safeParse(normalized);
  return parsed.success ? { ok: true, value: parsed.data as CallToolResult } : { ok: false, message: `Invalid tools/call result: ${String(parsed.error)}` };
}

/** The SDK gives a result without content an empty one (normalizeContentlessToolResult). */
function withEmptyContent(result: CallToolResult): CallToolResult {
  const foreign = ['task', 'toolResult'];
  if (!isPlainObject(result) || result.content !== undefined || foreign.some((key) => key in result)) return result;
  return { ...result, content: [] };
}
