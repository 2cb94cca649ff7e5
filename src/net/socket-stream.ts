/**
 * The ByteStream adapter for a TCP socket: the one place where protocol/ meets node:net.
 * Writes never reach a destroyed socket, and every 'error' event is handled (it becomes a
 * close), so a peer that vanishes can never crash the process.
 *
 * On a server's side (`readOnlyWhatPeerReads`), a peer that sends but does not read is not read
 * from either while what it was sent waits (backpressure): every request it sends gets an
 * answer, and unread answers would otherwise pile up in memory without end. Only one side may
 * do this: if both waited for the other to read, a large message each way would stop both.
 */
import type { Socket } from 'node:net';
import type { ByteStream, Frame } from '../protocol/index.js';

/** Unsent output past which the peer's input waits until it has read what it was sent. */
export const MAX_UNREAD_OUTPUT_BYTES = 1024 * 1024;

export class SocketByteStream implements ByteStream {
  private ended = false;
  private waitingForPeer = false;

  constructor(
    readonly socket: Socket,
    private readonly options: { readOnlyWhatPeerReads?: boolean } = {},
  ) {
    socket.setNoDelay(true);
    // Until start() installs the real handlers, an error must still not go unhandled.
    socket.on('error', () => undefined);
  }

  get closed(): boolean {
    return this.ended || this.socket.destroyed || !this.socket.writable;
  }

  start(handlers: { data(chunk: Uint8Array): void; close(error?: unknown): void }): void {
    let error: unknown;
    this.socket.on('data', (chunk: Buffer) => handlers.data(chunk));
    this.socket.on('error', (e) => {
      error = e;
    });
    this.socket.once('close', () => {
      this.ended = true;
      handlers.close(error);
    });
  }

  /** What the socket will write for a string: Buffer.byteLength counts it in native code. */
  utf8Length(text: string): number {
    return Buffer.byteLength(text, 'utf8');
  }

  write(frame: Frame): void {
    if (this.closed) return;
    if (typeof frame === 'string') {
      // As utf8Length counted it, whatever default encoding someone set on the socket.
      this.socket.write(frame, 'utf8');
    } else {
      // Parts go out together (one writev), not as a syscall each.
      this.socket.cork();
      for (const part of frame) this.socket.write(part);
      process.nextTick(() => this.socket.uncork());
    }
    if (this.options.readOnlyWhatPeerReads && this.socket.writableLength > MAX_UNREAD_OUTPUT_BYTES) this.waitForPeer();
  }

  /** Reads nothing more from the peer until it has read what it was sent ('drain'). */
  private waitForPeer(): void {
    if (this.waitingForPeer) return;
    this.waitingForPeer = true;
    this.socket.pause();
    this.socket.once('drain', () => {
      this.waitingForPeer = false;
      this.socket.resume();
    });
  }

  end(): void {
    if (this.ended) return;
    this.ended = true;
    if (this.socket.destroyed) return;
    this.socket.end();
    // A peer that never reads must not keep the socket (and the process) alive forever. The
    // timer goes with the socket: left to run, it would hold the stream, and through it the
    // connection's owner (a closed host), for its two seconds.
    const destroyLater = setTimeout(() => this.socket.destroy(), 2_000).unref();
    this.socket.once('close', () => clearTimeout(destroyLater));
  }

  /** Immediately tears the socket down, discarding unsent data. */
  destroy(): void {
    this.ended = true;
    this.socket.destroy();
  }
}
