/**
 * The proof handshake: client and host each show they know the host's token without sending
 * it (docs/protocol.md §6, §14). A host that writes `"auth": "proof"` in its record takes a
 * client's proof in place of the token and answers with a proof of its own, so a program that
 * took the host's port while the editor reloaded learns nothing secret and cannot pass for the
 * editor. Each proof is an HMAC-SHA256 of the client's fresh nonce under the token, labelled
 * by side, so neither can be replayed as the other.
 */
import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** The record's `auth` value of a host that takes proofs. */
export const PROOF_AUTH = 'proof';

/** 18 random bytes, base64url: 144 bits, more than any client will ever repeat. */
export function newNonce(): string {
  return randomBytes(18).toString('base64url');
}

export function clientProof(token: string, nonce: string): string {
  return mac(token, `tether/hello client ${nonce}`);
}

export function hostProof(token: string, nonce: string): string {
  return mac(token, `tether/hello host ${nonce}`);
}

/** Constant-time comparison of two secrets or proofs (the lengths alone may leak). */
export function secretsMatch(presented: string, expected: string): boolean {
  const a = Buffer.from(presented, 'utf8');
  const b = Buffer.from(expected, 'utf8');
  return a.length === b.length && timingSafeEqual(a, b);
}

function mac(token: string, message: string): string {
  return createHmac('sha256', token).update(message).digest('base64url');
}
