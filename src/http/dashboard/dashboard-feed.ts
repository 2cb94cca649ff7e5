/**
 * What the dashboard shows, gathered in one place: every editor this user runs (a watch each,
 * found through the host records), the agents attached to them, the calls in flight with
 * their progress, the calls that finished (from the fronts' per-call log lines, so calls
 * through `tether mcp` count as much as those through this server), and calls per second and
 * latency over the last minutes. Pages subscribe; a snapshot goes out when something changed,
 * at most a few times a second, and once a second anyway so elapsed times move.
 */
import { canonicalPath, listHostRecords } from '../../discovery/host-record.js';
import type { Agent } from '../../protocol/index.js';
import type { CallLogLine } from '../../mcp/call-log.js';
import { CallLogFollower } from '../../mcp/call-log-reader.js';
import { EditorWatch, type EditorView } from './editor-watch.js';

const RECENT_CALLS = 100;
/** Plot buckets: 5 s each over 10 minutes. */
const BUCKET_MS = 5_000;
const BUCKETS = 120;
const MIN_SEND_INTERVAL_MS = 250;

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
  recent: CallLogLine[];
  rates: RateBucket[];
}

export interface DashboardFeedOptions {
  recordsDir: string;
  logsDir: string;
  pollMs?: number;
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
  /** Durations of the calls that finished in each plot bucket, by the bucket's start. */
  private readonly buckets = new Map<number, number[]>();
  private readonly subscribers = new Set<(snapshot: DashboardSnapshot) => void>();
  private timer: NodeJS.Timeout | undefined;
  private lastSent = 0;
  private pendingSend: NodeJS.Timeout | undefined;
  private readonly pollMs: number;

  constructor(private readonly options: DashboardFeedOptions) {
    this.pollMs = options.pollMs ?? 1_000;
    this.follower = new CallLogFollower(options.logsDir);
  }

  /** Starts watching while a page looks, and stops when the last one leaves. */
  subscribe(send: (snapshot: DashboardSnapshot) => void): () => void {
    this.subscribers.add(send);
    if (this.subscribers.size === 1) this.start();
    send(this.snapshot());
    return () => {
      this.subscribers.delete(send);
      if (this.subscribers.size === 0) this.stop();
    };
  }

  /** The watch of the editor of `project`, to cancel one of its calls. */
  watchOf(project: string): EditorWatch | undefined {
    return this.watches.get(canonicalPath(project));
  }

  snapshot(): DashboardSnapshot {
    return {
      now: Date.now(),
      editors: [...this.watches.values()].map((watch) => watch.view()),
      httpAgents: this.options.httpAgents(),
      recent: this.recent,
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
  }

  private stop(): void {
    clearInterval(this.timer);
    clearTimeout(this.pendingSend);
    this.timer = undefined;
    for (const watch of this.watches.values()) watch.close();
    this.watches.clear();
  }

  private tick(): void {
    const projects = new Set(listHostRecords(this.options.recordsDir).map((record) => canonicalPath(record.projectPath)));
    for (const project of projects) {
      if (!this.watches.has(project)) {
        this.watches.set(project, new EditorWatch({ project, recordsDir: this.options.recordsDir, pollMs: this.pollMs, onChange: () => this.changed() }).start());
      }
    }
    // An editor whose record is gone has quit (a reloading one keeps its record); it leaves the page.
    for (const [project, watch] of this.watches) {
      if (!projects.has(project) && watch.view().state === 'away') {
        watch.close();
        this.watches.delete(project);
      }
    }
    const fresh = this.follower.poll();
    if (fresh.length > 0) this.recent = [...this.recent, ...fresh].slice(-RECENT_CALLS);
    for (const call of fresh) {
      const bucket = Math.floor(call.time / BUCKET_MS) * BUCKET_MS;
      const list = this.buckets.get(bucket) ?? [];
      list.push(call.durationMs);
      this.buckets.set(bucket, list);
    }
    this.send();
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
    this.lastSent = Date.now();
    const snapshot = this.snapshot();
    for (const send of this.subscribers) send(snapshot);
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
