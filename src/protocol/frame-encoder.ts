/** Content-Length framing, writing side: a message becomes a header and a UTF-8 body. */
import { TetherError } from './errors.js';
import { jsonParts } from './json-parts.js';
import type { Message } from './messages.js';

const encoder = new TextEncoder();

/**
 * Serializes a message into its header then its body's parts; refuses bodies over the limit
 * before sending anything.
 */
export function encodeFrame(message: Message, maxFrameBytes: number): [header: Uint8Array, ...body: Uint8Array[]] {
  const body = jsonParts(message);
  let length = 0;
  for (const part of body) length += part.length;
  if (length > maxFrameBytes) {
    throw new TetherError(
      'FRAME_TOO_LARGE',
      `Outgoing message of ${length} bytes exceeds the ${maxFrameBytes}-byte frame limit. Return a smaller result (for example, write large data to a file and return its path).`,
      { length, maxFrameBytes },
    );
  }
  body.unshift(encoder.encode(`Content-Length: ${length}\r\n\r\n`));
  return body as [header: Uint8Array, ...body: Uint8Array[]];
}
