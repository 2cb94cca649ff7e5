/**
 * Resource subscriptions of every MCP session of a front, counted and held once at the host:
 * the first subscriber subscribes, the last one's leaving unsubscribes, and each reconnect
 * subscribes again to all of them (a new connection to the editor starts with none).
 */
import type { HostLink } from '../link/host-link.js';

export class ResourceSubscriptions {
  private readonly counts = new Map<string, number>();

  constructor(
    private readonly link: HostLink,
    /** How long a first subscription waits for the editor. */
    private readonly waitMs: number,
  ) {}

  async subscribe(uri: string): Promise<void> {
    const count = this.counts.get(uri) ?? 0;
    this.counts.set(uri, count + 1);
    if (count === 0) await this.link.request('resources/subscribe', { uri }, this.waitMs);
  }

  async unsubscribe(uri: string): Promise<void> {
    const count = this.counts.get(uri) ?? 0;
    if (count <= 1) {
      this.counts.delete(uri);
      if (count === 1) await this.link.request('resources/unsubscribe', { uri }, 0).catch(() => undefined);
    } else this.counts.set(uri, count - 1);
  }

  /** After a reconnect: the editor's new connection holds none of them yet. */
  async renew(): Promise<void> {
    for (const uri of this.counts.keys()) await this.link.request('resources/subscribe', { uri }, 0).catch(() => undefined);
  }
}
