/**
 * The lifter the front's link uses on frames from its host (see protocol/lifted-strings.ts):
 * in a large frame, each long string literal is cut out and stands as a placeholder, so a
 * multi-megabyte tool result goes from the host's socket to the MCP client's pipe as the
 * same bytes, without being decoded, parsed, serialized and encoded again in between.
 *
 * Every lifted literal is checked to be a valid JSON string (UTF-8, no raw control
 * characters, valid escapes) before it is trusted, since it will be written out verbatim; a
 * frame that fails any check is parsed whole instead, which reports the fault precisely.
 */
import { Buffer, isUtf8 } from 'node:buffer';
import { randomBytes } from 'node:crypto';
import { LiftedStrings, type StringLifter } from '../protocol/index.js';

export interface LiftOptions {
  /** Frames smaller than this are parsed whole (the common case costs nothing). */
  minFrameBytes?: number;
  /** Literals at least this long (quotes included) are lifted. */
  minStringBytes?: number;
}

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const utf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * Placeholders are letters and digits only, a multiple of 4 long: valid as text, and valid
 * base64, because the MCP SDK checks image and audio data with atob. The random part makes
 * them impossible to confuse with text a tool returns.
 */
export const PLACEHOLDER_PREFIX = `TETHERLIFTED${randomBytes(12).toString('hex')}`;
export function placeholderFor(index: number): string {
  return `${PLACEHOLDER_PREFIX}${String(index).padStart(8, '0')}`;
}
/** Length of every placeholder (prefix 36 + index 8). */
export const PLACEHOLDER_LENGTH = placeholderFor(0).length;

export function createLongStringLifter(options: LiftOptions = {}): StringLifter {
  const minFrameBytes = options.minFrameBytes ?? 1024 * 1024;
  const minStringBytes = options.minStringBytes ?? 64 * 1024;
  return (body) => (body.length < minFrameBytes ? undefined : liftLongStrings(body, minStringBytes));
}

export function liftLongStrings(body: Uint8Array, minStringBytes: number): ReturnType<StringLifter> {
  const bytes = Buffer.from(body.buffer, body.byteOffset, body.byteLength);
  const literals = new Map<string, Uint8Array>();
  const parts: string[] = [];
  let copiedUpTo = 0;
  // Outside a string, a quote in valid JSON can only open one: hop from string to string.
  for (let at = bytes.indexOf(QUOTE); at >= 0;) {
    const close = closingQuote(bytes, at + 1);
    if (close < 0) return undefined;
    if (close + 1 - at >= minStringBytes && !isKey(bytes, close + 1)) {
      const literal = bytes.subarray(at, close + 1);
      if (!isJsonStringLiteral(literal)) return undefined;
      const placeholder = placeholderFor(literals.size);
      literals.set(placeholder, literal);
      parts.push(utf8.decode(body.subarray(copiedUpTo, at)), `"${placeholder}"`);
      copiedUpTo = close + 1;
    }
    at = bytes.indexOf(QUOTE, close + 1);
  }
  if (literals.size === 0) return undefined;
  parts.push(utf8.decode(body.subarray(copiedUpTo)));
  return { text: parts.join(''), lifted: new LiftedStrings(literals) };
}

/** True when the string that ends before `from` is an object key (a colon follows): keys stay as they are. */
function isKey(bytes: Buffer, from: number): boolean {
  let at = from;
  while (at < bytes.length && WHITESPACE[bytes[at] as number]) at++;
  return bytes[at] === 0x3a;
}

/** The index of the quote that closes a string whose content starts at `from`, or -1. */
function closingQuote(bytes: Buffer, from: number): number {
  for (let at = bytes.indexOf(QUOTE, from); at >= 0; at = bytes.indexOf(QUOTE, at + 1)) {
    let backslashes = 0;
    while (at - backslashes - 1 >= from && bytes[at - backslashes - 1] === BACKSLASH) backslashes++;
    if (backslashes % 2 === 0) return at;
  }
  return -1;
}

/** `"…"` with valid UTF-8, no raw control characters and only valid escapes (RFC 8259 §7). */
function isJsonStringLiteral(literal: Buffer): boolean {
  if (!isUtf8(literal)) return false;
  const end = literal.length - 1;
  const scan = new SpecialByteScan(literal);
  for (let i = scan.next(1, end); i < end; i = scan.next(i, end)) {
    if ((literal[i] as number) < 0x20) return false;
    // A backslash: the next byte says what is escaped.
    const escaped = literal[i + 1] as number;
    if (escaped === 0x75 /* u */) {
      for (let k = 2; k <= 5; k++) if (!IS_HEX[literal[i + k] as number]) return false;
      i += 6;
    } else if (ESCAPABLE[escaped]) i += 2;
    else return false;
  }
  return true;
}

/**
 * Finds the next byte that is a control character or a backslash, four bytes at a time
 * (a byte-at-a-time loop costs about 2 ns a byte: 130 ms for a 64 MB result).
 */
class SpecialByteScan {
  /** The index of the first byte that starts an aligned 32-bit word. */
  private readonly wordStart: number;
  private readonly words: Uint32Array;

  constructor(private readonly bytes: Uint8Array) {
    this.wordStart = (4 - (bytes.byteOffset & 3)) & 3;
    const wordCount = Math.max(0, bytes.length - this.wordStart) >>> 2;
    this.words = wordCount > 0 ? new Uint32Array(bytes.buffer, bytes.byteOffset + this.wordStart, wordCount) : new Uint32Array(0);
  }

  next(from: number, end: number): number {
    const { bytes, words, wordStart } = this;
    let i = from;
    while (i < end) {
      if (i >= wordStart && ((i - wordStart) & 3) === 0 && i + 4 <= end) {
        const word = words[(i - wordStart) >>> 2] as number;
        const xored = word ^ 0x5c5c5c5c; // a zero byte where the word has a backslash
        // Per byte, the high bit is set for a byte below 0x20 or a zero byte (the classic SWAR tests).
        if (((((word - 0x20202020) & ~word) | ((xored - 0x01010101) & ~xored)) & 0x80808080) === 0) {
          i += 4;
          continue;
        }
      }
      const byte = bytes[i] as number;
      if (byte < 0x20 || byte === BACKSLASH) return i;
      i++;
    }
    return end;
  }
}

/** What may follow a backslash: " \\ / b f n r t (and u with four hex digits, checked apart). */
const ESCAPABLE = byteSet('"\\/bfnrt');
const IS_HEX = byteSet('0123456789abcdefABCDEF');
const WHITESPACE = byteSet(' \t\n\r');

function byteSet(chars: string): Uint8Array {
  const set = new Uint8Array(256);
  for (const char of chars) set[char.charCodeAt(0)] = 1;
  return set;
}
