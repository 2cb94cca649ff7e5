/**
 * One pool of the session registry (session-registry.ts): its options, its sessions in
 * recency order, how many each source holds, and the order in which they make room.
 *
 * Who is evicted to make room, in order (a flood of new sessions must never take the place
 * of sessions that were working before it):
 *
 * 1. sessions never used since their handshake (not proven), least recently used first, once
 *    past the pool's short `unprovenFloorMs`: their clients have lost nothing, and a burst of
 *    `initialize` alone is all of this kind, so it displaces only itself;
 * 2. then proven sessions past the recency floor, taken from the source that holds the most
 *    sessions in the pool (least recently used first within it), and never from a source
 *    holding fewer than the newcomer's will: a client opening session after session pays with
 *    its own, not with an agent's that has been thinking for minutes. Plain LRU, which this
 *    was, let a burst each minute evict every session idle for more than the floor.
 *
 * A pinned session (a call in flight) is never evicted.
 */

export interface PoolOptions {
  /** Sessions the pool holds before put() evicts; it may exceed this while nothing is evictable. */
  capacity: number;
  /**
   * Sessions the pool never exceeds (default: twice the capacity): beyond the capacity only
   * sessions in use or used within the recency floor remain, and a burst of new ones must not
   * grow the pool without limit. put() of a new session then throws PoolFullError.
   */
  ceiling?: number;
  /** Never evict a session used more recently than this: a client between two requests is not idle. */
  recencyFloorMs: number;
  /**
   * The floor for a session not yet proven (used since its handshake); at most recencyFloorMs,
   * which is the default. Long enough for a client to send its first request after `initialize`.
   */
  unprovenFloorMs?: number;
  /** Reap after this much inactivity (Infinity: never), for clients that never send DELETE. */
  idleTtlMs: number;
}

export interface PoolStats {
  size: number;
  capacity: number;
  /** Sessions with at least one pin, not the sum of pins. */
  pinned: number;
}

/** A new session would take its pool past its ceiling, and no session in it may be evicted. */
export class PoolFullError extends Error {
  constructor(
    readonly pool: string,
    readonly ceiling: number,
    /** When the least recently used unpinned session passes its recency floor; undefined if all are pinned. */
    readonly retryAfterMs: number | undefined,
  ) {
    super(`The ${pool} session pool is full: ${ceiling} sessions, each in use or used recently.`);
  }
}

export interface Entry<S, P> {
  readonly id: string;
  readonly session: S;
  pool: P;
  /** Who opened it (see session-registry.ts); sessions of one source are counted together. */
  source: string;
  /** Used since its handshake: evicted only after every evictable unproven session. */
  proven: boolean;
  lastUsed: number;
  /** In-flight calls; a count because calls overlap, and a flag would be cleared by the first to end. */
  pins: number;
  /** False from the moment the entry leaves; a late release() then leaves the id's new entry alone. */
  live: boolean;
}

export interface Pool<S, P> {
  readonly options: Required<PoolOptions>;
  /** Insertion order is recency order: a touch re-inserts, so the first entry is the least recently used. */
  readonly entries: Map<string, Entry<S, P>>;
  /** Sessions in the pool per source. */
  readonly held: Map<string, number>;
}

/** stats() puts pools next to these counters: a pool named like one would hide it. */
const RESERVED_POOL_NAMES = new Set(['evictions', 'reaped']);

/** An empty pool, its options checked and completed. */
export function createPool<S, P>(name: string, pool: PoolOptions): Pool<S, P> {
  if (RESERVED_POOL_NAMES.has(name)) throw new RangeError(`pool name "${name}" is reserved`);
  if (!Number.isInteger(pool.capacity) || pool.capacity < 1) throw new RangeError(`pool "${name}": capacity must be an integer >= 1`);
  if (!(pool.recencyFloorMs >= 0)) throw new RangeError(`pool "${name}": recencyFloorMs must be >= 0`);
  if (!(pool.idleTtlMs > 0)) throw new RangeError(`pool "${name}": idleTtlMs must be > 0`);
  const ceiling = pool.ceiling ?? 2 * pool.capacity;
  if (!Number.isInteger(ceiling) || ceiling < pool.capacity) throw new RangeError(`pool "${name}": ceiling must be an integer >= capacity`);
  if (pool.unprovenFloorMs !== undefined && !(pool.unprovenFloorMs >= 0)) throw new RangeError(`pool "${name}": unprovenFloorMs must be >= 0`);
  const unprovenFloorMs = Math.min(pool.unprovenFloorMs ?? pool.recencyFloorMs, pool.recencyFloorMs);
  return { options: { ...pool, ceiling, unprovenFloorMs }, entries: new Map(), held: new Map() };
}

