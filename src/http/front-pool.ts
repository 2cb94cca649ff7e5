/**
 * The fronts of `tether serve`, one per host: sessions bound to the same project share one
 * link and one tool mirror. The default front follows --project (or the usual selection).
 */
import { resolve } from 'node:path';
import type { Logger } from 'pino';
import { Front, type FrontOptions } from '../mcp/front.js';

export class FrontPool {
  private readonly fronts = new Map<string, Front>();
  private readonly created: Array<(front: Front, key: string) => void> = [];

  constructor(private readonly base: FrontOptions & { logger?: Logger }) {}

  /** The front for a project (started on first use); without one, the default front. */
  get(project?: string): Front {
    const key = project ? resolve(project) : (this.base.project ? resolve(this.base.project) : '');
    let front = this.fronts.get(key);
    if (!front) {
      front = new Front({ ...this.base, ...(key ? { project: key } : {}) }).start();
      this.fronts.set(key, front);
      for (const listener of this.created) listener(front, key);
    }
    return front;
  }

  /** Runs for every front, existing and future (to wire notifications and metrics). */
  each(listener: (front: Front, key: string) => void): void {
    for (const [key, front] of this.fronts) listener(front, key);
    this.created.push(listener);
  }

  all(): Front[] {
    return [...this.fronts.values()];
  }

  async close(): Promise<void> {
    await Promise.all(this.all().map((front) => front.close()));
    this.fronts.clear();
  }
}
