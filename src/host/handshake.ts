/**
 * The host's side of the handshake (protocol.md §6.1, §14): a hello is taken only with a
 * proof of the token, never the token itself, a proof not seen before, and a protocol
 * version the host speaks. Messages name neither the token nor the records folder (the
 * user's home).
 */
import { clientProof, hostProof, secretsMatch } from '../discovery/host-proof.js';
import { METHODS, PROTOCOL_VERSION, SUPPORTED_PROTOCOL_VERSIONS, TetherError, type HelloParams, type HelloResult, type HostStateName } from '../protocol/index.js';
import type { HostCore } from './host-core.js';

/** Why a hello is refused, the first reason found; undefined when it is taken. */
export function helloRefusal(params: HelloParams, core: Pick<HostCore, 'options' | 'identity' | 'firstUseOf'>): TetherError | undefined {
  const { token } = core.options;
  const host = core.identity.name;
  // Proofs only: a client that sends the token itself would send it as readily to whatever
  // holds the port while the editor reloads, so it is refused even when right.
  if (!params.proof) {
    return new TetherError(
      'UNAUTHORIZED',
      `Host "${host}" takes only a proof of its token ("proof" in ${METHODS.hello}, protocol.md §6.1), never the token itself: upgrade the client, which should read the token from the host's record under $TETHER_HOME/hosts and prove it knows it.`,
    );
  }
  // The nonce is spent only by a proof that matches: a stranger's guesses use up nothing.
  if (!secretsMatch(params.proof.mac, clientProof(token, params.proof.nonce)) || !core.firstUseOf(params.proof.nonce)) {
    return new TetherError(
      'UNAUTHORIZED',
      `The proof does not match the token of host "${host}" (or its nonce was used before). Read the current token from the host's record under $TETHER_HOME/hosts and connect again with a fresh nonce.`,
    );
  }
  if (!SUPPORTED_PROTOCOL_VERSIONS.includes(params.protocolVersion)) {
    return new TetherError(
      'UNSUPPORTED_VERSION',
      `Protocol version ${params.protocolVersion} is not supported by this host (it speaks ${SUPPORTED_PROTOCOL_VERSIONS.join(', ')}). Upgrade the older side.`,
      { supported: SUPPORTED_PROTOCOL_VERSIONS, requested: params.protocolVersion },
    );
  }
  return undefined;
}

/** What a hello is answered with: the host, its capabilities, limits, heartbeat and state, and the connection's name. */
export function helloResultOf(core: Pick<HostCore, 'options' | 'identity'>, state: HostStateName, connectionId: string): HelloResult {
  const { options } = core;
  return {
    protocolVersion: PROTOCOL_VERSION,
    host: core.identity,
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      ...(options.maxConnections === undefined ? {} : { maxConnections: options.maxConnections }),
    },
    limits: options.limits,
    heartbeatMs: options.heartbeatMs,
    deadlineGraceMs: options.deadlineGraceMs,
    pingIntervalMs: options.pingIntervalMs,
    state,
    connectionId,
  };
}

/** The hello result with the host's half of the proof: it knows the token too, so it is the editor and not whoever holds the port. */
export function withHostProof(result: HelloResult, params: HelloParams, token: string): HelloResult {
  return params.proof ? { ...result, proof: { mac: hostProof(token, params.proof.nonce) } } : result;
}

/** What a peer that skips the handshake is told before the connection closes. */
export function handshakeRequired(): TetherError {
  // Proof, not token: a client must never send the token (protocol.md §14).
  return new TetherError('HANDSHAKE_REQUIRED', `Send "${METHODS.hello}", with a proof of the token in the host's record, before anything else; closing.`);
}

/** A second hello on a connection that passed the handshake. */
export function helloRepeated(): TetherError {
  return new TetherError('INVALID_REQUEST', 'The handshake was already completed on this connection.');
}
