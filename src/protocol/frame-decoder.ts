/**
 * Content-Length framing, reading side: bytes in, frame bodies out.
 *
 * A frame is `Content-Length: N\r\n` (other headers allowed and ignored) then `\r\n` and
 * exactly N bytes of UTF-8 JSON. The decoder enforces the header and body size limits
 * before buffering anything large, and reports whether a frame is partially received so the
 * transport can time out a stalled frame without ever timing out an idle connection.
 */
import { TetherError } from './errors.js';
import type { ReaderLimits } from './limits.js';

const CR = 13;
/**
 * Bodies at least this large are received into one buffer of their size, not kept as chunks:
 * at once from an authenticated peer, from half-way from anyone else.
 */
const LARGE_FRAME_BYTES = 1024 * 1024;
const LF = 10;
const DIGIT_0 = 48;
const DIGIT_9 = 57;
/** The header every Tether peer writes, matched byte for byte before any general parsing. */
const PLAIN_HEADER_PREFIX = new TextEncoder().encode('Content-Length: ');
/** Content-Length is at most 15 digits (what a double holds exactly). */
const MAX_LENGTH_DIGITS = 15;

export class FrameDecoder {
  private chunks: Uint8Array[] = [];
  private buffered = 0;
  /** Body length announced by the header being consumed, or null while reading a header. */
  private bodyLength: number | null = null;
  /** A large body being filled in place, once its header is read. */
  private large: { body: Uint8Array; filled: number } | undefined;
  /** A framing fault already found: the stream cannot be trusted past it. */
  private failure: TetherError | undefined;
  /** The peer passed the handshake, so a header alone may size a buffer. */
  private peerTrusted = false;

  constructor(private readonly limits: Pick<ReaderLimits, 'maxFrameBytes' | 'maxHeaderBytes' | 'maxFrameBytesBeforeHandshake'>) {}

  /**
   * The peer has authenticated: from now on a large body gets its full-size buffer as soon as
   * its header arrives, so its chunks are never held beside it (peak memory ~1× the frame).
   */
  trustPeer(): void {
    this.peerTrusted = true;
  }

  /** True while some bytes of a frame have arrived but not the whole frame. */
  get hasPartialFrame(): boolean {
    return this.buffered > 0 || this.bodyLength !== null;
  }

  /**
   * Feeds a chunk and returns every frame body it completes, in order.
   * Throws a TetherError (HEADER_INVALID or FRAME_TOO_LARGE) when the stream cannot be
   * trusted any more; the caller must then close the connection, since framing is lost.
   */
  push(chunk: Uint8Array): Uint8Array[] {
    if (this.failure) throw this.failure;
    const bodies: Uint8Array[] = [];
    let input = chunk;
    if (this.large) {
      // Straight into the body: a large frame is copied once, and its chunks freed as they come.
      const part = Math.min(input.length, this.large.body.length - this.large.filled);
      this.large.body.set(input.subarray(0, part), this.large.filled);
      this.large.filled += part;
      input = input.subarray(part);
      if (this.large.filled < this.large.body.length) return bodies;
      bodies.push(this.large.body);
      this.large = undefined;
      this.bodyLength = null;
    }
    if (input.length > 0) {
      this.chunks.push(input);
      this.buffered += input.length;
    }
    try {
      for (;;) {
        if (this.bodyLength === null && !this.readHeader()) break;
        const length = this.bodyLength as number;
        if (this.buffered < length) {
          // A stranger must not make us allocate more than twice what it sent: wait for half.
          if (length >= LARGE_FRAME_BYTES && (this.peerTrusted || this.buffered * 2 >= length)) this.startLarge(length);
          break;
        }
        bodies.push(this.take(length));
        this.bodyLength = null;
      }
    } catch (error) {
      // Frames completed before the fault are still returned; the fault comes with the next push.
      this.failure = error as TetherError;
      if (bodies.length === 0) throw error;
    }
    return bodies;
  }

  /** The announced body length, if this reader accepts it from this peer now. */
  private checkLength(length: number): number {
    const { maxFrameBytes, maxFrameBytesBeforeHandshake } = this.limits;
    if (!this.peerTrusted && maxFrameBytesBeforeHandshake !== undefined && length > Math.min(maxFrameBytes, maxFrameBytesBeforeHandshake)) {
      throw new TetherError(
        'FRAME_TOO_LARGE',
        `Frame of ${length} bytes exceeds the ${maxFrameBytesBeforeHandshake}-byte limit that applies before the handshake. Send tether/hello first; larger frames are accepted once it succeeds.`,
        { length, maxFrameBytes: maxFrameBytesBeforeHandshake, beforeHandshake: true },
      );
    }
    if (length > maxFrameBytes) {
      throw new TetherError('FRAME_TOO_LARGE', `Frame of ${length} bytes exceeds the ${maxFrameBytes}-byte limit. Send smaller payloads (for example, write large data to a file and pass its path).`, {
        length,
        maxFrameBytes,
      });
    }
    return length;
  }

  /** Moves what is buffered of a large body into a buffer of its full size. */
  private startLarge(length: number): void {
    const body = new Uint8Array(length);
    let filled = 0;
    for (const chunk of this.chunks) {
      body.set(chunk, filled);
      filled += chunk.length;
    }
    this.chunks = [];
    this.buffered = 0;
    this.large = { body, filled };
  }

