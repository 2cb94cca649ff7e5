/** The suite's hand-written hello: what it presents to a host, by what the host's record asks for. */
import { describe, expect, it } from 'vitest';
import { clientProof } from '../../src/discovery/host-proof.js';
import { helloFrame } from '../../src/conformance/raw-connection.js';

function bodyOf(frame: Buffer): { params: Record<string, unknown> } {
  const text = frame.toString('utf8');
  return JSON.parse(text.slice(text.indexOf('\r\n\r\n') + 4)) as { params: Record<string, unknown> };
}

describe('helloFrame', () => {
  it('presents a proof, never the token, to a host whose record says auth: proof (protocol.md §12)', () => {
    const frame = helloFrame(1, { token: 'the-secret-token', auth: 'proof' });
    expect(frame.toString('utf8')).not.toContain('the-secret-token');
    const { proof, token } = bodyOf(frame).params as { proof: { nonce: string; mac: string }; token?: string };
    expect(token).toBeUndefined();
    expect(proof.mac).toBe(clientProof('the-secret-token', proof.nonce));
    // A fresh nonce each time: a host refuses a nonce it has seen.
    const again = bodyOf(helloFrame(2, { token: 'the-secret-token', auth: 'proof' })).params as { proof: { nonce: string } };
    expect(again.proof.nonce).not.toBe(proof.nonce);
  });

  it('presents the token to a host whose record asks for nothing else', () => {
    expect(bodyOf(helloFrame(1, { token: 'plain' })).params).toMatchObject({ token: 'plain', protocolVersion: 1 });
  });
});
