/**
 * Test doubles for the host link: a raw TCP "host" that speaks the framing by hand (so a
 * test controls exactly what goes into each socket write), and small helpers shared by the
 * link tests.
 */
import { randomUUID } from 'node:crypto';
import { mkdtempSync, rmSync } from 'node:fs';
import { connect, createServer, type Server, type Socket } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { hostProof } from '../../src/discovery/host-proof.js';
import { writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import type { HostLink, LinkState } from '../../src/link/host-link.js';
import { DEFAULT_LIMITS, FrameDecoder, PROTOCOL_VERSION, encodeFrame, frameBytes, type HelloResult, type Message, type RequestMessage } from '../../src/protocol/index.js';

/** A fresh temporary folder, removed by the returned cleanup. */
export function tempDir(prefix: string): { dir: string; remove: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix));
  return { dir, remove: () => rmSync(dir, { recursive: true, force: true }) };
}

/** Every message of `messages` framed and concatenated: one buffer, for one socket write. */
export function frames(...messages: Message[]): Buffer {
  return Buffer.concat(messages.map((m) => frameBytes(encodeFrame(m, DEFAULT_LIMITS.maxFrameBytes))));
}

/** The host's half of the proof handshake for a client's hello: what a real host answers with. */
export function proofFor(hello: Message, token: string): { proof?: { mac: string } } {
  const nonce = (hello as { params?: { proof?: { nonce?: unknown } } }).params?.proof?.nonce;
  return typeof nonce === 'string' ? { proof: { mac: hostProof(token, nonce) } } : {};
}

export function helloResult(instanceId: string, projectPath: string, connectionId = 'c1'): HelloResult {
  return {
    protocolVersion: PROTOCOL_VERSION,
    host: { instanceId, kind: 'fake', name: 'Fake', version: '0.0.0', projectPath, pid: process.pid },
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
    },
    limits: { ...DEFAULT_LIMITS },
    heartbeatMs: 5_000,
    state: 'ready',
    connectionId,
  };
}

/** One accepted connection of a FakeHost. */
export class FakeConnection {
  private readonly decoder = new FrameDecoder(DEFAULT_LIMITS);
  readonly received: Message[] = [];
  readonly closed: Promise<void>;

  constructor(
    readonly socket: Socket,
    readonly index: number,
    onMessage: (message: Message, connection: FakeConnection) => void,
  ) {
    socket.on('error', () => undefined);
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => {
      let bodies: Uint8Array[];
      try {
        bodies = this.decoder.push(chunk);
      } catch {
        socket.destroy();
        return;
      }
      for (const body of bodies) {
        const message = JSON.parse(Buffer.from(body).toString('utf8')) as Message;
        this.received.push(message);
        if (!socket.destroyed) onMessage(message, this);
      }
    });
  }

  /** Writes all the messages in one socket write. */
  send(...messages: Message[]): void {
    if (!this.socket.destroyed && this.socket.writable) this.socket.write(frames(...messages));
  }
}

export type FakeBehaviour = (message: Message, connection: FakeConnection, host: FakeHost) => void;

/**
 * A raw TCP host. `behaviour` sees every decoded message; by default it answers the
 * handshake with a valid HelloResult (connection ids c1, c2, …) and ignores the rest.
 */
export class FakeHost {
  readonly instanceId = `fake-${randomUUID()}`;
  readonly token = `token-${randomUUID()}`;
  readonly connections: FakeConnection[] = [];
  private readonly server: Server;
  private readonly waiters: Array<(c: FakeConnection) => void> = [];
  port = 0;

  constructor(
    readonly projectPath: string,
    private readonly behaviour: FakeBehaviour = FakeHost.answerHello(),
  ) {
    this.server = createServer({ noDelay: true }, (socket) => {
      const connection = new FakeConnection(socket, this.connections.length, (m, c) => this.behaviour(m, c, this));
      this.connections.push(connection);
      for (const wake of this.waiters.splice(0)) wake(connection);
    });
  }

