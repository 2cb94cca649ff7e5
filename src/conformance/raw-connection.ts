/**
 * A raw TCP connection to the host, for checks that must control every byte: hand-written
 * frames, split or merged writes, broken headers, requests before the handshake. What the
 * host sends back is decoded into messages the check can wait for, one at a time.
 */
import type { Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import { clientProof, newNonce } from '../discovery/host-proof.js';
import { openSocket } from '../link/host-client.js';
import { FrameDecoder, METHODS, PROTOCOL_VERSION, type ErrorResponse, type Message, type RequestId, type ResponseMessage, validateMessage } from '../protocol/index.js';
import { show } from './assertions.js';
import { CheckFailure } from './errors.js';

const DEFAULT_WAIT_MS = 5_000;
/** The suite reads whatever the host sends; only its own limits apply to what it writes. */
const READ_LIMITS = { maxFrameBytes: 256 * 1024 * 1024, maxHeaderBytes: 64 * 1024 };

interface Waiter {
  match(message: Message): boolean;
  deliver(message: Message): void;
  /** The connection closed or became unreadable: the message will never come. */
  abandon(): void;
}

/** Encodes one frame by hand, exactly as the protocol specifies it. */
export function frame(message: unknown): Buffer {
  const body = Buffer.from(JSON.stringify(message), 'utf8');
  return Buffer.concat([Buffer.from(`Content-Length: ${body.length}\r\n\r\n`, 'ascii'), body]);
}

export function request(id: RequestId, method: string, params?: unknown): Buffer {
  return frame({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });
}

/** The token a hello proves it knows (it is never sent: protocol.md §14). */
export interface Credentials {
  token: string;
}

export function helloFrame(id: RequestId, credentials: Credentials, protocolVersion = PROTOCOL_VERSION): Buffer {
  const nonce = newNonce();
  return request(id, METHODS.hello, { proof: { nonce, mac: clientProof(credentials.token, nonce) }, protocolVersion, client: { name: 'tether-conformance' } });
}

export interface RawOptions {
  /** Answer the host's pings (default true); false plays a client that has gone silent. */
  answerPings?: boolean;
}

export class RawConnection {
  private readonly decoder = new FrameDecoder(READ_LIMITS);
  /** When each ping from the host arrived (Date.now()). */
  readonly pings: number[] = [];
  private readonly pingListeners = new Set<() => void>();
  private readonly inbox: Message[] = [];
  private readonly waiters = new Set<Waiter>();
  private unreadable: string | undefined;
  private closedAt: number | undefined;
  /** Resolves when the host (or the suite) has closed the socket. */
  readonly closed: Promise<void>;

  private constructor(
    private readonly socket: Socket,
    private readonly answerPings: boolean,
  ) {
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    void this.closed.then(() => {
      this.closedAt = Date.now();
      for (const waiter of [...this.waiters]) waiter.abandon();
    });
    socket.on('error', () => undefined); // a reset by the host is an ordinary close here
    socket.on('data', (chunk: Buffer) => this.onData(chunk));
  }

  static async open(port: number, host = '127.0.0.1', options: RawOptions = {}): Promise<RawConnection> {
    return new RawConnection(await openSocket(port, host), options.answerPings ?? true);
  }

  get isClosed(): boolean {
    return this.closedAt !== undefined;
  }

  /** This side's address:port, as the host sees the peer (protocol.md §7.15's newClientEndpoint). */
  get localEndpoint(): string {
    return `${this.socket.localAddress ?? '?'}:${this.socket.localPort ?? '?'}`;
  }

  /** Writes bytes as one socket write; resolves once they are handed to the OS. */
  write(bytes: Uint8Array | string): Promise<void> {
    return new Promise((resolve, reject) => {
      if (this.socket.destroyed) return reject(new CheckFailure('the host closed the connection before the suite could write to it'));
      this.socket.write(bytes, (error) => (error ? reject(new CheckFailure(`writing to the host failed: ${error.message}`)) : resolve()));
    });
  }

  /**
   * Writes one byte per socket write. The pause after each is deliberate: without it the
   * bytes pile up in the host's receive buffer and arrive as one chunk, testing nothing.
   */
  async writeBytewise(bytes: Uint8Array, pauseMs = 1): Promise<void> {
    for (let i = 0; i < bytes.length; i++) {
      await this.write(bytes.subarray(i, i + 1));
      await delay(pauseMs);
    }
  }

  /** Sends a hello and returns the host's answer to it. */
  async hello(credentials: Credentials, protocolVersion = PROTOCOL_VERSION, id: RequestId = 'hello'): Promise<ResponseMessage> {
    await this.write(helloFrame(id, credentials, protocolVersion));
    return this.response(id, 'the answer to tether/hello');
  }

  /** Sends a hello that presents the token itself, as clients of older drafts did, and returns the answer. */
  async helloWithToken(token: string, id: RequestId = 'hello'): Promise<ResponseMessage> {
    await this.write(request(id, METHODS.hello, { token, protocolVersion: PROTOCOL_VERSION, client: { name: 'tether-conformance' } }));
    return this.response(id, 'the answer to tether/hello (with the token itself)');
  }

  /** Sends a hello that proves knowledge of the token with this nonce and mac, and returns the answer. */
  async helloWithProof(proof: { nonce: string; mac: string }, id: RequestId = 'hello'): Promise<ResponseMessage> {
    await this.write(request(id, METHODS.hello, { proof, protocolVersion: PROTOCOL_VERSION, client: { name: 'tether-conformance' } }));
    return this.response(id, 'the answer to tether/hello (with a proof)');
  }

  /** Waits for the response with this id. */
  response(id: RequestId, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<ResponseMessage> {
    return this.next((m) => 'id' in m && m.id === id && !('method' in m), what, timeoutMs) as Promise<ResponseMessage>;
  }

  /** Waits for an error frame the host sends about the stream itself (id null). */
  streamError(what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<ErrorResponse> {
    return this.next((m) => 'error' in m && m.id === null, what, timeoutMs) as Promise<ErrorResponse>;
  }

  /** The first message (already received or future) that matches; fails on timeout or close. */
  next(match: (message: Message) => boolean, what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<Message> {
    const index = this.inbox.findIndex(match);
    if (index >= 0) return Promise.resolve(this.inbox.splice(index, 1)[0] as Message);
    if (this.unreadable) return Promise.reject(new CheckFailure(`${what}: ${this.unreadable}`));
    if (this.isClosed) return Promise.reject(new CheckFailure(`${what}: the host closed the connection without sending it (received: ${this.describeInbox()})`));
    return new Promise((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiters.delete(waiter);
        reject(new CheckFailure(`${what}: nothing within ${timeoutMs} ms (received: ${this.describeInbox()})`));
      }, timeoutMs);
      const done = (): void => {
        clearTimeout(timer);
        this.waiters.delete(waiter);
      };
      const waiter: Waiter = {
        match,
        deliver: (message) => {
          done();
          resolve(message);
        },
        abandon: () => {
          done();
          reject(new CheckFailure(`${what}: ${this.unreadable ?? `the host closed the connection without sending it (received: ${this.describeInbox()})`}`));
        },
      };
      this.waiters.add(waiter);
    });
  }

  /** When the host's first ping arrived (Date.now()), waiting for it if it has not; fails on timeout or close. */
  firstPing(what: string, timeoutMs: number): Promise<number> {
    if (this.pings.length > 0) return Promise.resolve(this.pings[0] as number);
    return new Promise((resolve, reject) => {
      const done = (): void => {
        clearTimeout(timer);
        this.pingListeners.delete(onPing);
      };
      const onPing = (): void => {
        done();
        resolve(this.pings[0] as number);
      };
      const timer = setTimeout(() => {
        done();
        reject(new CheckFailure(`${what}: no ping within ${timeoutMs} ms`));
      }, timeoutMs);
      this.pingListeners.add(onPing);
      void this.closed.then(() => {
        if (!this.pingListeners.has(onPing)) return;
        done();
        reject(new CheckFailure(`${what}: the host closed the connection without pinging it`));
      });
    });
  }

  /** Fails the check unless the host closes the connection within the time. Returns when it closed. */
  async expectClose(what: string, timeoutMs = DEFAULT_WAIT_MS): Promise<number> {
    let timer: NodeJS.Timeout | undefined;
    const timedOut = new Promise<'timeout'>((resolve) => (timer = setTimeout(() => resolve('timeout'), timeoutMs)));
    const result = await Promise.race([this.closed, timedOut]);
    clearTimeout(timer);
    if (result === 'timeout') throw new CheckFailure(`${what}: the host kept the connection open for ${timeoutMs} ms`);
    return this.closedAt as number;
  }

  /** Closes the suite's side (gracefully; a socket the host never closes is cut off shortly after). */
  close(): void {
    if (this.socket.destroyed) return;
    this.socket.end();
    setTimeout(() => this.socket.destroy(), 1_000).unref();
  }

  private onData(chunk: Buffer): void {
    if (this.unreadable) return;
    let bodies: Uint8Array[];
    try {
      bodies = this.decoder.push(chunk);
    } catch (error) {
      return this.fail(`the host sent an unreadable frame (${(error as Error).message})`);
    }
    for (const body of bodies) {
      const text = Buffer.from(body).toString('utf8');
      let value: unknown;
      try {
        value = JSON.parse(text);
      } catch {
        return this.fail(`the host sent a frame whose body is not JSON: ${show(text)}`);
      }
      const checked = validateMessage(value);
      if (!checked.ok) return this.fail(`the host sent an invalid JSON-RPC message (${checked.reason}): ${show(text)}`);
      this.receive(checked.message);
    }
  }

  private receive(message: Message): void {
    // The host may ping its clients; answering keeps this connection a well-behaved one.
    if ('method' in message && 'id' in message && message.method === METHODS.ping) {
      this.pings.push(Date.now());
      for (const listener of [...this.pingListeners]) listener();
      if (this.answerPings) void this.write(frame({ jsonrpc: '2.0', id: message.id, result: {} })).catch(() => undefined);
      return;
    }
    for (const waiter of this.waiters) {
      if (waiter.match(message)) return waiter.deliver(message);
    }
    this.inbox.push(message);
  }

  private fail(reason: string): void {
    this.unreadable = reason;
    for (const waiter of [...this.waiters]) waiter.abandon();
  }

  private describeInbox(): string {
    return this.inbox.length === 0 ? 'nothing' : this.inbox.map((m) => show(m)).join(', ');
  }
}
