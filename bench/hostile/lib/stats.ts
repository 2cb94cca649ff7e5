/** Least-squares slopes and percentiles for the samples the suites take. */

export interface Point {
  /** Seconds since the start of sampling. */
  t: number;
  y: number;
}

/** The least-squares slope of y over t (units of y per second); NaN with fewer than 2 distinct times. */
export function slope(points: readonly Point[]): number {
  const n = points.length;
  if (n < 2) return NaN;
  let sumT = 0;
  let sumY = 0;
  for (const p of points) {
    sumT += p.t;
    sumY += p.y;
  }
  const meanT = sumT / n;
  const meanY = sumY / n;
  let numerator = 0;
  let denominator = 0;
  for (const p of points) {
    numerator += (p.t - meanT) * (p.y - meanY);
    denominator += (p.t - meanT) ** 2;
  }
  return denominator === 0 ? NaN : numerator / denominator;
}

/** Slope per hour, the unit flatness is judged in. */
export function slopePerHour(points: readonly Point[]): number {
  return slope(points) * 3600;
}

export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  const rank = Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1));
  return sorted[rank] as number;
}

/** The points after the first `fraction` of the run: warm-up (JIT, caches, pools filling) is not a leak. */
export function afterWarmUp(points: readonly Point[], fraction = 0.2): Point[] {
  if (points.length === 0) return [];
  const start = points[0]!.t;
  const end = points[points.length - 1]!.t;
  const from = start + (end - start) * fraction;
  return points.filter((p) => p.t >= from);
}
