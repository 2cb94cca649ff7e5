/**
 * What a client may ask of a call in the request's `_meta`:
 * - `tether/idempotencyKey`: a repeat with the same key returns the stored result (within the
 *   host's retention) instead of running again; the same key with other arguments is refused.
 * - `tether/deadlineMs`: the execution deadline for this call, instead of the tool's.
 */
import { createHash } from 'node:crypto';
import { TetherError } from '../protocol/index.js';

export const IDEMPOTENCY_KEY = 'tether/idempotencyKey';
export const DEADLINE_KEY = 'tether/deadlineMs';

export interface CallRequestOptions {
  idempotencyKey?: string;
  deadlineMs?: number;
}

export function callOptionsFrom(meta: Record<string, unknown> | undefined): CallRequestOptions {
  if (!meta) return {};
  const key = meta[IDEMPOTENCY_KEY];
  const deadline = meta[DEADLINE_KEY];
  if (key !== undefined && (typeof key !== 'string' || key.length === 0 || key.length > 256)) {
    throw new TetherError('INVALID_PARAMS', `_meta["${IDEMPOTENCY_KEY}"] must be a non-empty string of at most 256 characters.`, { field: IDEMPOTENCY_KEY });
  }
  if (deadline !== undefined && (typeof deadline !== 'number' || !Number.isInteger(deadline) || deadline <= 0)) {
    throw new TetherError('INVALID_PARAMS', `_meta["${DEADLINE_KEY}"] must be a positive integer (milliseconds).`, { field: DEADLINE_KEY });
  }
  return { ...(key === undefined ? {} : { idempotencyKey: key }), ...(deadline === undefined ? {} : { deadlineMs: deadline }) };
}

/**
 * The callId for an idempotency key: the same key always maps to the same callId, so the
 * host's journal does the rest (replay within retention, CALL_ID_CONFLICT for other arguments),
 * across every front that talks to that host.
 */
export function callIdForKey(key: string): string {
  return `key-${createHash('sha256').update(key).digest('hex').slice(0, 40)}`;
}
