/**
 * The fronts of `tether serve`, one per host: sessions bound to the same project share one
 * link and one tool mirror. The default front follows --project (or the usual selection) and
 * lives as long as the server.
 *
 * Any other front (an X-Tether-Project header, tether_use_host) costs a host link with its
 * timers and a watch of the hosts folder, and any authenticated client can name any project:
 * so those fronts are held by whoever uses them (a session bound to it, a request in flight)
 * and closed once unused, that is unheld, with no call in flight and no task kept, when there
 * are more than `spareFronts` of them (least recently used first) or after `idleFrontMs`.
 * A front in use is never closed: how many there are is then bounded by the sessions.
 */
import { canonicalPath } from '../discovery/host-record.js';
import type { Logger } from 'pino';
import { Front, type FrontOptions } from '../mcp/front.js';
import { TetherError } from '../protocol/index.js';
import { releaseOnce } from './release-once.js';

export interface FrontPoolOptions extends FrontOptions {
  logger?: Logger;
  /** Unused fronts of other projects than the default kept open, for a client that comes back. */
  spareFronts?: number;
  /** An unused front of another project is closed after this long. */
  idleFrontMs?: number;
  now?(): number;
}

interface Slot {
  readonly key: string;
  readonly front: Front;
  holders: number;
  lastUsed: number;
}

export class FrontPool {
  /** Insertion order is recency order: a touch re-inserts, so the first slot is the least recently used. */
  private readonly slots = new Map<string, Slot>();
  private readonly byFront = new Map<Front, Slot>();
  private readonly created: Array<(front: Front, key: string) => void> = [];
  private readonly closedListeners: Array<(front: Front) => void> = [];
  private readonly defaultKey: string;
  private readonly spareFronts: number;
  private readonly idleFrontMs: number;
  private readonly now: () => number;
  private closed = false;
  private readonly sweeper: ReturnType<typeof setInterval>;
  private readonly base: FrontOptions & { logger?: Logger };

  constructor({ spareFronts, idleFrontMs, now, ...base }: FrontPoolOptions) {
    this.base = base;
    this.defaultKey = base.project ? canonicalPath(base.project) : '';
    this.spareFronts = spareFronts ?? 8;
    this.idleFrontMs = idleFrontMs ?? 5 * 60_000;
    this.now = now ?? Date.now;
    // Also catches fronts that became unused without a release: their last call ended.
    this.sweeper = setInterval(() => this.trim(), Math.min(30_000, Math.max(10, this.idleFrontMs / 2)));
    this.sweeper.unref();
  }

  /** The front for a project (started on first use); without one, the default front. Hold it to keep it. */
  get(project?: string): Front {
    // One folder named two ways is one project, and one link: two would each be a client of the editor.
    const key = project ? canonicalPath(project) : this.defaultKey;
    let slot = this.slots.get(key);
    if (!slot) {
      // A front started now would outlive close() (its link, timers and watcher).
      if (this.closed) throw new TetherError('HOST_UNAVAILABLE', 'Tether is shutting down; send the request again once it is back.', { state: 'closed' });
      const front = new Front({ ...this.base, ...(key ? { project: key } : {}) }).start();
      slot = { key, front, holders: 0, lastUsed: this.now() };
      this.slots.set(key, slot);
      this.byFront.set(front, slot);
      for (const listener of this.created) listener(front, key);
      this.trim(slot);
    }
    this.touch(slot);
    return slot.front;
  }

  /** Keeps a front open until the returned release (idempotent). A front no longer in the pool gets a no-op. */
  hold(front: Front): () => void {
    const slot = this.byFront.get(front);
    if (!slot) return () => undefined;
    slot.holders++;
    this.touch(slot);
    return releaseOnce(() => {
      slot.holders--;
      if (this.byFront.get(front) !== slot) return;
      this.touch(slot);
      this.trim();
    });
  }

  /** Runs for every front, existing and future (to wire notifications and metrics). */
  each(listener: (front: Front, key: string) => void): void {
    for (const slot of this.slots.values()) listener(slot.front, slot.key);
    this.created.push(listener);
  }

  /** Runs for every front the pool closes because it went unused (not at close()). */
  onClosed(listener: (front: Front) => void): void {
    this.closedListeners.push(listener);
  }

  all(): Front[] {
    return [...this.slots.values()].map((slot) => slot.front);
  }

  async close(options?: Parameters<Front['close']>[0]): Promise<void> {
    this.closed = true;
    clearInterval(this.sweeper);
    await Promise.allSettled(this.all().map((front) => front.close(options)));
    this.slots.clear();
    this.byFront.clear();
  }

  private touch(slot: Slot): void {
    slot.lastUsed = this.now();
    this.slots.delete(slot.key);
    this.slots.set(slot.key, slot);
  }

  /** Closes unused fronts idle too long, then the least recently used unused ones beyond the spares, never `keep`. */
  private trim(keep?: Slot): void {
    let others = this.slots.size - (this.slots.has(this.defaultKey) ? 1 : 0);
    for (const slot of [...this.slots.values()]) {
      if (slot === keep || !this.unused(slot)) continue;
      if (others <= this.spareFronts && this.now() - slot.lastUsed < this.idleFrontMs) continue;
      this.retire(slot);
      others--;
    }
  }

  private unused(slot: Slot): boolean {
    return slot.key !== this.defaultKey && slot.holders === 0 && !slot.front.busy;
  }

  private retire(slot: Slot): void {
    this.slots.delete(slot.key);
    this.byFront.delete(slot.front);
    this.base.logger?.debug({ project: slot.key }, 'unused front closed');
    for (const listener of this.closedListeners) listener(slot.front);
    // Nothing is in flight on it, so closing cancels nothing.
    void slot.front.close();
  }
}
