/**
 * The registry of `tether serve`'s MCP sessions: bounded, LRU, split into pools (say
 * interactive and ephemeral) that each have their own capacity, recency floor and idle TTL.
 *
 * The one rule everything else follows: a session leaves the registry synchronously and
 * completely (out of every map, `onEnd` run) before anything else can happen, and only its
 * own `shutdown()` is asynchronous. The registry never touches its maps again once a shutdown
 * has started, so a slow shutdown cannot corrupt a newer session that reused the id. (The
 * design this follows ran its eviction hook after an await and had to re-check for a reused
 * id; here there is nothing to re-check.)
 *
 * Who is evicted to make room, in order (a flood of new sessions must never take the place
 * of sessions that were working before it):
 *
 * 1. sessions never used since their handshake (`prove` not called), least recently used
 *    first, once past the pool's short `unprovenFloorMs`: their clients have lost nothing, and
 *    a burst of `initialize` alone is all of this kind, so it displaces only itself;
 * 2. then proven sessions past the recency floor, taken from the source that holds the most
 *    sessions in the pool (least recently used first within it), and never from a source
 *    holding fewer than the newcomer's will: a client opening session after session pays with
 *    its own, not with an agent's that has been thinking for minutes. Plain LRU, which this
 *    was, let a burst each minute evict every session idle for more than the floor.
 *
 * A source is whatever the caller says opened the session (the HTTP layer: the client's
 * address and the name it gives in `initialize`); sessions put without one share one source,
 * and among them the order is plain LRU.
 *
 * Generic on purpose: no HTTP or MCP here. The HTTP layer answers 404 when `get` returns
 * undefined, so clients re-initialize.
 */
import { TetherError } from '../protocol/index.js';
import { releaseOnce } from './release-once.js';

/** Why a session left the registry; passed to `shutdown` so the session can pick its policy. */
/** 'refused': the SDK refused the initialize that was to make the session, so its id was never given. */
export type EndReason = 'deleted' | 'evicted' | 'idle' | 'shutdown' | 'replaced' | 'refused';

export interface ManagedSession {
  /**
   * Cancels the session's calls or lets them finish (its policy, per reason) and closes its
   * streams. Called exactly once per registration. Should not reject; if it throws or rejects
   * anyway, the registry logs it and treats the session as ended.
   */
  shutdown(reason: EndReason): Promise<void>;
  /**
   * True while the session has an exchange open (a client listening on its GET stream, say):
   * it is not idle, however long ago its last request came. Eviction may still take it.
   */
  inUse?(): boolean;
}

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

export interface RegistryOptions<P extends string, S extends ManagedSession = ManagedSession> {
  pools: Record<P, PoolOptions>;
  /**
   * Runs synchronously, exactly once, when a session leaves the registry for any reason,
   * before its shutdown starts: clean per-session maps and resolve pending elicitations as
   * declined here. When it runs the id is already free and not yet re-registered, so it can
   * never clean up a newer session's state; for 'replaced' it runs before the new session is
   * inserted, so set up the new session's state after put(). A throw is logged and ignored.
   */
  onEnd?(id: string, session: S, reason: EndReason): void;
  /** Injectable clock (ms) for tests. */
  now?(): number;
  /** How often start()'s timer reaps; default min(idleTtlMs) / 4. The timer is unref'd. */
  reapIntervalMs?: number;
  log?(event: string, data: Record<string, unknown>): void;
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

interface Entry<S, P> {
  readonly id: string;
  readonly session: S;
  pool: P;
  /** Who opened it (see the header); sessions of one source are counted together. */
  source: string;
  /** Used since its handshake: evicted only after every evictable unproven session. */
  proven: boolean;
  lastUsed: number;
  /** In-flight calls; a count because calls overlap, and a flag would be cleared by the first to end. */
  pins: number;
  /** False from the moment the entry leaves; a late release() then leaves the id's new entry alone. */
  live: boolean;
}

interface Pool<S, P> {
  readonly options: Required<PoolOptions>;
  /** Insertion order is recency order: a touch re-inserts, so the first entry is the least recently used. */
  readonly entries: Map<string, Entry<S, P>>;
  /** Sessions in the pool per source. */
  readonly held: Map<string, number>;
}

const RESERVED_POOL_NAMES = new Set(['evictions', 'reaped']);
/** setInterval treats anything above 2^31 - 1 ms as 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

export class SessionRegistry<S extends ManagedSession, P extends string = string> {
  private readonly byId = new Map<string, Entry<S, P>>();
  private readonly pools = new Map<P, Pool<S, P>>();
  /** Shutdowns still running (they never reject); settled() and close() wait on them. */
  private readonly pending = new Set<Promise<void>>();
  private readonly now: () => number;
  private readonly reapIntervalMs: number;
  private timer: ReturnType<typeof setInterval> | undefined;
  private closed = false;
  private closing: Promise<void> | undefined;
  private evictions = 0;
  private reaped = 0;

