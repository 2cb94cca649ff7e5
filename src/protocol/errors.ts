/**
 * Typed errors of the host protocol.
 *
 * Every error that crosses the wire has a stable string code (match on it, never on the
 * message), the JSON-RPC numeric code it travels with, a message that says what happened
 * and what to do, and machine-readable data. The codes, their numbers and where they travel
 * are in error-registry.ts; docs/errors.md documents each one.
 */
import { ERROR_REGISTRY, isTetherErrorCode, wireError, type TetherErrorCode, type WireError } from './error-registry.js';

export type { WireError } from './error-registry.js';

export type ErrorCode = TetherErrorCode;

/** Each stable code a TetherError carries, with the JSON-RPC code it travels as (from error-registry.ts). */
export const ERROR_CODES = Object.fromEntries(
  Object.keys(ERROR_REGISTRY)
    .filter(isTetherErrorCode)
    .map((code) => [code, ERROR_REGISTRY[code].rpc]),
) as { readonly [K in ErrorCode]: (typeof ERROR_REGISTRY)[K]['rpc'] };

const CODE_BY_NUMBER = new Map<number, ErrorCode>(Object.entries(ERROR_CODES).map(([code, rpc]) => [rpc, code as ErrorCode]));

export class TetherError extends Error {
  override readonly name = 'TetherError';

  constructor(
    readonly code: ErrorCode,
    message: string,
    readonly data: Record<string, unknown> = {},
  ) {
    super(message);
  }

  get rpcCode(): number {
    return ERROR_CODES[this.code];
  }

  toWire(): WireError {
    return wireError(this.code, this.message, this.data);
  }

  toJSON(): { code: ErrorCode; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error read from the wire; unknown codes become INTERNAL_ERROR with the original kept. */
  static fromWire(wire: WireError): TetherError {
    const { code: named, ...data } = wire.data ?? {};
    const code = typeof named === 'string' && Object.hasOwn(ERROR_CODES, named) ? (named as ErrorCode) : (CODE_BY_NUMBER.get(wire.code) ?? 'INTERNAL_ERROR');
    if (!CODE_BY_NUMBER.has(wire.code)) data.rpcCode = wire.code;
    return new TetherError(code, wire.message, data);
  }

  /** Wraps anything thrown into a TetherError, keeping TetherErrors as they are. */
  static from(error: unknown, code: ErrorCode = 'INTERNAL_ERROR'): TetherError {
    if (error instanceof TetherError) return error;
    const message = error instanceof Error ? error.message : String(error);
    return new TetherError(code, message);
  }
}

export function isTetherError(error: unknown, code?: ErrorCode): error is TetherError {
  return error instanceof TetherError && (code === undefined || error.code === code);
}

/**
 * A name or value the peer sent, as an error echoes it: whole when short, else its start and
 * its length, so that a megabyte-long name does not come back as two megabytes of error.
 */
export function clipped(text: string, max = 200): string {
  return text.length <= max ? text : `${text.slice(0, max)}… (${text.length} characters)`;
}
