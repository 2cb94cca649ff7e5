/**
 * What the session registry (session-registry.ts) asks of the sessions it holds, and of
 * whoever makes one: how a session ends, and what the registry is told to do.
 */
import type { PoolOptions } from './session-pools.js';

/**
 * Why a session left the registry; passed to `shutdown` so the session can pick its policy.
 * 'refused': the SDK refused the initialize that was to make the session, so its id was never given.
 */
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