  constructor(private readonly options: RegistryOptions<P, S>) {
    for (const [name, pool] of Object.entries(options.pools) as [P, PoolOptions][]) {
      // stats() puts pools next to the counters; a pool named like a counter would hide one.
      if (RESERVED_POOL_NAMES.has(name)) throw new RangeError(`pool name "${name}" is reserved`);
      if (!Number.isInteger(pool.capacity) || pool.capacity < 1) throw new RangeError(`pool "${name}": capacity must be an integer >= 1`);
      if (!(pool.recencyFloorMs >= 0)) throw new RangeError(`pool "${name}": recencyFloorMs must be >= 0`);
      if (!(pool.idleTtlMs > 0)) throw new RangeError(`pool "${name}": idleTtlMs must be > 0`);
      const ceiling = pool.ceiling ?? 2 * pool.capacity;
      if (!Number.isInteger(ceiling) || ceiling < pool.capacity) throw new RangeError(`pool "${name}": ceiling must be an integer >= capacity`);
      if (pool.unprovenFloorMs !== undefined && !(pool.unprovenFloorMs >= 0)) throw new RangeError(`pool "${name}": unprovenFloorMs must be >= 0`);
      const unprovenFloorMs = Math.min(pool.unprovenFloorMs ?? pool.recencyFloorMs, pool.recencyFloorMs);
      this.pools.set(name, { options: { ...pool, ceiling, unprovenFloorMs }, entries: new Map(), held: new Map() });
    }
    if (this.pools.size === 0) throw new RangeError('at least one pool is required');
    if (options.reapIntervalMs !== undefined && !(options.reapIntervalMs > 0)) throw new RangeError('reapIntervalMs must be > 0');
    this.now = options.now ?? Date.now;
    const minTtl = Math.min(...[...this.pools.values()].map((pool) => pool.options.idleTtlMs));
    this.reapIntervalMs = options.reapIntervalMs ?? minTtl / 4;
  }

  /**
   * Registers (touching it), replacing any live session with the id (that one ends as
   * 'replaced'). If the pool is then over capacity, evicts least-recently-used entries that are
   * unpinned and older than the recency floor, never the one just put. Their shutdowns run in
   * the background (tracked, see settled()). If nothing is evictable the pool stays over
   * capacity until a later put: evicting a session mid-call or mid-conversation is worse than
   * a few extra sessions, up to the pool's ceiling: a session that would take the pool past
   * it is refused (PoolFullError, nothing registered or replaced) unless an evictable session
   * makes room. Returns the ids evicted. Throws after close(). With `trim: false`, a pool over
   * its capacity (below its ceiling) is left so until `trimFor(id)`: for a session that may yet be
   * refused, which must not have evicted anyone for nothing. `source` says who opened it (see
   * the header); a session put again keeps its proof.
   */
  put(id: string, pool: P, session: S, { trim = true, source = '' } = {}): string[] {
    if (this.closed) throw new Error('SessionRegistry is closed');
    const target = this.pool(pool);
    const evicted = this.makeRoom(pool, target, this.byId.get(id), source);
    // A loop, not an if: an onEnd that re-registers the id must not leave an orphan behind.
    let existing = this.byId.get(id);
    while (existing !== undefined && existing.session !== session) {
      this.end(existing, 'replaced');
      existing = this.byId.get(id);
    }
    let entry = existing;
    if (entry === undefined) {
      entry = { id, session, pool, source, proven: false, lastUsed: this.now(), pins: 0, live: true };
      this.byId.set(id, entry);
      target.entries.set(id, entry);
      count(target.held, source, 1);
    } else {
      // The same session again: a touch, and a move if the pool or source changed.
      const from = this.pool(entry.pool);
      from.entries.delete(id);
      count(from.held, entry.source, -1);
      entry.pool = pool;
      entry.source = source;
      count(target.held, source, 1);
      this.touch(entry);
    }
    return trim ? [...evicted, ...this.trim(pool, target, entry)] : evicted;
  }

