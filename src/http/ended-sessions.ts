/**
 * Why recently ended sessions ended, so that a client coming back with an ended session's id
 * learns what happened (evicted to make room, reaped as idle, deleted, the server shutting
 * down) and what to do, instead of only that the id is not known.
 *
 * Bounded in count and in time: ids are random, so forgetting one only means its client gets
 * the generic answer; remembering every id ever ended would grow without limit.
 */
import type { EndReason } from './session-registry.js';

export interface SessionEnd {
  reason: Exclude<EndReason, 'replaced' | 'refused'>;
  pool: string;
  at: number;
}

export interface EndedSessionsOptions {
  /** Ends kept at the most; the oldest go first. */
  max?: number;
  /** How long an end is kept. */
  keepMs?: number;
  now?(): number;
}

export class EndedSessions {
  /** Insertion order is age order: the first entry is the oldest. */
  private readonly ends = new Map<string, SessionEnd>();
  private readonly max: number;
  private readonly keepMs: number;
  private readonly now: () => number;

  constructor(options: EndedSessionsOptions = {}) {
    this.max = options.max ?? 1_024;
    this.keepMs = options.keepMs ?? 10 * 60_000;
    this.now = options.now ?? Date.now;
  }

  get size(): number {
    return this.ends.size;
  }

  /** Records an end; 'replaced' and 'refused' are not ones a client can meet (its id lives on, or was never given). */
  remember(id: string, reason: EndReason, pool: string): void {
    if (reason === 'replaced' || reason === 'refused') return;
    this.ends.delete(id);
    this.ends.set(id, { reason, pool, at: this.now() });
    this.prune();
  }

  /** How the session ended, if that is still remembered. */
  endOf(id: string): SessionEnd | undefined {
    this.prune();
    return this.ends.get(id);
  }

  private prune(): void {
    const oldest = this.now() - this.keepMs;
    for (const [id, end] of this.ends) {
      if (this.ends.size <= this.max && end.at > oldest) break;
      this.ends.delete(id);
    }
  }
}

/** The 404 a request for a session that is not there gets: what happened, as far as known, and what to do. */
export function sessionGone(id: string, end: SessionEnd | undefined): { message: string; data: Record<string, unknown> } {
  if (!end) return { message: `Session "${id}" is not known (it ended or was never created); initialize a new one.`, data: { code: 'SESSION_NOT_FOUND' } };
  return { message: `Session "${id}" ${HOW_IT_ENDED[end.reason](end.pool)} Initialize a new session.`, data: { code: 'SESSION_ENDED', reason: end.reason, pool: end.pool } };
}

const HOW_IT_ENDED: Record<SessionEnd['reason'], (pool: string) => string> = {
  evicted: (pool) =>
    `was evicted: the ${pool} session pool was full and it was the least recently used session with no request in progress (a larger pool: tether serve --${pool}-sessions). Tasks it started run on: a new session can follow each with tasks/get and its task id.`,
  idle: (pool) => `was reaped after being idle longer than the ${pool} session pool allows (tether serve --session-idle-ms).`,
  deleted: () => 'was ended by a DELETE request (or because it could not be restored after it slept).',
  shutdown: () => 'ended when the server shut down.',
};
