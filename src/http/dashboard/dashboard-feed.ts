/**
 * What the dashboard shows, gathered in one place: every editor this user runs (a watch each,
 * found through the host records), the agents attached to them, the calls in flight with
 * their progress, the calls that finished (from the fronts' per-call log lines, so calls
 * through `tether mcp` count as much as those through this server), and calls per second and
 * latency over the last minutes. Pages subscribe; a snapshot goes out when something changed,
 * at most ten times a second, and once a second anyway so elapsed times move.
 *
 * Built to stay light with 50 agents and 1,000 recent calls (bench/scenarios/dashboard.ts): a
 * snapshot carries only the calls a page has not seen yet, not the whole list again, and a new
 * line in a front's log is read when the folder says it changed, not at the next tick.
 */
import { watch, type FSWatcher } from 'node:fs';
import { canonicalPath, listHostRecords } from '../../discovery/host-record.js';
import type { Agent } from '../../protocol/index.js';
import type { CallLogLine } from '../../mcp/call-log.js';
import { CallLogFollower } from '../../mcp/call-log-reader.js';
import { EditorWatch, type EditorView } from './editor-watch.js';

/** How many finished calls the page lists (it keeps them; snapshots bring only new ones). */
export const RECENT_CALLS = 1_000;
/** Plot buckets: 5 s each over 10 minutes. */
const BUCKET_MS = 5_000;
const BUCKETS = 120;
const MIN_SEND_INTERVAL_MS = 100;
/**
 * A call in flight shows within this (plus the send interval): calls and their progress have
 * no notice of their own for a bystander, so the editor is asked, only while a page looks.
 */
const STATUS_POLL_MS = 250;

/** An MCP client of one of this server's sessions, and the project its session serves. */
export interface HttpAgent extends Agent {
  project?: string;
}

export interface RateBucket {
  at: number;
  calls: number;
  p50Ms?: number;
  p90Ms?: number;
}

export interface DashboardSnapshot {
  now: number;
  editors: EditorView[];
  httpAgents: HttpAgent[];
  /**
   * The calls that finished since this page's previous snapshot, oldest first; the first
   * snapshot a page gets holds all that are kept (up to `recentLimit`).
   */
  recent: CallLogLine[];
  /** How many recent calls a page keeps. */
  recentLimit: number;
  /** Calls per agent ("name version", or "unnamed agent") since this server began reading the logs. */
  callsByAgent: Record<string, number>;
  rates: RateBucket[];
}

/** A page, and how far into the calls it has been sent. */
interface Subscriber {
  send: (snapshot: DashboardSnapshot) => void;
  seen: number;
}

export interface DashboardFeedOptions {
  recordsDir: string;
  logsDir: string;
  pollMs?: number;
  /** How often each editor is asked what runs (its calls in flight and their progress). */
  statusPollMs?: number;
  /** This server's MCP sessions, by client (the stdio agents come from the editors' word). */
  httpAgents: () => HttpAgent[];
}

function percentile(sorted: number[], p: number): number | undefined {
  if (sorted.length === 0) return undefined;
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))];
}

export class DashboardFeed {
  private readonly watches = new Map<string, EditorWatch>();
  private readonly follower: CallLogFollower;
  private recent: CallLogLine[] = [];
  /** How many calls were ever read: the sequence number of the last one in `recent`. */
  private readCount = 0;
  private readonly callsByAgent = new Map<string, number>();
  private logsWatcher: FSWatcher | undefined;
  /** Durations of the calls that finished in each plot bucket, by the bucket's start. */
  private readonly buckets = new Map<number, number[]>();
  private readonly subscribers = new Set<Subscriber>();
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  private pendingSend: NodeJS.Timeout | undefined;
  private readonly pollMs: number;
  private readonly statusPollMs: number;

  constructor(private readonly options: DashboardFeedOptions) {
    this.pollMs = options.pollMs ?? 1_000;
    this.statusPollMs = options.statusPollMs ?? STATUS_POLL_MS;
    this.follower = new CallLogFollower(options.logsDir);
  }

