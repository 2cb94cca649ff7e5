/**
 * One figure of the benchmark, in the shape bench/results/latest.json holds:
 * { name, metric, value, unit, floor, ratio, target, meets }.
 *
 * `floor` is the same metric measured in the same run on the simplest thing that does the
 * same job (the SDK floor server, a raw pipe, JSON.stringify + JSON.parse, …) and
 * `ratio` = value / floor. A goal compares either the ratio or the value with `target`; the
 * name says which, e.g. "stdio latency p50 [ratio ≤ 1.25]" or "HTTP latency p50 [≤ 1 ms]".
 * Figures without a goal have target and meets null.
 */
import { round } from './stats.js';

export interface Entry {
  name: string;
  metric: string;
  value: number | null;
  unit: string;
  floor: number | null;
  ratio: number | null;
  target: number | null;
  meets: boolean | null;
}

export interface Goal {
  on: 'ratio' | 'value';
  op: '<=' | '>=';
  target: number;
}

export function entry(fields: { name: string; metric: string; value: number | null; unit: string; floor?: number | null; goal?: Goal }): Entry {
  const value = fields.value === null || !Number.isFinite(fields.value) ? null : round(fields.value);
  const floor = fields.floor === undefined || fields.floor === null || !Number.isFinite(fields.floor) ? null : round(fields.floor);
  const ratio = value !== null && floor !== null && floor !== 0 ? round(value / floor) : null;
  const goal = fields.goal;
  let name = fields.name;
  let meets: boolean | null = null;
  if (goal) {
    const sign = goal.op === '<=' ? '≤' : '≥';
    name += goal.on === 'ratio' ? ` [ratio ${sign} ${goal.target}]` : ` [${sign} ${goal.target} ${fields.unit}]`;
    const compared = goal.on === 'ratio' ? ratio : value;
    meets = compared === null ? false : goal.op === '<=' ? compared <= goal.target : compared >= goal.target;
  }
  return { name, metric: fields.metric, value, unit: fields.unit, floor, ratio, target: goal ? goal.target : null, meets };
}

export interface Context {
  quick: boolean;
  log(message: string): void;
  /** Extra measurements that explain the figures (written to bench/results/diagnostics.json). */
  diagnostics: Record<string, unknown>;
}