  /** Parses the header if complete; returns false when more bytes are needed. */
  private readHeader(): boolean {
    if (this.buffered === 0) return false;
    const window = this.peek(Math.min(this.buffered, this.limits.maxHeaderBytes + 4));
    if (this.readPlainHeader(window)) return true;
    const end = indexOfBlankLine(window);
    if (end < 0) {
      if (this.buffered > this.limits.maxHeaderBytes + 3) {
        throw new TetherError(
          'HEADER_INVALID',
          `Frame header exceeds ${this.limits.maxHeaderBytes} bytes without a blank line. Frames must start with "Content-Length: N" followed by an empty line.`,
          { maxHeaderBytes: this.limits.maxHeaderBytes },
        );
      }
      return false;
    }
    const header = decodeAscii(window.subarray(0, end));
    this.take(end + 4);
    this.bodyLength = this.checkLength(parseContentLength(header));
    return true;
  }

  /**
   * The fast path for the one header every Tether peer writes, exactly
   * `Content-Length: N\r\n\r\n`: read from the bytes without building a string. Anything
   * else (other headers, other spacing or case, a partial header) returns false and goes
   * through the general parser, which alone reports what is wrong.
   */
  private readPlainHeader(window: Uint8Array): boolean {
    const prefix = PLAIN_HEADER_PREFIX.length;
    for (let i = 0; i < prefix; i++) if (window[i] !== PLAIN_HEADER_PREFIX[i]) return false;
    let length = 0;
    let at = prefix;
    for (; at < window.length && at - prefix < MAX_LENGTH_DIGITS; at++) {
      const byte = window[at] as number;
      if (byte < DIGIT_0 || byte > DIGIT_9) break;
      length = length * 10 + (byte - DIGIT_0);
    }
    if (at === prefix || window[at] !== CR || window[at + 1] !== LF || window[at + 2] !== CR || window[at + 3] !== LF) return false;
    this.bodyLength = this.checkLength(length);
    this.take(at + 4);
    return true;
  }

  /** Returns the first n buffered bytes without consuming them (merging chunks if needed). */
  private peek(n: number): Uint8Array {
    const first = this.chunks[0] as Uint8Array;
    if (first.length >= n) return first.subarray(0, n);
    const merged = concat(this.chunks, this.buffered);
    this.chunks = [merged];
    return merged.subarray(0, n);
  }

  /** Removes and returns the first n buffered bytes. */
  private take(n: number): Uint8Array {
    const first = this.chunks[0];
    if (first && first.length >= n) {
      const out = first.subarray(0, n);
      if (first.length === n) this.chunks.shift();
      else this.chunks[0] = first.subarray(n);
      this.buffered -= n;
      return out;
    }
    // Spans chunks: copy them in one pass and drop the consumed ones with one splice, so a
    // body that arrived in many tiny chunks costs linear, not quadratic, time.
    const out = new Uint8Array(n);
    let filled = 0;
    let used = 0;
    while (filled < n) {
      const chunk = this.chunks[used] as Uint8Array;
      const part = Math.min(chunk.length, n - filled);
      out.set(chunk.subarray(0, part), filled);
      filled += part;
      if (part === chunk.length) used++;
      else this.chunks[used] = chunk.subarray(part);
    }
    this.chunks.splice(0, used);
    this.buffered -= n;
    return out;
  }
}

function indexOfBlankLine(bytes: Uint8Array): number {
  for (let i = 0; i + 3 < bytes.length; i++) {
    if (bytes[i] === CR && bytes[i + 1] === LF && bytes[i + 2] === CR && bytes[i + 3] === LF) return i;
  }
  return -1;
}

function decodeAscii(bytes: Uint8Array): string {
  let text = '';
  for (const byte of bytes) text += String.fromCharCode(byte);
  return text;
}

function parseContentLength(header: string): number {
  let length: number | undefined;
  for (const line of header.split('\r\n')) {
    const colon = line.indexOf(':');
    if (colon <= 0) throw headerInvalid(`malformed header line "${line.slice(0, 80)}"`);
    const name = line.slice(0, colon).trim().toLowerCase();
    const value = line.slice(colon + 1).trim();
    if (name === 'content-length') {
      if (!/^\d{1,15}$/.test(value)) throw headerInvalid(`Content-Length "${value.slice(0, 40)}" is not a byte count`);
      length = Number(value);
    } else if (name === 'content-type' && /charset=/i.test(value) && !/charset=["']?utf-?8/i.test(value)) {
      throw headerInvalid(`unsupported charset in "${value.slice(0, 80)}"; frames are UTF-8`);
    }
  }
  if (length === undefined) throw headerInvalid('the Content-Length header is missing');
  return length;
}

function headerInvalid(detail: string): TetherError {
  return new TetherError('HEADER_INVALID', `Invalid frame header: ${detail}. Frames must start with "Content-Length: N\\r\\n\\r\\n".`);
}

export function concat(chunks: readonly Uint8Array[], total?: number): Uint8Array {
  const size = total ?? chunks.reduce((sum, chunk) => sum + chunk.length, 0);
  const out = new Uint8Array(size);
  let offset = 0;
  for (const chunk of chunks) {
    out.set(chunk, offset);
    offset += chunk.length;
  }
  return out;
}