  /** Evicts down to the capacity of the session's pool, never the session itself (see put); returns the ids evicted. */
  trimFor(id: string): string[] {
    const entry = this.byId.get(id);
    return entry ? this.trim(entry.pool, this.pool(entry.pool), entry) : [];
  }

  /** Returns the session and marks it used (LRU touch); undefined when unknown or shutting down. */
  get(id: string): S | undefined {
    const entry = this.byId.get(id);
    if (entry === undefined) return undefined;
    this.touch(entry);
    return entry.session;
  }

  /**
   * The session was used since its handshake: from now on it is evicted only after every
   * evictable session that was not, and with its pool's full recency floor. Not a touch.
   */
  prove(id: string): void {
    const entry = this.byId.get(id);
    if (entry !== undefined) entry.proven = true;
  }

  /** Like get() without the touch: for looking, not using. */
  peek(id: string): S | undefined {
    return this.byId.get(id)?.session;
  }

  has(id: string): boolean {
    return this.byId.has(id);
  }

  /**
   * Pins the session for an in-flight call (count + 1) and touches it; the release function is
   * idempotent and touches again, so the idle TTL counts from the end of the call. The release
   * belongs to this registration: after the id was re-registered it leaves the new session
   * alone. An unknown id gets a no-op release (the HTTP layer has answered 404 already).
   */
  pin(id: string): () => void {
    const entry = this.byId.get(id);
    if (entry === undefined) return () => {};
    entry.pins++;
    this.touch(entry);
    return releaseOnce(() => {
      entry.pins--;
      if (entry.live) this.touch(entry);
    });
  }

  /**
   * Removes the session now (pinned or not: an explicit DELETE wins; the session's shutdown
   * decides what happens to its calls) and resolves true once its shutdown has finished.
   * Unknown or already ending: resolves false at once.
   */
  async delete(id: string, reason: EndReason = 'deleted'): Promise<boolean> {
    const entry = this.byId.get(id);
    if (entry === undefined) return false;
    await this.end(entry, reason);
    return true;
  }

  /** Reaps unpinned sessions not in use and last used more than their pool's idleTtlMs ago; returns their ids. */
  reapIdle(): string[] {
    const now = this.now();
    const reaped: string[] = [];
    for (const pool of this.pools.values()) {
      for (const entry of [...pool.entries.values()]) {
        if (!entry.live || entry.pins > 0 || !(now - entry.lastUsed > pool.options.idleTtlMs)) continue;
        if (entry.session.inUse?.() === true) continue;
        this.end(entry, 'idle');
        this.reaped++;
        reaped.push(entry.id);
      }
    }
    return reaped;
  }

  /** Starts the reaper timer (unref'd: it never keeps the process alive). Idempotent. */
  start(): this {
    if (this.timer !== undefined || this.closed || !Number.isFinite(this.reapIntervalMs)) return this;
    const interval = Math.min(MAX_TIMER_MS, Math.max(1, Math.round(this.reapIntervalMs)));
    this.timer = setInterval(() => {
      try {
        this.reapIdle();
      } catch (error) {
        this.emit('reap-failed', { error: TetherError.from(error).message });
      }
    }, interval);
    this.timer.unref();
    return this;
  }

