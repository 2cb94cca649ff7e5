/** Content-Length framing, writing side: a message becomes a header and a UTF-8 body. */
import { TetherError } from './errors.js';
import { concat } from './frame-decoder.js';
import { LONG_STRING_CHARS, jsonBody } from './json-parts.js';
import type { Message } from './messages.js';

const encoder = new TextEncoder();

/**
 * A frame ready to write. An ordinary message is one string, header and body, which a socket
 * encodes straight into a single write: no typed arrays to allocate and free, no cork, no
 * writev. A large one (or one holding long strings) is its UTF-8 bytes in parts, header first.
 */
export type Frame = string | readonly Uint8Array[];

/**
 * Serializes a message into a frame; refuses bodies over the limit before sending anything.
 */
export function encodeFrame(message: Message, maxFrameBytes: number): Frame {
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
 */
function utf8Length(text: string): number {
  let bytes = text.length;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    if (code >= 0x80) bytes += code < 0x800 || (code >= 0xd800 && code <= 0xdfff) ? 1 : 2;
  }
  return bytes;
}
