/**
 * The client end of one host connection: TCP connect, framing, handshake. The link's state
 * machine, the conformance suite and `tether call` all open connections through this.
 */
import { connect as tcpConnect, type Socket } from 'node:net';
import {
  FramedTransport,
  HelloResult,
  HANDSHAKE_MAX_FRAME_BYTES,
  resolveLimits,
  METHODS,
  PROTOCOL_VERSION,
  RpcConnection,
  TetherError,
  firstIssue,
  type FrameLimits,
  type StringLifter,
} from '../protocol/index.js';
import { clientProof, hostProof, newNonce, secretsMatch } from '../discovery/host-proof.js';
import { SocketByteStream } from '../net/socket-stream.js';

/**
 * What a client reads from its host by default: more than the protocol's 64 MiB, because
 * results are what is large (a 50 MB image is 67 MB as base64) and the client announces it.
 */
export const FRONT_MAX_FRAME_BYTES = 256 * 1024 * 1024;

export interface ConnectOptions {
  port: number;
  host?: string;
  token: string;
  protocolVersion?: number;
  clientName?: string;
  clientVersion?: string;
  capabilities?: { elicitation?: boolean; sampling?: boolean };
  limits?: Partial<FrameLimits>;
  /** Lifts long strings out of large frames, for a relay that writes results on unchanged (see long-string-lifter.ts). */
  liftStrings?: StringLifter;
  /** Gives up connecting plus handshaking after this long (default 5 s). */
  timeoutMs?: number;
  /** Installs handlers before the handshake so no early notification is missed. */
  prepare?(rpc: RpcConnection): void;
}

export interface HostSession {
  rpc: RpcConnection;
  hello: HelloResult;
  socket: Socket;
}

export function openSocket(port: number, host = '127.0.0.1', timeoutMs = 5_000): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = tcpConnect({ port, host, noDelay: true });
    const timer = setTimeout(() => {
      socket.destroy();
      reject(new TetherError('REQUEST_TIMEOUT', `Could not connect to ${host}:${port} within ${timeoutMs} ms.`));
    }, timeoutMs);
    socket.once('connect', () => {
      clearTimeout(timer);
      socket.removeAllListeners('error');
      resolve(socket);
    });
    socket.once('error', (error) => {
      clearTimeout(timer);
      const errno = (error as NodeJS.ErrnoException).code;
      reject(new TetherError('CONNECTION_CLOSED', `Could not connect to ${host}:${port}: ${error.message}. Is the editor running?`, { port, ...(errno ? { errno } : {}) }));
    });
  });
}

/** Connects and completes the handshake; the returned session is authenticated and open. */
export async function connectToHost(options: ConnectOptions): Promise<HostSession> {
  const timeoutMs = options.timeoutMs ?? 5_000;
  const socket = await openSocket(options.port, options.host, timeoutMs);
  // The host's frames may be large once it has answered the hello; until then, small ones only.
  const limits = resolveLimits({ maxFrameBytes: FRONT_MAX_FRAME_BYTES, ...options.limits, maxFrameBytesBeforeHandshake: HANDSHAKE_MAX_FRAME_BYTES });
  const rpc = new RpcConnection(new FramedTransport(new SocketByteStream(socket), limits, options.liftStrings));
  // Hosts ping their clients and drop those that do not answer.
  rpc.onRequest(METHODS.ping, () => ({}));
  options.prepare?.(rpc);
  rpc.start();
  // Always a proof, never the token (protocol.md §14): whatever holds the port learns nothing,
  // and the listener must prove it knows the token before anything else is sent.
  const nonce = newNonce();
  let raw: unknown;
  try {
    raw = await rpc.request(
      METHODS.hello,
      {
        proof: { nonce, mac: clientProof(options.token, nonce) },
        protocolVersion: options.protocolVersion ?? PROTOCOL_VERSION,
        client: { name: options.clientName ?? 'tether', ...(options.clientVersion ? { version: options.clientVersion } : {}) },
        capabilities: options.capabilities ?? {},
        limits: { maxFrameBytes: limits.maxFrameBytes },
      },
      { timeoutMs },
    );
  } catch (error) {
    rpc.close();
    throw error;
  }
  const hello = HelloResult.safeParse(raw);
  if (!hello.success) {
    rpc.close();
    // What is wrong, for whoever implements the host: the first field, as the spec names it (protocol.md §6.2).
    const { field, message, issues } = firstIssue(hello.error, '(the result itself)');
    throw new TetherError('INVALID_REQUEST', `The host answered the handshake with an unexpected shape (${field}: ${message}; see protocol.md §6.2); is it a Tether host of a compatible version?`, {
      field,
      issues: issues.slice(0, 5),
    });
  }
  if (!secretsMatch(hello.data.proof?.mac ?? '', hostProof(options.token, nonce))) {
    rpc.close();
    throw new TetherError(
      'HOST_UNVERIFIED',
      `The program listening on ${options.host ?? '127.0.0.1'}:${options.port} did not prove it knows the editor's token, so it is not the editor (another program may hold its port, for example while the editor reloads). Nothing secret was sent to it; look for the editor again once its record changes.`,
      { port: options.port },
    );
  }
  // A bye can arrive in the same chunk as the handshake reply (a host starting to reload):
  // checked after the proof, so that `handshake: "completed"` says the bye came from the host.
  if (!rpc.isOpen) {
    throw new TetherError('CONNECTION_CLOSED', 'The host closed the connection right after the handshake.', { cause: rpc.closedWith?.toJSON(), handshake: 'completed' });
  }
  // The host proved it knows the token, so its large results go straight into full-size buffers.
  rpc.peerAuthenticated();
  return { rpc, hello: hello.data, socket };
}
