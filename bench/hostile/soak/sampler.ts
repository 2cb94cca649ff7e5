/**
 * Samples what the soak's processes hold, every few seconds: RSS, descriptors and threads
 * from /proc, the live heap after a full collection through the inspector where one is open,
 * and how many processes run below the harness. A series per role ("serve", "editor",
 * "fronts" summed); the editor's series restarts with each incarnation.
 */
import { descendants, sampleProcess } from '../lib/proc.js';
import { HeapProbe, inspectorUrl } from '../lib/heap-probe.js';
import { afterWarmUp, slopePerHour, type Point } from '../lib/stats.js';

export interface Probed {
  pid: number;
  stderrLines: readonly string[];
}

export class Series {
  readonly rssMiB: Point[] = [];
  readonly heapMiB: Point[] = [];
  readonly descriptors: Point[] = [];
}

export class SoakSampler {
  readonly serve = new Series();
  readonly fronts = new Series();
  /** One front, with its inspector open: the fronts' live heap. */
  readonly firstFront = new Series();
  /** One series per editor incarnation; the longest judges the editor. */
  readonly editors: Series[] = [];
  readonly processes: Point[] = [];
  private readonly probes = new Map<number, HeapProbe | null>();
  private readonly started = Date.now();
  private editorPid = 0;

  private seconds(): number {
    return (Date.now() - this.started) / 1000;
  }

  private async heapOf(target: Probed): Promise<number | undefined> {
    if (!this.probes.has(target.pid)) this.probes.set(target.pid, (await HeapProbe.attach(inspectorUrl(target.stderrLines))) ?? null);
    const probe = this.probes.get(target.pid);
    if (!probe) return undefined;
    try {
      return (await probe.usedAfterGc()) / 2 ** 20;
    } catch {
      this.probes.set(target.pid, null);
      return undefined;
    }
  }

  private async record(series: Series, target: Probed, t: number, settled: () => boolean): Promise<void> {
    const sample = sampleProcess(target.pid);
    if (!sample) return;
    series.rssMiB.push({ t, y: sample.rssKiB / 1024 });
    if (settled()) series.descriptors.push({ t, y: sample.descriptors });
    const heap = await this.heapOf(target);
    if (heap !== undefined) series.heapMiB.push({ t, y: heap });
  }

  /** `settled`: no reload or restart under way, so connections (and descriptors) are as they stay. */
  async sample(serve: Probed, editor: Probed, fronts: readonly Probed[], firstFront?: Probed, settled: () => boolean = () => true): Promise<void> {
    const t = this.seconds();
    await this.record(this.serve, serve, t, settled);
    if (firstFront) await this.record(this.firstFront, firstFront, t, settled);
    if (editor.pid !== this.editorPid) {
      this.editorPid = editor.pid;
      this.editors.push(new Series());
    }
    await this.record(this.editors[this.editors.length - 1]!, editor, t, settled);
    let rss = 0;
    let fds = 0;
    let fdsSettled = true;
    for (const front of fronts) {
      // Collected first: a front allocates so slowly that V8 leaves garbage in its old
      // generation for ~40 minutes before its first major collection; RSS read then would say
      // when V8 collected, not what the front holds.
      await this.heapOf(front);
      const sample = sampleProcess(front.pid);
      if (!sample) continue;
      rss += sample.rssKiB / 1024;
      fds += sample.descriptors;
      fdsSettled &&= settled();
    }
    this.fronts.rssMiB.push({ t, y: rss });
    if (fdsSettled) this.fronts.descriptors.push({ t, y: fds });
    this.processes.push({ t, y: descendants().length });
  }

  /** The editor incarnation with the most samples. */
  longestEditor(): Series {
    return this.editors.reduce((best, s) => (s.rssMiB.length > best.rssMiB.length ? s : best), new Series());
  }

  /** Every series, for bench/results/hostile/<form>/soak-series.json: what the slopes were taken from. */
  toJSON(): Record<string, unknown> {
    return { serve: this.serve, fronts: this.fronts, firstFront: this.firstFront, editors: this.editors, processes: this.processes };
  }

  close(): void {
    for (const probe of this.probes.values()) probe?.close();
  }
}

/**
 * Slope per hour after the warm-up: the first fifth of the series, or its first `warmUpSeconds`
 * if that is longer (RSS: half the run; the editor's memory: its journal's retention); NaN with
 * too few points.
 */
export function hourlySlope(points: readonly Point[], warmUpSeconds = 0): number {
  return slopePerHour(judged(points, warmUpSeconds));
}

/** The points a slope is taken over (see hourlySlope). */
export function judged(points: readonly Point[], warmUpSeconds = 0): Point[] {
  const from = (points[0]?.t ?? 0) + warmUpSeconds;
  return afterWarmUp(points).filter((p) => p.t >= from);
}