  /** Starts watching while a page looks, and stops when the last one leaves. */
  subscribe(send: (snapshot: DashboardSnapshot) => void): () => void {
    const subscriber: Subscriber = { send, seen: 0 };
    this.subscribers.add(subscriber);
    // The first page starts the watch, whose first tick sends it everything.
    if (this.subscribers.size === 1) this.start();
    else this.deliver(subscriber, this.snapshot());
    return () => {
      this.subscribers.delete(subscriber);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  /** The watch of the editor of `project`, to cancel one of its calls. */
  watchOf(project: string): EditorWatch | undefined {
    return this.watches.get(canonicalPath(project));
  }

  /** What every page is shown now, with all the recent calls kept. */
  snapshot(): DashboardSnapshot {
    return {
      now: Date.now(),
      editors: [...this.watches.values()].map((watch) => watch.view()),
      httpAgents: this.options.httpAgents(),
      recent: this.recent,
      recentLimit: RECENT_CALLS,
      callsByAgent: Object.fromEntries(this.callsByAgent),
      rates: this.rates(),
    };
  }

  close(): void {
    this.stop();
    this.subscribers.clear();
  }

  private start(): void {
    this.tick();
    this.timer = setInterval(() => this.tick(), this.pollMs);
    this.timer.unref();
    try {
      // A front's per-call line shows within the send interval, not at the next tick; the
      // tick still reads what a missed event (or a folder made later) left behind.
      this.logsWatcher = watch(this.options.logsDir, { persistent: false }, () => this.changed());
      this.logsWatcher.on('error', () => this.logsWatcher?.close());
    } catch {
      // No logs folder yet: the tick reads it once there is one.
    }
  }

  private stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.pendingSend);
    this.logsWatcher?.close();
    this.logsWatcher = undefined;
    this.pendingSend = undefined;
    this.timer = undefined;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
  }

  private tick(): void {
    const projects = new Set(listHostRecords(this.options.recordsDir).map((record) => canonicalPath(record.projectPath)));
    for (const project of projects) {
      if (!this.watches.has(project)) {
        this.watches.set(project, new EditorWatch({ project, recordsDir: this.options.recordsDir, pollMs: this.statusPollMs, onChange: () => this.changed() }).start());
      }
    }
    // An editor whose record is gone has quit (a reloading one keeps its record); it leaves the page.
    for (const [project, watch] of this.watches) {
      if (!projects.has(project) && watch.view().state === 'away') {
        watch.close();
        this.watches.delete(project);
      }
    }
    this.send();
  }

  /** Takes in the per-call lines written since the last read. */
  private readCalls(): void {
    const fresh = this.follower.poll();
    if (fresh.length === 0) return;
    this.readCount += fresh.length;
    this.recent = [...this.recent, ...fresh].slice(-RECENT_CALLS);
    for (const call of fresh) {
      const bucket = Math.floor(call.time / BUCKET_MS) * BUCKET_MS;
      const list = this.buckets.get(bucket) ?? [];
      list.push(call.durationMs);
      this.buckets.set(bucket, list);
      const agent = call.agent ?? 'unnamed agent';
      this.callsByAgent.set(agent, (this.callsByAgent.get(agent) ?? 0) + 1);
    }
  }

  private changed(): void {
    if (this.subscribers.size === 0 || this.pendingSend) return;
    const wait = Math.max(0, this.lastSent + MIN_SEND_INTERVAL_MS - Date.now());
    this.pendingSend = setTimeout(() => {
      this.pendingSend = undefined;
      this.send();
    }, wait);
    this.pendingSend.unref();
  }

  private send(): void {
    if (this.subscribers.size === 0) return;
    this.readCalls();
    this.lastSent = Date.now();
    const snapshot = this.snapshot();
    for (const subscriber of this.subscribers) this.deliver(subscriber, snapshot);
  }

  /** The snapshot with only the calls this page has not been sent yet. */
  private deliver(subscriber: Subscriber, snapshot: DashboardSnapshot): void {
    const unseen = Math.min(this.recent.length, this.readCount - subscriber.seen);
    subscriber.seen = this.readCount;
    subscriber.send({ ...snapshot, recent: unseen === 0 ? [] : this.recent.slice(-unseen) });
  }

  /** Calls per bucket and their latency over the last minutes; older buckets are dropped. */
  private rates(): RateBucket[] {
    const last = Math.floor(Date.now() / BUCKET_MS) * BUCKET_MS;
    const first = last - BUCKET_MS * (BUCKETS - 1);
    for (const at of this.buckets.keys()) if (at < first) this.buckets.delete(at);
    return Array.from({ length: BUCKETS }, (_, i) => {
      const at = first + i * BUCKET_MS;
      const sorted = [...(this.buckets.get(at) ?? [])].sort((a, b) => a - b);
      const p50 = percentile(sorted, 0.5);
      const p90 = percentile(sorted, 0.9);
      return { at, calls: sorted.length, ...(p50 === undefined ? {} : { p50Ms: p50 }), ...(p90 === undefined ? {} : { p90Ms: p90 }) };
    });
  }
}
