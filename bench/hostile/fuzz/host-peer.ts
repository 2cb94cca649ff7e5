/**
 * A raw TCP peer of the host for fuzzing: writes any bytes, decodes what the host sends back
 * (answering its pings, as a live client does), and keeps only counts and what the judge
 * needs: whether anything but an error came before the handshake, and whether a secret or a
 * private path showed up in any byte the host sent.
 */
import { connect, type Socket } from 'node:net';
import { FrameDecoder } from '../../../src/protocol/index.js';
import { frame } from '../../../src/conformance/raw-connection.js';

/** What a peer saw on one connection. */
export interface PeerTally {
  messages: number;
  /** Messages other than error responses: a result, request or notification. */
  nonErrors: number;
  /** Responses to the harness's own requests (ids starting with HARNESS_ID). */
  answered: Set<string>;
  /** Secrets the host sent that the peer had not sent itself (a refusal may quote the input). */
  leaks: string[];
  /** The host sent bytes the decoder could not read as frames. */
  unreadable: boolean;
}

/** The prefix of the ids the harness gives its own requests; fuzzed ids are tallied, not kept. */
export const HARNESS_ID = 'hostile:';

const READ_LIMITS = { maxFrameBytes: 256 * 1024 * 1024, maxHeaderBytes: 64 * 1024 };

export class HostPeer {
  readonly tally: PeerTally = { messages: 0, nonErrors: 0, answered: new Set(), leaks: [], unreadable: false };
  readonly closed: Promise<void>;
  private readonly decoder = new FrameDecoder(READ_LIMITS);
  private readonly waiters = new Map<string, () => void>();
  private isClosed = false;
  /** The end of what this peer sent (strangers' inputs are small; the attacks' large frames hold no secret). */
  private sent = Buffer.alloc(0);

  private constructor(
    private readonly socket: Socket,
    /** Strings that must never reach an unauthenticated peer: the token, TETHER_HOME, the user's home. */
    private readonly secrets: readonly string[],
  ) {
    this.closed = new Promise((resolve) =>
      socket.once('close', () => {
        this.isClosed = true;
        for (const wake of this.waiters.values()) wake();
        this.waiters.clear();
        resolve();
      }),
    );
    socket.on('error', () => undefined);
    socket.on('data', (chunk: Buffer) => this.receive(chunk));
  }

  static open(port: number, secrets: readonly string[]): Promise<HostPeer> {
    return new Promise((resolve, reject) => {
      const socket = connect({ host: '127.0.0.1', port });
      socket.once('connect', () => resolve(new HostPeer(socket, secrets)));
      socket.once('error', reject);
    });
  }

  get isOpen(): boolean {
    return !this.isClosed;
  }

  write(bytes: Uint8Array | string): void {
    if (this.secrets.length > 0 && typeof bytes !== 'string') this.sent = Buffer.concat([this.sent, bytes]).subarray(-65_536);
    if (!this.isClosed && !this.socket.destroyed) this.socket.write(bytes);
  }

  /** Ends the harness's side; the host may still answer what it read. */
  end(): void {
    if (!this.socket.destroyed) this.socket.end();
  }

  destroy(): void {
    this.socket.destroy();
  }

  /** Resolves true once `closed`, false after `ms`. */
  async closedWithin(ms: number): Promise<boolean> {
    let timer: NodeJS.Timeout | undefined;
    const result = await Promise.race([this.closed.then(() => true), new Promise<boolean>((resolve) => (timer = setTimeout(() => resolve(false), ms)))]);
    clearTimeout(timer);
    return result;
  }

  /** Resolves true once the host answered the request with this (string) id, false on close or after `ms`. */
  async answerTo(id: string, ms: number): Promise<boolean> {
    if (this.tally.answered.delete(id)) return true;
    if (this.isClosed) return false;
    let timer: NodeJS.Timeout | undefined;
    await new Promise<void>((resolve) => {
      timer = setTimeout(resolve, ms);
      this.waiters.set(id, resolve);
    });
    clearTimeout(timer);
    this.waiters.delete(id);
    return this.tally.answered.delete(id);
  }

  private receive(chunk: Buffer): void {
    const text = chunk.toString('latin1');
    for (const secret of this.secrets) if (secret && text.includes(secret) && !this.sent.includes(secret)) this.tally.leaks.push(secret);
    if (this.tally.unreadable) return;
    let bodies: Uint8Array[];
    try {
      bodies = this.decoder.push(chunk);
    } catch {
      this.tally.unreadable = true;
      return;
    }
    for (const body of bodies) {
      let message: { id?: unknown; method?: unknown; error?: unknown };
      try {
        message = JSON.parse(Buffer.from(body).toString('utf8')) as typeof message;
      } catch {
        this.tally.unreadable = true;
        return;
      }
      this.tally.messages++;
      if (message.error === undefined) this.tally.nonErrors++;
      if (message.method === 'ping' && message.id !== undefined) this.write(frame({ jsonrpc: '2.0', id: message.id, result: {} }));
      if (message.method === undefined && typeof message.id === 'string' && message.id.startsWith(HARNESS_ID)) {
        this.tally.answered.add(message.id);
        this.waiters.get(message.id)?.();
      }
    }
  }
}
