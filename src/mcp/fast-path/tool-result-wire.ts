/**
 * A tools/call result as the SDK would put it on the wire in the 2025 era. The SDK's Server
 * parses every result with its zod schema before sending it, and the parse rebuilds objects
 * in the schema's key order and drops keys the schema does not know, so bytes written without
 * it could differ. The common result (text content, maybe structured content and isError,
 * keys already in the schema's order) comes out of that parse unchanged, and is recognized
 * here without running it; any other result is parsed with the SDK's own schema, as the SDK
 * would.
 */
import { specTypeSchemas, type CallToolResult } from '@modelcontextprotocol/server';
import { isPlainObject } from './fast-call-request.js';

/**
 * The SDK's schema for the result. Typed as a Standard Schema, it is a zod schema, and the
 * SDK's error message is the zod error's text, which the Standard Schema issues do not give.
 */
const callToolResultSchema = specTypeSchemas.CallToolResult as unknown as {
  safeParse(value: unknown): { success: true; data: unknown } | { success: false; error: unknown };
};

/**
 * The result as the SDK would send it; `json`, when set, is `JSON.stringify(value)`, written
 * out here for the common result (see resultJson).
 */
export type WireResult = { ok: true; value: CallToolResult; json?: string } | { ok: false; message: string };

/** The SDK's result checks, in its words (see Server._wrapHandler for tools/call). */
export function wireToolResult(result: CallToolResult): WireResult {
  if (unchangedByParse(result)) return { ok: true, value: result, json: resultJson(result) };
  const normalized = withEmptyContent(result);
  const parsed = callToolResultSchema.safeParse(normalized);
  return parsed.success ? { ok: true, value: parsed.data as CallToolResult } : { ok: false, message: `Invalid tools/call result: ${String(parsed.error)}` };
}

/**
 * `JSON.stringify` of a result `unchangedByParse` accepted, built from its known shape: on
 * Node 20 the generic stringify of even a one-text result took ~7k instructions (a lookup per
 * key of every object), where its strings and the structured content are all that need it.
 */
function resultJson(result: CallToolResult): string {
  let json = '{';
  // In the result's own key order (the schema's), leaving out keys whose value is undefined, as stringify does.
  for (const key in result) {
    if (key === 'content') json += `${json.length > 1 ? ',' : ''}"content":${contentJson(result.content as Array<{ text: string }>)}`;
    else if (key === 'structuredContent' && result.structuredContent !== undefined) json += `${json.length > 1 ? ',' : ''}"structuredContent":${JSON.stringify(result.structuredContent)}`;
    else if (key === 'isError' && result.isError !== undefined) json += `${json.length > 1 ? ',' : ''}"isError":${result.isError ? 'true' : 'false'}`;
  }
  return `${json}}`;
}

/** Text items only (`unchangedByParse` checked them: `type` then `text`, both strings). */
function contentJson(content: Array<{ text: string }>): string {
  let json = '[';
  for (let i = 0; i < content.length; i++) json += `${i > 0 ? ',' : ''}{"type":"text","text":${JSON.stringify((content[i] as { text: string }).text)}}`;
  return `${json}]`;
}

/** The SDK gives a result without content an empty one (normalizeContentlessToolResult). */
function withEmptyContent(result: CallToolResult): CallToolResult {
  const foreign = ['task', 'toolResult'];
  if (!isPlainObject(result) || result.content !== undefined || foreign.some((key) => key in result)) return result;
  return { ...result, content: [] };
}

/** The schema's order of a result's keys, for the keys this check knows. */
const RESULT_KEYS = ['content', 'structuredContent', 'isError'] as const;

/**
 * True when the schema's parse would return `result` as it is: only keys it knows, in its
 * order, of the types it keeps. `_meta` and any content but text are left to the parse.
 */
function unchangedByParse(result: CallToolResult): boolean {
  if (!isPlainObject(result)) return false;
  let next = 0;
  for (const key in result) {
    const at = RESULT_KEYS.indexOf(key as (typeof RESULT_KEYS)[number], next);
    if (at < 0) return false;
    next = at + 1;
  }
  const { content, structuredContent, isError } = result;
  if (!Array.isArray(content)) return false;
  for (const item of content as unknown[]) {
    if (!isPlainObject(item)) return false;
    let keys = 0;
    for (const key in item) {
      if (key !== (keys === 0 ? 'type' : 'text')) return false;
      keys++;
    }
    if (keys !== 2 || item.type !== 'text' || typeof item.text !== 'string') return false;
  }
  if (structuredContent !== undefined && (!isPlainObject(structuredContent) || Object.hasOwn(structuredContent, '__proto__'))) return false;
  return isError === undefined || typeof isError === 'boolean';
}
