/**
 * Every error code Tether emits, in one table: the JSON-RPC number it travels as, where it
 * travels, and, for `tether serve`, its HTTP status. docs/errors.md documents each one, and a
 * test holds the two equal (test/architecture/error-registry.test.ts).
 *
 * Where a code travels says who can see it:
 *  - `host`: in a JSON-RPC error response on the host protocol, between a host and a client;
 *  - `local`: raised in the process that meets it (the client library, a front, the CLI, a
 *    host for its own bookkeeping), never sent on the host wire; it reaches people and agents
 *    as a string code (an MCP result's `_meta["tether/error"]`, `tether call`'s output);
 *  - `http`: in a response of `tether serve`'s HTTP endpoint.
 * A peer of the host protocol sees `host` and `local` codes, an HTTP client `http` ones: no
 * number serves two codes either can see, so a number alone still names its code.
 *
 * Lives in protocol/ (which imports nothing else of ours and nothing of Node) so that every
 * layer, the HTTP server included, can take its codes and numbers from here.
 */

export type ErrorChannel = 'host' | 'local' | 'http';

export interface ErrorSpec {
  /** The JSON-RPC number; none for a local error that is never serialized. */
  readonly rpc?: number;
  readonly channels: readonly ErrorChannel[];
  /** The HTTP status `tether serve` answers it with (`http` codes only). */
  readonly http?: number;
}

export const ERROR_REGISTRY = {
  // JSON-RPC 2.0's own faults.
  PARSE_ERROR: { rpc: -32700, channels: ['host', 'http'], http: 400 },
  INVALID_REQUEST: { rpc: -32600, channels: ['host', 'local'] },
  METHOD_NOT_FOUND: { rpc: -32601, channels: ['host'] },
  INVALID_PARAMS: { rpc: -32602, channels: ['host', 'local'] },
  INTERNAL_ERROR: { rpc: -32603, channels: ['host', 'local', 'http'], http: 500 },

  // Connection and framing (-32000 .. -32009).
  UNAUTHORIZED: { rpc: -32000, channels: ['host', 'http'], http: 401 },
  UNSUPPORTED_VERSION: { rpc: -32001, channels: ['host'] },
  HANDSHAKE_REQUIRED: { rpc: -32002, channels: ['host'] },
  FRAME_TOO_LARGE: { rpc: -32003, channels: ['host', 'local'] },
  HEADER_INVALID: { rpc: -32004, channels: ['host'] },
  FRAME_TIMEOUT: { rpc: -32005, channels: ['host'] },
  CONNECTION_CLOSED: { rpc: -32006, channels: ['local'] },
  REQUEST_TIMEOUT: { rpc: -32007, channels: ['local'] },
  EVICTED: { rpc: -32008, channels: ['local'] },
  HOST_UNVERIFIED: { rpc: -32009, channels: ['local'] },

  // Tools and calls (-32010 .. -32029).
  UNKNOWN_TOOL: { rpc: -32010, channels: ['host'] },
  INVALID_ARGUMENTS: { rpc: -32011, channels: ['host', 'local'] },
  CALL_ID_CONFLICT: { rpc: -32012, channels: ['host'] },
  UNKNOWN_CALL: { rpc: -32013, channels: ['host'] },
  CANCELLED: { rpc: -32014, channels: ['host', 'local'] },
  DEADLINE_EXCEEDED: { rpc: -32015, channels: ['host'] },
  TOOL_FAILED: { rpc: -32016, channels: ['host'] },
  OUTCOME_UNKNOWN: { rpc: -32017, channels: ['host', 'local'] },
  PATH_OUTSIDE_PROJECT: { rpc: -32018, channels: ['host'] },
  DUPLICATE_CALL: { rpc: -32019, channels: ['host'] },
  RESULT_NOT_WRITTEN: { rpc: -32020, channels: ['local'] },

  // Resources, prompts, client requests (-32030 .. -32039).
  NOT_FOUND: { rpc: -32030, channels: ['host', 'http'], http: 404 },
  NO_CLIENT: { rpc: -32031, channels: ['host'] },
  CLIENT_REQUEST_FAILED: { rpc: -32032, channels: ['host'] },

  // Fronts finding and reaching hosts (-32040 .. -32049); these never come from a host.
  HOST_NOT_FOUND: { rpc: -32040, channels: ['local'] },
  HOST_AMBIGUOUS: { rpc: -32041, channels: ['local'] },
  HOST_UNAVAILABLE: { rpc: -32042, channels: ['local'] },

  // tether serve's HTTP endpoint (-32050 .. -32069); never on the host protocol.
  BAD_REQUEST: { rpc: -32050, channels: ['http'], http: 400 },
  SESSION_REQUIRED: { rpc: -32051, channels: ['http'], http: 400 },
  FORBIDDEN_HOST: { rpc: -32052, channels: ['http'], http: 403 },
  FORBIDDEN_ORIGIN: { rpc: -32053, channels: ['http'], http: 403 },
  SESSION_NOT_FOUND: { rpc: -32054, channels: ['http'], http: 404 },
  SESSION_ENDED: { rpc: -32055, channels: ['http'], http: 404 },
  BODY_TOO_LARGE: { rpc: -32056, channels: ['http'], http: 413 },
  SESSION_QUOTA: { rpc: -32057, channels: ['http'], http: 429 },
  SESSION_LIMIT: { rpc: -32058, channels: ['http'], http: 503 },
  SHUTTING_DOWN: { rpc: -32059, channels: ['http'], http: 503 },

  // Errors of a process's own start, shown by the CLI and never serialized (no number).
  PROJECT_IN_USE: { channels: ['local'] },
  UNSAFE_DIRECTORY: { channels: ['local'] },
} as const satisfies Record<string, ErrorSpec>;

type Registry = typeof ERROR_REGISTRY;

export type RegisteredErrorCode = keyof Registry;

/** The codes that have a number, so can be serialized. */
export type NumberedErrorCode = { [K in RegisteredErrorCode]: Registry[K] extends { rpc: number } ? K : never }[RegisteredErrorCode];

/** The codes of the host protocol and what is built on it: what a TetherError carries (errors.ts). */
export type TetherErrorCode = {
  [K in NumberedErrorCode]: Extract<Registry[K]['channels'][number], 'host' | 'local'> extends never ? never : K;
}[NumberedErrorCode];

/** The codes `tether serve` answers HTTP requests with. */
export type HttpErrorCode = { [K in RegisteredErrorCode]: Registry[K] extends { http: number } ? K : never }[RegisteredErrorCode];

export function isTetherErrorCode(code: string): code is TetherErrorCode {
  if (!Object.hasOwn(ERROR_REGISTRY, code)) return false;
  const spec: ErrorSpec = ERROR_REGISTRY[code as RegisteredErrorCode];
  return spec.rpc !== undefined && spec.channels.some((channel) => channel === 'host' || channel === 'local');
}

/** The error object of a JSON-RPC error response, as Tether writes it: the one shape a serialized error takes. */
export interface WireError {
  code: number;
  message: string;
  data?: { code?: string; [key: string]: unknown };
}

/**
 * A code's error as it travels: its number, the message, and its data with the string code
 * added under `data.code` (which overwrites any `code` of the data's own).
 */
export function wireError(code: NumberedErrorCode, message: string, data: Record<string, unknown> = {}): WireError {
  return { code: ERROR_REGISTRY[code].rpc, message, data: { ...data, code } };
}

/** The HTTP status `tether serve` answers a code with. */
export function httpStatusOf(code: HttpErrorCode): number {
  return ERROR_REGISTRY[code].http;
}
