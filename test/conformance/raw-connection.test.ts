/** The suite's hand-written hello: a proof of the token, never the token (protocol.md §14). */
import { describe, expect, it } from 'vitest';
import { clientProof } from '../../src/discovery/host-proof.js';
import { helloFrame } from '../../src/conformance/raw-connection.js';

function bodyOf(frame: Buffer): { params: Record<string, unknown> } {
  const text = frame.toString('utf8');
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { params: Record<string, unknown> };
}

describe('helloFrame', () => {
  it('presents a proof, never the token', () => {
    const frame = helloFrame(1, { token: 'the-secret-token' });
    expect(frame.toString('utf8')).not.toContain('the-secret-token');
    const { proof, token } = bodyOf(frame).params as { proof: { nonce: string; mac: string }; token?: string };
    expect(token).toBeUndefined();
    expect(proof.mac).toBe(clientProof('the-secret-token', proof.nonce));
    // A fresh nonce each time: a host refuses a nonce it has seen.
    const again = bodyOf(helloFrame(2, { token: 'the-secret-token' })).params as { proof: { nonce: string } };
    expect(again.proof.nonce).not.toBe(proof.nonce);
  });
});
