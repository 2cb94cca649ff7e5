/**
 * How deep a JSON text nests, measured on its bytes before anything parses it. A body of
 * millions of '[' is a few megabytes on the wire but costs a parser gigabytes and seconds of
 * a blocked event loop; the host measures first, in one pass with no allocation, and refuses
 * a message nested past its bound (protocol.md §3.4) as it refuses any other bad message.
 */
import type { RequestId } from './messages.js';

/** How deep the reference host lets a message nest: the envelope takes 3 levels of it. */
export const MAX_MESSAGE_DEPTH = 64;

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_BRACE = 0x7b;
const OPEN_BRACKET = 0x5b;
const CLOSE_BRACE = 0x7d;
const CLOSE_BRACKET = 0x5d;

/** True when brackets and braces outside strings nest deeper than `maxDepth` anywhere in `bytes`. */
export function nestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  // A body with no more '{' and '[' bytes than the bound, wherever they stand, cannot nest
  // past it: counting them with the runtime's indexOf is a few hundred instructions for a
  // call's frame, where the byte-by-byte walk below takes ~20 a byte (~5k for a 200-byte frame).
  return hasMoreOpenersThan(bytes, maxDepth) && walkNestsDeeperThan(bytes, maxDepth);
}

function hasMoreOpenersThan(bytes: Uint8Array, bound: number): boolean {
  let openers = 0;
  for (let at = bytes.indexOf(OPEN_BRACE); at >= 0; at = bytes.indexOf(OPEN_BRACE, at + 1)) if (++openers > bound) return true;
  for (let at = bytes.indexOf(OPEN_BRACKET); at >= 0; at = bytes.indexOf(OPEN_BRACKET, at + 1)) if (++openers > bound) return true;
  return false;
}

/** The walk itself: a string's bytes in an inner loop of their own, each escape skipping the byte after it. */
function walkNestsDeeperThan(bytes: Uint8Array, maxDepth: number): boolean {
  const length = bytes.length;
  let depth = 0;
  for (let i = 0; i < length; i++) {
    const byte = bytes[i];
    if (byte === QUOTE) {
      for (i++; i < length; i++) {
        const inString = bytes[i];
        if (inString === QUOTE) break;
        if (inString === BACKSLASH) i++;
      }
    } else if (byte === OPEN_BRACE || byte === OPEN_BRACKET) {
      if (++depth > maxDepth) return true;
    } else if (byte === CLOSE_BRACE || byte === CLOSE_BRACKET) {
      depth--;
    }
  }
  return false;
}

const TOP_LEVEL_ID = /^\s*\{(?:[^"{}[\]]|"(?:[^"\\]|\\.)*")*?"id"\s*:\s*("(?:[^"\\]|\\.)*"|-?\d+(?:\.\d+)?(?:[eE][+-]?\d+)?)/;

/**
 * The id of a message too deep to parse, when it stands among the members before the first
 * nested value (where JSON-RPC writers put it): a refused request is then answered under its
 * own id, so its sender is not left waiting. Null otherwise.
 */
export function leadingId(text: string): RequestId | null {
  const found = TOP_LEVEL_ID.exec(text.slice(0, 4096));
  if (!found?.[1]) return null;
  try {
    const id: unknown = JSON.parse(found[1]);
    return typeof id === 'string' || (typeof id === 'number' && Number.isFinite(id)) ? id : null;
  } catch {
    return null;
  }
}
