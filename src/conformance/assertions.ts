/**
 * Assertions for checks. Each failure throws a CheckFailure whose message is the one line
 * the report prints, so it says what was expected and what the host did instead.
 */
import { isDeepStrictEqual } from 'node:util';
import { ERROR_CODES, TetherError, type ErrorCode, type WireError } from '../protocol/index.js';
import { CheckFailure } from './errors.js';

export function assert(condition: unknown, message: string): asserts condition {
  if (!condition) throw new CheckFailure(message);
}

export function assertEqual<T>(actual: unknown, expected: T, what: string): asserts actual is T {
  if (!isDeepStrictEqual(actual, expected)) throw new CheckFailure(`${what}: expected ${show(expected)}, got ${show(actual)}`);
}

/** A compact rendering of a value for a failure message. */
export function show(value: unknown): string {
  if (value === undefined) return 'undefined';
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
}

/** How a promise ended, and when; lets a check start work now and look at it later without unhandled rejections. */
export type Outcome<T> = { ok: true; value: T; at: number } | { ok: false; error: TetherError; at: number };

export function settle<T>(promise: Promise<T>): Promise<Outcome<T>> {
  return promise.then(
    (value) => ({ ok: true as const, value, at: Date.now() }),
    (error: unknown) => ({ ok: false as const, error: TetherError.from(error), at: Date.now() }),
  );
}

/** Resolves with the error a request failed with; fails the check if it succeeded or failed otherwise. */
export async function expectRejection(promise: Promise<unknown> | Outcome<unknown>, code: ErrorCode, what: string): Promise<TetherError> {
  const outcome = promise instanceof Promise ? await settle(promise) : promise;
  if (outcome.ok) throw new CheckFailure(`${what}: expected ${code}, but it succeeded with ${show(outcome.value)}`);
  if (outcome.error.code !== code) throw new CheckFailure(`${what}: expected ${code}, got ${outcome.error.code} (${outcome.error.message})`);
  return outcome.error;
}

/** The value of a request that must succeed, with the host's error as the failure detail. */
export function expectSuccess<T>(outcome: Outcome<T>, what: string): T {
  if (!outcome.ok) throw new CheckFailure(`${what}: failed with ${outcome.error.code} (${outcome.error.message})`);
  return outcome.value;
}

/**
 * Checks an error object as it travelled on the wire: both the JSON-RPC number and the
 * stable string in data.code must name the expected error.
 */
export function expectWireError(error: WireError | undefined, code: ErrorCode, what: string): WireError {
  assert(error !== undefined, `${what}: expected a ${code} error, but the host answered with a result`);
  const named = error.data?.code;
  assert(
    error.code === ERROR_CODES[code] && named === code,
    `${what}: expected ${code} (${ERROR_CODES[code]}, data.code "${code}"), got code ${error.code}, data.code ${show(named)} (${error.message})`,
  );
  return error;
}

/** Fails the check when the promise does not settle in time; the timer never outlives it. */
export async function within<T>(promise: Promise<T>, ms: number, what: string): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(new CheckFailure(`${what}: nothing within ${ms} ms`)), ms);
  });
  try {
    return await Promise.race([promise, timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}