  /**
   * Stops the reaper, ends every session ('shutdown') and waits for every shutdown, including
   * evictions still running. Idempotent; put() throws afterwards. A shutdown that never settles
   * keeps this pending: bound it from the outside (the CLI's signal handler exits after 5 s).
   */
  close(): Promise<void> {
    this.closing ??= (async () => {
      this.closed = true;
      if (this.timer !== undefined) clearInterval(this.timer);
      this.timer = undefined;
      for (const entry of [...this.byId.values()]) if (entry.live) this.end(entry, 'shutdown');
      while (this.pending.size > 0) await Promise.all(this.pending);
    })();
    return this.closing;
  }

  /** The capacity of a pool (what put() trims it down to). */
  capacity(pool: P): number {
    return this.pool(pool).options.capacity;
  }

  /**
   * The sessions of `source` in `pool` that cannot be evicted now (pinned, or used within
   * their floor), and how long until the first of them can be (undefined while all are pinned):
   * what one client holds of a pool that nobody else can get back.
   */
  protectedOf(pool: P, source: string): { count: number; nextEvictableInMs: number | undefined } {
    const target = this.pool(pool);
    const now = this.now();
    let held = 0;
    let soonest: number | undefined;
    for (const entry of target.entries.values()) {
      if (entry.source !== source) continue;
      const wait = entry.lastUsed + this.floorOf(target, entry) - now;
      if (entry.pins === 0 && wait <= 0) continue;
      held++;
      if (entry.pins === 0) soonest = soonest === undefined ? wait : Math.min(soonest, wait);
    }
    return { count: held, nextEvictableInMs: soonest };
  }

  size(pool?: P): number {
    return pool === undefined ? this.byId.size : (this.pools.get(pool)?.entries.size ?? 0);
  }

  stats(): Record<P, PoolStats> & { evictions: number; reaped: number } {
    const perPool = {} as Record<P, PoolStats>;
    for (const [name, pool] of this.pools) {
      let pinned = 0;
      for (const entry of pool.entries.values()) if (entry.pins > 0) pinned++;
      perPool[name] = { size: pool.entries.size, capacity: pool.options.capacity, pinned };
    }
    return Object.assign(perPool, { evictions: this.evictions, reaped: this.reaped });
  }

  /** Resolves when every shutdown started so far has finished (for tests and for close). */
  async settled(): Promise<void> {
    await Promise.all([...this.pending]);
  }

  private pool(name: P): Pool<S, P> {
    const pool = this.pools.get(name);
    if (pool === undefined) throw new RangeError(`unknown pool "${name}"`);
    return pool;
  }

  private touch(entry: Entry<S, P>): void {
    entry.lastUsed = this.now();
    const entries = this.pool(entry.pool).entries;
    entries.delete(entry.id);
    entries.set(entry.id, entry);
  }

  private trim(name: P, pool: Pool<S, P>, keep: Entry<S, P>): string[] {
    const evicted = this.evictDownTo(pool, pool.options.capacity, keep, keep.source);
    if (pool.entries.size > pool.options.capacity) this.emit('pool-over-capacity', { pool: name, size: pool.entries.size, capacity: pool.options.capacity });
    return evicted;
  }

  /**
   * Before a session enters a pool at its ceiling (one already in it, being put again or
   * replaced, keeps its place): evicts what may be evicted, or throws PoolFullError.
   */
  private makeRoom(name: P, pool: Pool<S, P>, existing: Entry<S, P> | undefined, source: string): string[] {
    const limit = pool.options.ceiling - 1 + (existing?.pool === name ? 1 : 0);
    const evicted = this.evictDownTo(pool, limit, existing, source, existing?.pool === name && existing.source === source ? 0 : 1);
    if (pool.entries.size > limit) throw new PoolFullError(name, pool.options.ceiling, this.nextEvictableInMs(pool));
    return evicted;
  }

