/**
 * What `tether serve` uses unless told otherwise, and why: timeouts, bounds on connections
 * without the token, the session pools, when sessions sleep and their memory is reclaimed.
 */
import { TetherError } from '../protocol/index.js';
import type { PoolName } from './http-session.js';
import type { PoolOptions } from './session-pools.js';

/** Idle time before the system first probes a connection (then, on Linux, 9 probes 75 s apart). */
export const KEEPALIVE_DELAY_MS = 60_000;

/**
 * What a peer without the token may hold (pending-connections.ts): a few seconds per
 * connection, and this many connections at once. An agent's request comes with its connection
 * and passes the token check at once; remote ones over a slow link have seconds to spare.
 */
export const DEFAULT_HEADER_TIMEOUT_MS = 5_000;
export const DEFAULT_MAX_UNAUTHENTICATED_CONNECTIONS = 128;
/**
 * Node's own limit on receiving a whole request (its default): an authenticated body of up to
 * --max-body-bytes has minutes. It ends when the request has arrived: the answer (a call of an
 * hour, a stream an agent listens on) is not timed.
 */
export const REQUEST_TIMEOUT_MS = 300_000;
/** How often the log may say that connections were shed. */
export const SHED_LOG_INTERVAL_MS = 60_000;

/** Long enough that an agent between two steps stays awake; waking costs a few milliseconds. */
export const DEFAULT_SESSION_DORMANT_MS = 60_000;

/**
 * A full collection pauses the server for ~20 ms per 40 MB of heap: worth it once this many
 * sessions' memory (~30 KiB each) is garbage, and run at most 1/RECLAIM_PACE of the time.
 */
export const RECLAIM_AFTER_SESSIONS = 64;
export const RECLAIM_PACE = 20;

/**
 * A session nobody has used since its handshake is kept from eviction this long at most (and
 * never longer than its pool's recency floor): a client sends its first request at once.
 */
export const UNPROVEN_FLOOR_MS = 10_000;

export const DEFAULT_POOLS: Record<PoolName, PoolOptions> = {
  interactive: { capacity: 256, recencyFloorMs: 60_000, unprovenFloorMs: UNPROVEN_FLOOR_MS, idleTtlMs: 30 * 60_000 },
  ephemeral: { capacity: 1024, recencyFloorMs: 5_000, unprovenFloorMs: UNPROVEN_FLOOR_MS, idleTtlMs: 5 * 60_000 },
};

/**
 * Sessions nobody may evict yet that one client may hold in a pool at its capacity before its
 * next initialize gets 429, unless told (`--sessions-per-client`): half the capacity, so one
 * client never holds more than the pool was sized for and the rest of the ceiling stays for the
 * others (mcp-endpoint.ts); at least this many, so a small pool set by hand still takes a
 * client's burst.
 */
export const MIN_SESSIONS_PER_CLIENT = 16;

/** The session pools: the defaults, with what the command line changed. */
export function sessionPools(overrides: Partial<Record<PoolName, Partial<PoolOptions>>> = {}): Record<PoolName, PoolOptions> {
  return {
    interactive: { ...DEFAULT_POOLS.interactive, ...overrides.interactive },
    ephemeral: { ...DEFAULT_POOLS.ephemeral, ...overrides.ephemeral },
  };
}

/** Per pool, the share of one client (see MIN_SESSIONS_PER_CLIENT); `told` applies to every pool. */
export function sessionsPerClient(pools: Record<PoolName, PoolOptions>, told: number | undefined): Record<PoolName, number> {
  const share = (pool: PoolOptions): number => told ?? Math.max(MIN_SESSIONS_PER_CLIENT, Math.floor(pool.capacity / 2));
  return { interactive: share(pools.interactive), ephemeral: share(pools.ephemeral) };
}

/** `--header-timeout-ms`, checked: at least 1 ms, at most what Node gives a whole request. */
export function headerTimeout(told: number | undefined): number {
  const ms = told ?? DEFAULT_HEADER_TIMEOUT_MS;
  if (!Number.isInteger(ms) || ms < 1 || ms > REQUEST_TIMEOUT_MS) {
    throw new TetherError('INVALID_PARAMS', `--header-timeout-ms must be an integer from 1 to ${REQUEST_TIMEOUT_MS}.`, { headerTimeoutMs: ms });
  }
  return ms;
}
