/**
 * The JSON of the tool result nearly every call has, written from its known shape: text
 * content, maybe structured content and isError, its keys in the MCP schema's order. On
 * Node 20 the generic `JSON.stringify` of even a one-text result takes ~7k instructions (a
 * lookup per key of every object), where only its strings need the stringifier's care. A
 * host writes one for every calls/start answer, and `tether mcp`'s fast path one for every
 * response; both write the very bytes `JSON.stringify` would (the tests hold them to it),
 * and leave any other result to it.
 */
import { LONG_STRING_CHARS, jsonText, quoteJson } from './json-parts.js';
import { isPlainObject } from './plain-object.js';

/** A result of the common shape (see isCommonToolResult). */
export interface CommonToolResult {
  content: Array<{ type: 'text'; text: string }>;
  structuredContent?: Record<string, unknown>;
  isError?: boolean;
}

/** The MCP schema's order of a result's keys, for the keys the common shape has. */
const RESULT_KEYS = ['content', 'structuredContent', 'isError'] as const;

/**
 * True for a plain result with only the common shape's keys, in the schema's order: text
 * items of exactly `type` then `text`, plain structured content, a boolean isError. The MCP
 * SDK's schema parse returns such a result as it is (it rebuilds others in its key order and
 * drops keys it does not know), and `JSON.stringify` writes it as commonToolResultJson does.
 */
export function isCommonToolResult(result: unknown): result is CommonToolResult {
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
  // A toJSON of its own would be called with another key here than inside the whole result.
  if (structuredContent !== undefined && (!isPlainObject(structuredContent) || Object.hasOwn(structuredContent, '__proto__') || 'toJSON' in structuredContent)) return false;
  return isError === undefined || typeof isError === 'boolean';
}

/**
 * `JSON.stringify(result)`, or undefined when the result holds a long string (a text of
 * LONG_STRING_CHARS or more, or one in its structured content), which a sender encodes in
 * slices (json-parts.ts) or leaves to `JSON.stringify` whole.
 */
export function commonToolResultJson(result: CommonToolResult): string | undefined {
  let json = '{';
  // In the result's own key order (the schema's), leaving out keys whose value is undefined, as stringify does.
  for (const key in result) {
    if (key === 'content') {
      const content = contentJson(result.content);
      if (content === undefined) return undefined;
      json += `${json.length > 1 ? ',' : ''}"content":${content}`;
    } else if (key === 'structuredContent' && result.structuredContent !== undefined) {
      const structured = jsonText(result.structuredContent);
      if (structured === undefined) return undefined;
      json += `${json.length > 1 ? ',' : ''}"structuredContent":${structured}`;
    } else if (key === 'isError' && result.isError !== undefined) {
      json += `${json.length > 1 ? ',' : ''}"isError":${result.isError ? 'true' : 'false'}`;
    }
  }
  return `${json}}`;
}

function contentJson(content: CommonToolResult['content']): string | undefined {
  let json = '[';
  for (let i = 0; i < content.length; i++) {
    const { text } = content[i] as { text: string };
    if (text.length >= LONG_STRING_CHARS) return undefined;
    json += `${i > 0 ? ',' : ''}{"type":"text","text":${quoteJson(text)}}`;
  }
  return `${json}]`;
}
