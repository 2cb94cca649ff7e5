/**
 * Where connections come in: a TCP server on 127.0.0.1 only (protocol.md §2, §14), on the
 * preferred port or, when it is taken, a free one; and any other byte stream handed to
 * accept() (a pipe, an in-memory pair in tests), served the same way. It holds the
 * connections: bounds how many may wait for their handshake (past the bound the oldest
 * waiting one is closed), evicts past maxConnections, and says bye to all when the host closes.
 */
import { createServer, type Server, type Socket } from 'node:net';
import { setTimeout as delay } from 'node:timers/promises';
import {
  FramedTransport,
  HANDSHAKE_MAX_FRAME_BYTES,
  MAX_MESSAGE_DEPTH,
  NOTIFICATION_TABLE,
  RpcConnection,
  SERVE_CLIENT_NAME,
  TetherError,
  type Bye,
  type ByteStream,
  type NotificationParams,
  type NotificationSpec,
} from '../protocol/index.js';
import { SocketByteStream } from '../net/socket-stream.js';
import { HostConnection } from './host-connection.js';
import type { ConnectionPeer, HostCore } from './host-core.js';

/** How long closing waits for clients to hang up after their bye before cutting them off. */
const CLOSE_GRACE_MS = 500;

export class Listener {
  private readonly connections = new Map<string, HostConnection>();
  private readonly sockets = new Set<Socket>();
  private server: Server | undefined;
  private nextConnection = 1;
  private closing = false;

  constructor(private readonly core: HostCore) {}

  /** The connections that passed their handshake and are open, oldest first. */
  authenticated(): HostConnection[] {
    return [...this.connections.values()].filter((c) => c.isAuthenticated);
  }

  /** Listens on loopback; a taken preferred port falls back to a free one (the record says which). */
  async listen(port: number): Promise<number> {
    const server = createServer({ noDelay: true }, (socket) => this.acceptSocket(socket));
    this.server = server;
    server.on('error', () => undefined);
    return listenOn(server, port);
  }

  /** Stops listening, before any client could have found the port (the host could not advertise it). */
  async unlisten(): Promise<void> {
    const server = this.server;
    this.server = undefined;
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  /**
   * Serves a connection over `stream` as one accepted on the port: the same handshake, limits
   * and methods. `endpoint` names the peer in status and eviction messages.
   */
  accept(stream: ByteStream, endpoint: string): void {
    if (this.closing) {
      stream.end();
      return;
    }
    // At the limit the oldest waiting connection goes, not the new one: strangers that hold
    // their slots would otherwise keep every client out, while a real client says hello
    // within a moment of connecting.
    const pending = [...this.connections.values()].filter((connection) => !connection.isAuthenticated);
    const max = this.core.options.maxPendingHandshakes;
    if (pending.length >= max) {
      pending[0]?.rpc.close(new TetherError('HANDSHAKE_REQUIRED', `More than ${max} connections were waiting for their handshake; the oldest was closed.`));
    }
    const id = `c${this.nextConnection++}`;
    // Until its hello succeeds, a peer may send small frames only (docs/protocol.md §14),
    // and no peer may send a message nested deeper than the parser should ever walk.
    const limits = { ...this.core.options.limits, maxFrameBytesBeforeHandshake: HANDSHAKE_MAX_FRAME_BYTES, maxDepth: MAX_MESSAGE_DEPTH };
    const rpc = new RpcConnection(new FramedTransport(stream, limits));
    this.connections.set(id, new HostConnection(id, endpoint, rpc, this.core));
    rpc.start();
  }

  /** Sends a notification to every authenticated connection. */
  broadcast<S extends NotificationSpec>(spec: S, params: NotificationParams<S>): void {
    for (const connection of this.connections.values()) connection.send(spec, params);
  }

  /** Tells the connections that follow `uri` that it changed. */
  resourceUpdated(uri: string): void {
    for (const connection of this.connections.values()) {
      if (connection.subscriptions.has(uri)) connection.send(NOTIFICATION_TABLE.resourceUpdated, { uri });
    }
  }

  /** Past maxConnections, the oldest other connections are evicted with a bye that says why. */
  admitted(connection: ConnectionPeer): void {
    const max = this.core.options.maxConnections;
    if (max === undefined) return;
    const others = this.authenticated().filter((c) => c !== connection);
    for (const stale of others.slice(0, Math.max(0, others.length - max + 1))) {
      // Advice for the one evicted: "tether serve" is where several agents share a connection, unless that is what was evicted.
      const share = stale.clientName === SERVE_CLIENT_NAME ? '' : ' To use several agents at once, connect them through one "tether serve" (HTTP).';
      stale.bye({
        reason: 'evicted',
        status: 'evicted',
        message: `Another client (${connection.clientName || 'unnamed'}) connected from ${connection.endpoint}. This host serves ${max} connection(s) at a time, so this one was evicted, and it stays away so as not to evict the other in turn: close the other client or raise the host's connection limit, then restart this one (or the editor).${share}`,
        newClientEndpoint: connection.endpoint,
      });
    }
  }

  forget(connection: ConnectionPeer): void {
    this.connections.delete(connection.id);
  }

  /**
   * Says `bye` to every authenticated connection and closes the others, stops listening, and
   * waits (briefly) for peers to hang up: the byes are flushed by a graceful end, and a peer
   * that does not close its side in time is cut off.
   */
  async close(bye: Omit<Bye, 'at'>): Promise<void> {
    this.closing = true;
    for (const connection of this.connections.values()) {
      if (connection.isAuthenticated) connection.bye(bye);
      else connection.rpc.close();
    }
    const server = this.server;
    const serverClosed = server ? new Promise<void>((resolve) => server.close(() => resolve())) : Promise.resolve();
    await Promise.race([Promise.all([...this.sockets].map((socket) => new Promise((resolve) => socket.once('close', resolve)))), delay(CLOSE_GRACE_MS)]);
    for (const socket of this.sockets) socket.destroy();
    await serverClosed;
  }

  private acceptSocket(socket: Socket): void {
    if (this.closing) {
      socket.destroy();
      return;
    }
    this.sockets.add(socket);
    socket.once('close', () => this.sockets.delete(socket));
    this.accept(new SocketByteStream(socket, { readOnlyWhatPeerReads: true }), `${socket.remoteAddress ?? '?'}:${socket.remotePort ?? '?'}`);
  }
}

async function listenOn(server: Server, port: number): Promise<number> {
  const tryPort = (p: number): Promise<number> =>
    new Promise((resolve, reject) => {
      const onError = (error: Error): void => reject(error);
      server.once('error', onError);
      server.listen({ port: p, host: '127.0.0.1', exclusive: true }, () => {
        server.off('error', onError);
        resolve((server.address() as { port: number }).port);
      });
    });
  try {
    return await tryPort(port);
  } catch (error) {
    if (port === 0 || (error as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw error;
    return tryPort(0);
  }
}
