/**
 * The JSON of a value: its text, or, for a value holding a long string (a 50 MB tool result
 * is one), its UTF-8 bytes in parts: the rest of the value as JSON, and each long string
 * encoded slice by slice between its quotes. `JSON.stringify` of a whole 50 MB string builds it in the young
 * generation, where every scavenge copies what is built so far, and `TextEncoder.encode` then
 * copies it once more; slices keep every intermediate small, and a slice that needs no
 * escaping (any base64 image) skips `JSON.stringify` altogether. The bytes are the same
 * either way.
 */
import { JsonParams, messageAround, responseAround } from './json-params.js';
import type { NotificationMessage, RequestMessage, SuccessResponse } from './messages.js';

const encoder = new TextEncoder();

/** Strings at least this long (in UTF-16 code units) are encoded on their own, in slices. */
export const LONG_STRING_CHARS = 64 * 1024;
/** How much of a long string is encoded at a time. */
const SLICE_CHARS = 1024 * 1024;
/**
 * How many values are looked at for a long string: results sit near the top, and a value too
 * big to look through is encoded whole (correct, only slower if large).
 */
const SEARCH_BUDGET = 1_000;
/**
 * What needs more than the character itself in JSON: quote, backslash and control
 * characters are escaped, and a lone surrogate is written as \uXXXX (surrogate pairs also
 * match here, and take the careful path, which keeps them).
 */
// eslint-disable-next-line no-control-regex -- control characters are what JSON escapes
const NEEDS_ESCAPE = /["\\\u0000-\u001f\ud800-\udfff]/;
/**
 * Stands in the value's JSON for each long string until it is spliced in. The lone
 * surrogates make it unlike any text: JSON.stringify writes them as \udc00. A string of the
 * value that happens to equal it is detected (one stand-in too many) and the value is then
 * encoded whole.
 */
export const STAND_IN = '\udc00tether:long-string\udc00';
const QUOTED_STAND_IN = JSON.stringify(STAND_IN);
const QUOTE = encoder.encode('"');

/** `JSON.stringify(value)`, or its UTF-8 bytes in parts when the value holds a long string. */
export function jsonBody(value: unknown): string | Uint8Array[] {
  const message = value as { params?: unknown; result?: unknown } | null;
  const params = message?.params;
  if (params instanceof JsonParams) return messageAround(value as RequestMessage | NotificationMessage, params.json);
  const result = message?.result;
  if (result instanceof JsonParams) return responseAround(value as SuccessResponse, result.json);
  visitsLeft = SEARCH_BUDGET;
  return (holdsLongString(value) && encodeAroundLongStrings(value)) || JSON.stringify(value);
}

/**
 * `JSON.stringify(text)` of a string. Most strings a sender writes (ids, names) need no
 * escaping, and a test of the expression is about a third of the cost of `JSON.stringify`,
 * whose every call pays ~2k instructions before the first character.
 */
export function quoteJson(text: string): string {
  return NEEDS_ESCAPE.test(text) ? JSON.stringify(text) : `"${text}"`;
}

/**
 * `JSON.stringify(value)`, or undefined when the value holds a long string: for a sender that
 * writes the JSON around a value itself (see JsonParams), and leaves a value that holds one to
 * jsonBody, which encodes it in slices.
 */
export function jsonText(value: unknown): string | undefined {
  visitsLeft = SEARCH_BUDGET;
  return holdsLongString(value) ? undefined : JSON.stringify(value);
}

/**
 * Appends the UTF-8 bytes of `JSON.stringify(text)` to `parts`, a slice at a time. Exported for
 * its tests, which use tiny slices.
 */
export function encodeJsonString(text: string, parts: Uint8Array[], sliceChars = SLICE_CHARS): void {
  parts.push(QUOTE);
  for (let from = 0; from < text.length;) {
    let to = Math.min(from + sliceChars, text.length);
    // Never between the halves of a surrogate pair: each alone would be escaped as a lone one.
    if (splitsPair(text, to)) to = to - 1 > from ? to - 1 : to + 1;
    const slice = text.slice(from, to);
    if (!NEEDS_ESCAPE.test(slice)) parts.push(encoder.encode(slice));
    else {
      const quoted = encoder.encode(JSON.stringify(slice));
      parts.push(quoted.subarray(1, quoted.length - 1));
    }
    from = to;
  }
  parts.push(QUOTE);
}

/**
 * The body's parts with each long string encoded on its own, or undefined to encode it whole.
 * A replacer makes V8 leave its fast path for the whole value: the rest of a message that holds
 * a long string is stringified more slowly (2.5× for 100,000 small objects beside it).
 */
function encodeAroundLongStrings(value: unknown): Uint8Array[] | undefined {
  const long: string[] = [];
  const json = JSON.stringify(value, (_key, item: unknown) => {
    if (typeof item !== 'string' || item.length < LONG_STRING_CHARS) return item;
    long.push(item);
    return STAND_IN;
  });
  const parts: Uint8Array[] = [];
  let from = 0;
  let used = 0;
  for (let at = json.indexOf(QUOTED_STAND_IN); at >= 0; at = json.indexOf(QUOTED_STAND_IN, from)) {
    const text = long[used++];
    if (text === undefined) return undefined; // some other string looked like a stand-in
    parts.push(encoder.encode(json.slice(from, at)));
    encodeJsonString(text, parts);
    from = at + QUOTED_STAND_IN.length;
  }
  parts.push(encoder.encode(json.slice(from)));
  return parts;
}

/** Values holdsLongString may still look at (it runs on every message: no allocation). */
let visitsLeft = 0;

/**
 * Whether a string of at least LONG_STRING_CHARS is in `value`, within `visitsLeft` values.
 * Messages are plain JSON data: own enumerable properties, no getters.
 */
function holdsLongString(value: unknown): boolean {
  if (--visitsLeft < 0) return false;
  if (typeof value === 'string') return value.length >= LONG_STRING_CHARS;
  if (value === null || typeof value !== 'object') return false;
  if (Array.isArray(value)) {
    for (const item of value) {
      if (holdsLongString(item)) return true;
      if (visitsLeft < 0) return false;
    }
  } else {
    for (const key in value) {
      if (holdsLongString((value as Record<string, unknown>)[key])) return true;
      if (visitsLeft < 0) return false;
    }
  }
  return false;
}

/** Whether `at` falls between a high surrogate and the low one that completes it. */
function splitsPair(text: string, at: number): boolean {
  if (at <= 0 || at >= text.length) return false;
  const high = text.charCodeAt(at - 1);
  const low = text.charCodeAt(at);
  return high >= 0xd800 && high <= 0xdbff && low >= 0xdc00 && low <= 0xdfff;
}
