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
 * Who is evicted to make room, and when a pool is full: session-pools.ts.
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
import type { EndReason, ManagedSession, RegistryOptions } from './managed-session.js';
import { PoolFullError, createPool, enter, leave, nextEvictableInMs, poolStats, protectedOf, victim, type Entry, type Pool, type PoolOptions, type PoolStats } from './session-pools.js';

export type { EndReason, ManagedSession, RegistryOptions } from './managed-session.js';
export { PoolFullError, type PoolOptions, type PoolStats } from './session-pools.js';

/** setInterval treats anything above 2^31 - 1 ms as 1 ms. */
const MAX_TIMER_MS = 2_147_483_647;

export class SessionRegistry<S extends ManagedSession, P extends string = string> {
  private readonly byId = new Map<string, Entry<S, P>>();
  /** Per pool, the session put with `trim: false` past the ceiling, admitted on room it has yet to be given (see put). */
  private readonly awaitingRoom = new Map<P, string>();
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
    for (const [name, pool] of Object.entries(options.pools) as [P, PoolOptions][]) this.pools.set(name, createPool<S, P>(name, pool));
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
   * makes room. Returns the ids evicted. Throws after close(). With `trim: false`, nobody is
   * evicted until `trimFor(id)`, even at the ceiling: for a session that may yet be refused,
   * which must not have evicted anyone for nothing. It is admitted only if room could be made
   * (else PoolFullError as above), one such at a time per pool (another meanwhile gets
   * PoolFullError: two could count on the same session to evict), so until trimFor the pool
   * holds at most one past its ceiling.
   * `source` says who opened it (see the header); a session put again keeps its proof.
   */
  put(id: string, pool: P, session: S, { trim = true, source = '' } = {}): string[] {
    if (this.closed) throw new Error('SessionRegistry is closed');
    const target = this.pool(pool);
    const evicted = this.makeRoom(pool, target, this.byId.get(id), source, trim ? undefined : id);
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
      enter(target, entry);
    } else {
      // The same session again: a touch, and a move if the pool or source changed.
      leave(this.pool(entry.pool), entry);
      entry.pool = pool;
      entry.source = source;
      entry.lastUsed = this.now();
      enter(target, entry);
    }
    return trim ? [...evicted, ...this.trim(pool, target, entry)] : evicted;
  }

  /** Evicts down to the capacity of the session's pool, never the session itself (see put); returns the ids evicted. */
  trimFor(id: string): string[] {
    const entry = this.byId.get(id);
    if (entry && this.awaitingRoom.get(entry.pool) === id) this.awaitingRoom.delete(entry.pool);
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
    return protectedOf(this.pool(pool), this.now(), source);
  }

  size(pool?: P): number {
    return pool === undefined ? this.byId.size : (this.pools.get(pool)?.entries.size ?? 0);
  }

  stats(): Record<P, PoolStats> & { evictions: number; reaped: number } {
    return Object.assign(poolStats(this.pools), { evictions: this.evictions, reaped: this.reaped });
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
   * replaced, keeps its place): evicts what may be evicted, or throws PoolFullError. With
   * `provisional` (the id of a session put with `trim: false`), only checks that room could be
   * made, and keeps that room for it until trimFor or its end.
   */
  private makeRoom(name: P, pool: Pool<S, P>, existing: Entry<S, P> | undefined, source: string, provisional: string | undefined): string[] {
    const limit = pool.options.ceiling - 1 + (existing?.pool === name ? 1 : 0);
    const arriving = existing?.pool === name && existing.source === source ? 0 : 1;
    if (provisional !== undefined) {
      if (pool.entries.size <= limit) return [];
      const waiting = this.awaitingRoom.get(name);
      if ((waiting !== undefined && waiting !== provisional) || victim(pool, this.now(), existing, source, (pool.held.get(source) ?? 0) + arriving) === undefined) {
        throw new PoolFullError(name, pool.options.ceiling, nextEvictableInMs(pool, this.now()));
      }
      this.awaitingRoom.set(name, provisional);
      return [];
    }
    const evicted = this.evictDownTo(pool, limit, existing, source, arriving);
    if (pool.entries.size > limit) throw new PoolFullError(name, pool.options.ceiling, nextEvictableInMs(pool, this.now()));
    return evicted;
  }

  /**
   * Evicts sessions in the order session-pools.ts gives, never `keep`, while the pool holds more than
   * `limit`; returns their ids. `source` is the newcomer's, which `arriving` more sessions of
   * its source will join.
   */
  private evictDownTo(pool: Pool<S, P>, limit: number, keep: Entry<S, P> | undefined, source: string, arriving = 0): string[] {
    const evicted: string[] = [];
    while (pool.entries.size > limit) {
      const next = victim(pool, this.now(), keep, source, (pool.held.get(source) ?? 0) + arriving);
      if (next === undefined) break;
      this.end(next, 'evicted');
      this.evictions++;
      evicted.push(next.id);
    }
    return evicted;
  }

  /**
   * The only way out. Synchronous bookkeeping first (maps, then onEnd), so the id is free and
   * clean before any shutdown code runs; then the shutdown, tracked and never rejecting.
   */
  private end(entry: Entry<S, P>, reason: EndReason): Promise<void> {
    entry.live = false;
    if (this.awaitingRoom.get(entry.pool) === entry.id) this.awaitingRoom.delete(entry.pool);
    if (this.byId.get(entry.id) === entry) this.byId.delete(entry.id);
    leave(this.pool(entry.pool), entry);
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
