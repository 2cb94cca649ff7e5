/** Content-Length framing, writing side: a message becomes a header and a UTF-8 body. */
import { TetherError } from './errors.js';
import type { Message } from './messages.js';

const encoder = new TextEncoder();

/** Serializes a message into [header, body]; refuses bodies over the limit before sending anything. */
export function encodeFrame(message: Message, maxFrameBytes: number): [Uint8Array, Uint8Array] {
  const body = encoder.encode(JSON.stringify(message));
  if (body.length > maxFrameBytes) {
    throw new TetherError(
      'FRAME_TOO_LARGE',
      `Outgoing message of ${body.length} bytes exceeds the ${maxFrameBytes}-byte frame limit. Return a smaller result (for example, write large data to a file and return its path).`,
      { length: body.length, maxFrameBytes },
    );
  }
  return [encoder.encode(`Content-Length: ${body.length}\r\n\r\n`), body];
}
