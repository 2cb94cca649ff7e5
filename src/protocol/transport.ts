/**
 * Message transports. A Transport moves whole JSON-RPC messages; FramedTransport builds
 * one on top of any ByteStream (a TCP socket in host/ and link/, a pipe, a test double),
 * and createLinkedPair() gives two in-memory ends for tests that need no sockets.
 */
import { TetherError } from './errors.js';
import { FrameDecoder } from './frame-decoder.js';
import { encodeFrame, frameBytes, type Frame, type Utf8Length } from './frame-encoder.js';
import type { LiftedStrings, StringLifter } from './lifted-strings.js';
import { resolveLimits, type FrameLimits, type ReaderLimits } from './limits.js';
import { leadingId, nestsDeeperThan } from './json-depth.js';
import { idOf, validateMessage, type Message, type RequestId } from './messages.js';

export interface TransportHandlers {
  /** A well-formed message arrived; `lifted` holds the strings its placeholders stand for. */
  message(message: Message, lifted?: LiftedStrings): void;
  /** A frame arrived intact but is not a valid message; the stream is still in sync. */
  malformed(error: TetherError, id: RequestId | null): void;
  /** The transport closed; `error` says why when it was not a clean close. */
  close(error?: TetherError): void;
}

export interface Transport {
  start(handlers: TransportHandlers): void;
  /** Sends a message. Throws FRAME_TOO_LARGE for an oversize message; silently drops once closed. */
  send(message: Message): void;
  /**
   * The peer passed the handshake. `maxFrameBytes` is the largest body it says it reads; until
   * told, the transport assumes the peer reads what it reads itself.
   */
  peerAuthenticated?(peer: { maxFrameBytes?: number | undefined }): void;
  /** Flushes what was sent, then closes. Idempotent. */
  close(error?: TetherError): void;
  readonly closed: boolean;
}

/** The minimal byte-stream interface the framing layer needs; adapters live outside protocol/. */
export interface ByteStream {
  start(handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void }): void;
  /** Writes a frame (a string is written as UTF-8); a no-op once the stream is closed or destroyed. */
  write(frame: Frame): void;
  /**
   * The UTF-8 length of a string, counted by the runtime (Node's Buffer.byteLength), when the
   * stream has one: every frame's header needs it, and native code counts it faster than the
   * portable count (~40 against ~60 ns for a short ASCII message; the gap grows with length).
   */
  utf8Length?(text: string): number;
  /** Flushes pending writes, then closes. */
  end(): void;
  readonly closed: boolean;
}

const utf8 = new TextDecoder('utf-8', { fatal: true });
const lenientUtf8 = new TextDecoder('utf-8');

/** The start of a body as text, for finding its id without decoding megabytes. */
function utf8Prefix(body: Uint8Array): string {
  return lenientUtf8.decode(body.subarray(0, 4096));
}
const NO_BYTES = new Uint8Array(0);

export class FramedTransport implements Transport {
  private readonly limits: ReaderLimits;
  /** The stream's own UTF-8 count, bound once (a frame is sent without building a closure). */
  private readonly utf8Length: Utf8Length | undefined;
  private readonly decoder: FrameDecoder;
  private maxSendBytes: number;
  private handlers: TransportHandlers | undefined;
  private stallTimer: ReturnType<typeof setTimeout> | undefined;
  private closeError: TetherError | undefined;
  private isClosed = false;

  constructor(
    private readonly stream: ByteStream,
    limits: Partial<ReaderLimits> = {},
    /** Lifts long strings out of received frames (see lifted-strings.ts); unset, every frame is parsed whole. */
    private readonly liftStrings?: StringLifter,
  ) {
    this.limits = resolveLimits(limits);
    this.decoder = new FrameDecoder(this.limits);
    this.maxSendBytes = this.limits.maxFrameBytes;
    this.utf8Length = stream.utf8Length?.bind(stream);
  }

  peerAuthenticated(peer: { maxFrameBytes?: number | undefined }): void {
    if (peer.maxFrameBytes) this.maxSendBytes = peer.maxFrameBytes;
    this.decoder.trustPeer();
  }

  get closed(): boolean {
    return this.isClosed;
  }

  start(handlers: TransportHandlers): void {
    this.handlers = handlers;
    this.stream.start({
      data: (chunk) => this.onData(chunk),
      close: () => this.finish(this.closeError),
    });
  }

  send(message: Message): void {
    if (this.isClosed || this.stream.closed) return;
    this.stream.write(encodeFrame(message, this.maxSendBytes, this.utf8Length));
  }

  close(error?: TetherError): void {
    if (this.isClosed) return;
    this.closeError ??= error;
    this.disarmStallTimer();
    this.stream.end();
    // Some streams report their close asynchronously; the transport is closed from now on.
    this.finish(this.closeError);
  }