/** Adds `delta` to a source's count, forgetting sources that hold nothing. */
function count(held: Map<string, number>, source: string, delta: number): void {
  const next = (held.get(source) ?? 0) + delta;
  if (next > 0) held.set(source, next);
  else held.delete(source);
}

/** Puts an entry at the pool's most recent end, counted for its source. */
export function enter<S, P>(pool: Pool<S, P>, entry: Entry<S, P>): void {
  pool.entries.set(entry.id, entry);
  count(pool.held, entry.source, 1);
}

/** Takes an entry out of the pool, if it is there (and not a newer entry of its id). */
export function leave<S, P>(pool: Pool<S, P>, entry: Entry<S, P>): void {
  if (pool.entries.get(entry.id) !== entry) return;
  pool.entries.delete(entry.id);
  count(pool.held, entry.source, -1);
}

/** How long a session is kept from eviction after its last use. */
function floorOf<S, P>(pool: Pool<S, P>, entry: Entry<S, P>): number {
  return entry.proven ? pool.options.recencyFloorMs : pool.options.unprovenFloorMs;
}

/**
 * The next session to evict for a newcomer of `source`, whose source will then hold `held`:
 * the least recently used unproven one past its floor; else, of the proven ones past theirs,
 * the least recently used of the source holding the most, among the newcomer's own source and
 * those holding at least `held`. One pass in recency order.
 */
export function victim<S, P>(pool: Pool<S, P>, now: number, keep: Entry<S, P> | undefined, source: string, held: number): Entry<S, P> | undefined {
  let best: Entry<S, P> | undefined;
  let bestHeld = -1;
  for (const entry of pool.entries.values()) {
    if (entry === keep || entry.pins > 0 || now - entry.lastUsed < floorOf(pool, entry)) continue;
    if (!entry.proven) return entry;
    const entryHeld = pool.held.get(entry.source) ?? 0;
    if (entry.source !== source && entryHeld < held) continue;
    if (entryHeld > bestHeld) {
      best = entry;
      bestHeld = entryHeld;
    }
  }
  return best;
}

/** How long until the first session of the pool that is not pinned passes its floor; undefined if all are pinned. */
export function nextEvictableInMs<S, P>(pool: Pool<S, P>, now: number): number | undefined {
  let soonest: number | undefined;
  for (const entry of pool.entries.values()) {
    if (entry.pins > 0) continue;
    const wait = Math.max(0, entry.lastUsed + floorOf(pool, entry) - now);
    soonest = soonest === undefined ? wait : Math.min(soonest, wait);
  }
  return soonest;
}

/**
 * The sessions of `source` that cannot be evicted now (pinned, or used within their floor),
 * and how long until the first of them can be (undefined while all are pinned).
 */
export function protectedOf<S, P>(pool: Pool<S, P>, now: number, source: string): { count: number; nextEvictableInMs: number | undefined } {
  let held = 0;
  let soonest: number | undefined;
  for (const entry of pool.entries.values()) {
    if (entry.source !== source) continue;
    const wait = entry.lastUsed + floorOf(pool, entry) - now;
    if (entry.pins === 0 && wait <= 0) continue;
    held++;
    if (entry.pins === 0) soonest = soonest === undefined ? wait : Math.min(soonest, wait);
  }
  return { count: held, nextEvictableInMs: soonest };
}

/** Pool sizes and pins, by pool name. */
export function poolStats<S, P extends string>(pools: ReadonlyMap<P, Pool<S, P>>): Record<P, PoolStats> {
  const perPool = {} as Record<P, PoolStats>;
  for (const [name, pool] of pools) {
    let pinned = 0;
    for (const entry of pool.entries.values()) if (entry.pins > 0) pinned++;
    perPool[name] = { size: pool.entries.size, capacity: pool.options.capacity, pinned };
  }
  return perPool;
}