  /** The default handshake answer, then `after` for everything else. */
  static answerHello(after: FakeBehaviour = () => undefined): FakeBehaviour {
    return (message, connection, host) => {
      if (isRequest(message) && message.method === 'tether/hello') {
        connection.send({ jsonrpc: '2.0', id: message.id, result: { ...helloResult(host.instanceId, host.projectPath, `c${connection.index + 1}`), ...proofFor(message, host.token) } });
      } else {
        after(message, connection, host);
      }
    };
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen({ port: 0, host: '127.0.0.1' }, () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  /** Advertises this host the way a real one does. */
  writeRecord(recordsDir: string, overrides: Partial<HostRecord> = {}): string {
    return writeHostRecord(
      {
        instanceId: this.instanceId,
        pid: process.pid,
        port: this.port,
        host: '127.0.0.1',
        token: this.token,
        projectPath: this.projectPath,
        kind: 'fake',
        name: 'Fake',
        protocolVersion: PROTOCOL_VERSION,
        startedAt: new Date().toISOString(),
        auth: 'proof',
        ...overrides,
      },
      recordsDir,
    );
  }

  /** The next connection accepted from now on. */
  nextConnection(): Promise<FakeConnection> {
    return new Promise((resolve) => this.waiters.push(resolve));
  }

  async close(): Promise<void> {
    for (const c of this.connections) c.socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}

export function isRequest(message: Message): message is RequestMessage {
  return 'method' in message && 'id' in message;
}

/** Resolves when the link enters `state` (at once if it is in it), rejects after `timeoutMs`. */
export function waitForState(link: HostLink, state: LinkState, timeoutMs = 3_000): Promise<number> {
  if (link.state === state) return Promise.resolve(performance.now());
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => {
      link.off('state', onState);
      reject(new Error(`link did not reach "${state}" within ${timeoutMs} ms (it is "${link.state}")`));
    }, timeoutMs);
    const onState = (s: LinkState): void => {
      if (s !== state) return;
      clearTimeout(timer);
      link.off('state', onState);
      resolve(performance.now());
    };
    link.on('state', onState);
  });
}

/** Records every state the link goes through. */
export function recordStates(link: HostLink): LinkState[] {
  const states: LinkState[] = [];
  link.on('state', (s) => states.push(s));
  return states;
}

/** A promise with its resolver outside. */
export function deferred<T = void>(): { promise: Promise<T>; resolve: (value: T) => void } {
  let resolve!: (value: T) => void;
  const promise = new Promise<T>((r) => (resolve = r));
  return { promise, resolve };
}

/**
 * A TCP relay in front of a real host, so a test can cut the connection (a network blip)
 * while the host itself carries on.
 */
export class TcpProxy {
  private readonly server: Server;
  private readonly pairs = new Set<[Socket, Socket]>();
  /** While down, every connection is refused at once (the host is unreachable). */
  private down = false;
  port = 0;

  constructor(private readonly targetPort: number) {
    this.server = createServer({ noDelay: true }, (client) => {
      if (this.down) {
        client.on('error', () => undefined);
        client.resetAndDestroy();
        return;
      }
      const upstream = connect({ port: this.targetPort, host: '127.0.0.1', noDelay: true });
      const pair: [Socket, Socket] = [client, upstream];
      this.pairs.add(pair);
      for (const socket of pair) {
        socket.on('error', () => undefined);
        socket.once('close', () => {
          this.pairs.delete(pair);
          client.destroy();
          upstream.destroy();
        });
      }
      client.pipe(upstream);
      upstream.pipe(client);
    });
  }

  async start(): Promise<this> {
    await new Promise<void>((resolve) => this.server.listen({ port: 0, host: '127.0.0.1' }, () => resolve()));
    this.port = (this.server.address() as { port: number }).port;
    return this;
  }

  get connectionCount(): number {
    return this.pairs.size;
  }

  /** Resets every relayed connection, both ways. */
  cut(): void {
    for (const [client, upstream] of this.pairs) {
      client.resetAndDestroy();
      upstream.resetAndDestroy();
    }
  }

  /** Cuts every connection and refuses new ones until `up()`: an outage, not a blip. */
  goDown(): void {
    this.down = true;
    this.cut();
  }

  up(): void {
    this.down = false;
  }

  async close(): Promise<void> {
    this.cut();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }
}