  private onData(chunk: Uint8Array): void {
    if (this.isClosed) return;
    let input = chunk;
    for (;;) {
      let bodies: Uint8Array[];
      try {
        bodies = this.decoder.push(input);
      } catch (error) {
        // Framing is lost: tell the peer why, then close. The process keeps serving others.
        const fault = TetherError.from(error, 'HEADER_INVALID');
        this.sendQuietly({ jsonrpc: '2.0', id: null, error: fault.toWire() });
        this.close(fault);
        return;
      }
      if (bodies.length === 0) break;
      for (const body of bodies) {
        if (this.isClosed) return;
        this.deliver(body);
      }
      // Frames complete before a fault are delivered first; pushing nothing surfaces the fault.
      input = NO_BYTES;
    }
    if (!this.isClosed) this.armStallTimer();
  }

  private deliver(body: Uint8Array): void {
    let value: unknown;
    let lifted: LiftedStrings | undefined;
    const { maxDepth } = this.limits;
    if (maxDepth !== undefined && nestsDeeperThan(body, maxDepth)) {
      const text = utf8Prefix(body);
      this.handlers?.malformed(new TetherError('INVALID_REQUEST', `Invalid JSON-RPC message: it nests deeper than ${maxDepth} levels. Send flatter params.`, { maxDepth }), leadingId(text));
      return;
    }
    try {
      const cut = this.liftStrings?.(body);
      lifted = cut?.lifted;
      value = JSON.parse(cut ? cut.text : utf8.decode(body));
    } catch (error) {
      const reason = error instanceof SyntaxError ? 'it is not valid JSON' : 'it is not valid UTF-8';
      this.handlers?.malformed(new TetherError('PARSE_ERROR', `Could not parse the frame body: ${reason}. Each frame body must be one UTF-8 JSON-RPC message.`), null);
      return;
    }
    const checked = validateMessage(value);
    if (!checked.ok) {
      this.handlers?.malformed(new TetherError('INVALID_REQUEST', `Invalid JSON-RPC message: ${checked.reason}.`), idOf(value));
      return;
    }
    this.handlers?.message(checked.message, lifted);
  }

  /** The frame I/O timeout runs only while a frame is incomplete, and restarts on every chunk. */
  private armStallTimer(): void {
    this.disarmStallTimer();
    if (!this.decoder.hasPartialFrame) return;
    this.stallTimer = setTimeout(() => {
      const fault = new TetherError('FRAME_TIMEOUT', `A partially received frame stalled for ${this.limits.frameTimeoutMs} ms; closing the connection. Send each frame in full.`, {
        frameTimeoutMs: this.limits.frameTimeoutMs,
      });
      this.sendQuietly({ jsonrpc: '2.0', id: null, error: fault.toWire() });
      this.close(fault);
    }, this.limits.frameTimeoutMs);
  }

  private disarmStallTimer(): void {
    if (this.stallTimer !== undefined) clearTimeout(this.stallTimer);
    this.stallTimer = undefined;
  }

  private sendQuietly(message: Message): void {
    try {
      this.send(message);
    } catch {
      // Best effort: the connection is about to close anyway.
    }
  }

  private finish(error?: TetherError): void {
    this.disarmStallTimer();
    if (this.isClosed && this.handlers === undefined) return;
    this.isClosed = true;
    const handlers = this.handlers;
    this.handlers = undefined;
    handlers?.close(error);
  }
}

/**
 * Two connected in-memory byte streams: what one writes, the other reads (asynchronously,
 * like a socket). Used by unit tests of every layer above the framing.
 */
export function createLinkedStreams(): [ByteStream, ByteStream] {
  const a = new MemoryStream();
  const b = new MemoryStream();
  a.peer = b;
  b.peer = a;
  return [a, b];
}

/** Two framed transports connected back to back. */
export function createLinkedPair(limits: Partial<FrameLimits> = {}): [Transport, Transport] {
  const [a, b] = createLinkedStreams();
  return [new FramedTransport(a, limits), new FramedTransport(b, limits)];
}

class MemoryStream implements ByteStream {
  peer: MemoryStream | undefined;
  private handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void } | undefined;
  private backlog: Uint8Array[] = [];
  closed = false;

  start(handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void }): void {
    this.handlers = handlers;
    for (const chunk of this.backlog.splice(0)) handlers.data(chunk);
  }

  write(frame: Frame): void {
    if (this.closed) return;
    const peer = this.peer;
    // A frame in parts arrives in as many chunks, as it may from a socket.
    for (const part of typeof frame === 'string' ? [frameBytes(frame)] : frame) {
      const copy = part.slice();
      queueMicrotask(() => peer?.receive(copy));
    }
  }

  end(): void {
    if (this.closed) return;
    this.closed = true;
    const peer = this.peer;
    queueMicrotask(() => {
      this.handlers?.close();
      peer?.end();
    });
  }

  private receive(chunk: Uint8Array): void {
    if (this.closed) return;
    if (this.handlers) this.handlers.data(chunk);
    else this.backlog.push(chunk);
  }
}
