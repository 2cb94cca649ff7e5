/**
 * Typed errors of the conformance suite. A check ends in one of three ways: it returns
 * (passed), throws CheckSkipped (the host cannot be tested for it, with the reason), or
 * throws anything else (failed; CheckFailure carries the human-readable detail).
 */

/** The host did not do what the protocol requires. */
export class CheckFailure extends Error {
  override readonly name = 'CheckFailure';
}

/** The check cannot run against this host (for example, its conformance kit is off). */
export class CheckSkipped extends Error {
  override readonly name = 'CheckSkipped';
}

/** No running host serves the project the suite was pointed at. */
export class HostNotFoundError extends Error {
  override readonly name = 'HostNotFoundError';
}

/** A host record was found, but the suite could not complete a handshake with it. */
export class HostUnreachableError extends Error {
  override readonly name = 'HostUnreachableError';
}

/** The reason every kit-dependent check gives when the host has no conformance kit. */
export const KIT_MISSING_REASON = 'start the host with its conformance kit enabled (sandbox: --conformance-kit)';
