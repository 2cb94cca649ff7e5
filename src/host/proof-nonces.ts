/**
 * The nonces of the proofs a listener has taken (protocol.md §14): a hello whose proof was
 * seen before is a replay, and is refused.
 */

/** Proof nonces remembered per token; past it the oldest are forgotten (each is 144 random bits). */
const MAX_REMEMBERED_NONCES = 65_536;

/**
 * The nonces seen under each token an embedder gave, for the life of the process: such a token
 * outlives its listener (a reload builds a new Host with it), and a proof that whatever held
 * the port in between was sent must not open the next listener. A token of the host's own is
 * new with each listener and needs no more than the listener's memory.
 */
const noncesOfGivenTokens = new Map<string, Set<string>>();

export class ProofNonces {
  private readonly used: Set<string>;

  /** `givenToken`: the token the embedder gave, if any (see above). */
  constructor(givenToken: string | undefined) {
    this.used = givenToken === undefined ? new Set() : nonceMemoryOf(givenToken);
  }

  /** True the first time a client's proof nonce is seen: a replayed hello is refused. */
  firstUseOf(nonce: string): boolean {
    if (this.used.has(nonce)) return false;
    this.used.add(nonce);
    if (this.used.size > MAX_REMEMBERED_NONCES) this.used.delete(this.used.values().next().value as string);
    return true;
  }
}

function nonceMemoryOf(token: string): Set<string> {
  let seen = noncesOfGivenTokens.get(token);
  if (!seen) noncesOfGivenTokens.set(token, (seen = new Set()));
  return seen;
}
