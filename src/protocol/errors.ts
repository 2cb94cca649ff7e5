/**
 * Typed errors of the host protocol.
 *
 * Every error that crosses the wire has a stable string code (match on it, never on the
 * message), the JSON-RPC numeric code it travels with, a message that says what happened
 * and what to do, and machine-readable data. docs/errors.md lists every code.
 */

/** Each stable code with the JSON-RPC code it travels as. */
export const ERROR_CODES = {
  // JSON-RPC 2.0's own faults.
  PARSE_ERROR: -32700,
  INVALID_REQUEST: -32600,
  METHOD_NOT_FOUND: -32601,
  INVALID_PARAMS: -32602,
  INTERNAL_ERROR: -32603,

  // Connection and framing (-32000 .. -32009).
  UNAUTHORIZED: -32000,
  UNSUPPORTED_VERSION: -32001,
  HANDSHAKE_REQUIRED: -32002,
  FRAME_TOO_LARGE: -32003,
  HEADER_INVALID: -32004,
  FRAME_TIMEOUT: -32005,
  CONNECTION_CLOSED: -32006,
  REQUEST_TIMEOUT: -32007,
  EVICTED: -32008,
  HOST_UNVERIFIED: -32009,

  // Tools and calls (-32010 .. -32029).
  UNKNOWN_TOOL: -32010,
  INVALID_ARGUMENTS: -32011,
  CALL_ID_CONFLICT: -32012,
  UNKNOWN_CALL: -32013,
  CANCELLED: -32014,
  DEADLINE_EXCEEDED: -32015,
  TOOL_FAILED: -32016,
  OUTCOME_UNKNOWN: -32017,
  PATH_OUTSIDE_PROJECT: -32018,
  DUPLICATE_CALL: -32019,

  // Resources, prompts, client requests (-32030 .. -32039).
  NOT_FOUND: -32030,
  NO_CLIENT: -32031,
  CLIENT_REQUEST_FAILED: -32032,

  // Fronts finding and reaching hosts (-32040 .. -32049); these never come from a host.
  HOST_NOT_FOUND: -32040,
  HOST_AMBIGUOUS: -32041,
  HOST_UNAVAILABLE: -32042,
} as const;

export type ErrorCode = keyof typeof ERROR_CODES;

const CODE_BY_NUMBER = new Map<number, ErrorCode>(
  Object.entries(ERROR_CODES).map(([code, rpc]) => [rpc, code as ErrorCode]),
);

/** The error object of a JSON-RPC error response, as Tether writes it. */
export interface WireError {
  code: number;
  message: string;
  data?: { code?: string; [key: string]: unknown };
}

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
    return { code: this.rpcCode, message: this.message, data: { ...this.data, code: this.code } };
  }

  toJSON(): { code: ErrorCode; message: string; data: Record<string, unknown> } {
    return { code: this.code, message: this.message, data: this.data };
  }

  /** Rebuilds an error read from the wire; unknown codes become INTERNAL_ERROR with the original kept. */
  static fromWire(wire: WireError): TetherError {
    const { code: named, ...data } = wire.data ?? {};
    const code =
      typeof named === 'string' && Object.hasOwn(ERROR_CODES, named)
        ? (named as ErrorCode)
        : (CODE_BY_NUMBER.get(wire.code) ?? 'INTERNAL_ERROR');
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