  /**
   * Evicts sessions in the order of the header, never `keep`, while the pool holds more than
   * `limit`; returns their ids. `source` is the newcomer's, which `arriving` more sessions of
   * its source will join.
   */
  private evictDownTo(pool: Pool<S, P>, limit: number, keep: Entry<S, P> | undefined, source: string, arriving = 0): string[] {
    const evicted: string[] = [];
    while (pool.entries.size > limit) {
      const victim = this.victim(pool, keep, source, (pool.held.get(source) ?? 0) + arriving);
      if (victim === undefined) break;
      this.end(victim, 'evicted');
      this.evictions++;
      evicted.push(victim.id);
    }
    return evicted;
  }

  /** How long until the first session of the pool that is not pinned passes its floor; undefined if all are pinned. */
  private nextEvictableInMs(pool: Pool<S, P>): number | undefined {
    const now = this.now();
    let soonest: number | undefined;
    for (const entry of pool.entries.values()) {
      if (entry.pins > 0) continue;
      const wait = Math.max(0, entry.lastUsed + this.floorOf(pool, entry) - now);
      soonest = soonest === undefined ? wait : Math.min(soonest, wait);
    }
    return soonest;
  }

  private floorOf(pool: Pool<S, P>, entry: Entry<S, P>): number {
    return entry.proven ? pool.options.recencyFloorMs : pool.options.unprovenFloorMs;
  }

  /**
   * The next session to evict for a newcomer of `source`, whose source will then hold `held`:
   * the least recently used unproven one past its floor; else, of the proven ones past theirs,
   * the least recently used of the source holding the most, among the newcomer's own source and
   * those holding at least `held`. One pass in recency order.
   */
  private victim(pool: Pool<S, P>, keep: Entry<S, P> | undefined, source: string, held: number): Entry<S, P> | undefined {
    const now = this.now();
    let best: Entry<S, P> | undefined;
    let bestHeld = -1;
    for (const entry of pool.entries.values()) {
      if (entry === keep || entry.pins > 0 || now - entry.lastUsed < this.floorOf(pool, entry)) continue;
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

  /**
   * The only way out. Synchronous bookkeeping first (maps, then onEnd), so the id is free and
   * clean before any shutdown code runs; then the shutdown, tracked and never rejecting.
   */
  private end(entry: Entry<S, P>, reason: EndReason): Promise<void> {
    entry.live = false;
    if (this.byId.get(entry.id) === entry) this.byId.delete(entry.id);
    const pool = this.pool(entry.pool);
    if (pool.entries.get(entry.id) === entry) {
      pool.entries.delete(entry.id);
      count(pool.held, entry.source, -1);
    }
    this.emit('session-ended', { id: entry.id, pool: entry.pool, reason, pins: entry.pins });
    try {
      this.options.onEnd?.(entry.id, entry.session, reason);
    } catch (error) {
      this.emit('on-end-failed', { id: entry.id, reason, error: TetherError.from(error).message });
    }
    const done = this.shutdown(entry, reason);
    this.pending.add(done);
    void done.then(() => this.pending.delete(done));
    return done;
  }

  private async shutdown(entry: Entry<S, P>, reason: EndReason): Promise<void> {
    try {
      await entry.session.shutdown(reason);
    } catch (error) {
      // A broken shutdown must not break the registry: the session counts as ended.
      this.emit('shutdown-failed', { id: entry.id, reason, error: TetherError.from(error).message });
    }
  }

  /** A throwing logger must not break the registry either. */
  private emit(event: string, data: Record<string, unknown>): void {
    try {
      this.options.log?.(event, data);
    } catch {
      // Nowhere left to report it.
    }
  }
}

/** Adds `delta` to a source's count, forgetting sources that hold nothing. */
function count(held: Map<string, number>, source: string, delta: number): void {
  const next = (held.get(source) ?? 0) + delta;
  if (next > 0) held.set(source, next);
  else held.delete(source);
}
