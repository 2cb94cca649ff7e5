/** Content-Length framing, writing side: a message becomes a header and a UTF-8 body. */
import { TetherError } from './errors.js';
import { concat } from './frame-decoder.js';
import { LONG_STRING_CHARS, jsonBody } from './json-parts.js';
import type { Message } from './messages.js';

const encoder = new TextEncoder();
/** Any character past ASCII, which takes more than one byte in UTF-8. */
// eslint-disable-next-line no-control-regex -- the range starts at U+0000 to hold all of ASCII
const NON_ASCII = /[^\u0000-\u007f]/;

/** Counts the bytes a string takes in UTF-8. */
export type Utf8Length = (text: string) => number;

/**
 * A frame ready to write. An ordinary message is one string, header and body, which a socket
 * encodes straight into a single write: no typed arrays to allocate and free, no cork, no
 * writev. A large one (or one holding long strings) is its UTF-8 bytes in parts, header first.
 */
export type Frame = string | readonly Uint8Array[];

/**
 * Serializes a message into a frame; refuses bodies over the limit before sending anything.
 * `utf8Length` may be the runtime's own count (a ByteStream's), which is faster still.
 */
export function encodeFrame(message: Message, maxFrameBytes: number, utf8Length: Utf8Length = portableUtf8Length): Frame {
  const body = jsonBody(message);
  if (typeof body === 'string' && body.length < LONG_STRING_CHARS) {
    const length = utf8Length(body);
    refuseOversize(length, maxFrameBytes);
    return `Content-Length: ${length}\r\n\r\n${body}`;
  }
  const parts = typeof body === 'string' ? [encoder.encode(body)] : body;
  let length = 0;
  for (const part of parts) length += part.length;
  refuseOversize(length, maxFrameBytes);
  return [encoder.encode(`Content-Length: ${length}\r\n\r\n`), ...parts];
}

/** The bytes of a frame, for streams that move bytes rather than strings (and for tests). */
export function frameBytes(frame: Frame): Uint8Array {
  return typeof frame === 'string' ? encoder.encode(frame) : concat(frame);
}

function refuseOversize(length: number, maxFrameBytes: number): void {
  if (length <= maxFrameBytes) return;
  throw new TetherError(
    'FRAME_TOO_LARGE',
    `Outgoing message of ${length} bytes exceeds the ${maxFrameBytes}-byte frame limit. Return a smaller result (for example, write large data to a file and return its path).`,
    { length, maxFrameBytes },
  );
}

/**
 * The UTF-8 length of the text JSON.stringify wrote. That text is well-formed (a lone
 * surrogate is escaped as \uXXXX), so a surrogate here is half of a pair: 4 bytes a pair.
 * Most messages are ASCII, and the regular expression (native code) says so at about a third of
 * the loop's cost.
 */
function portableUtf8Length(text: string): number {
  if (!NON_ASCII.test(text)) return text.length;
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
