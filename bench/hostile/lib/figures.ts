/**
 * What a hostile suite reports: figures, each with the bar it must meet, the seed that replays
 * it, and notes. A suite's result is saved as JSON (bench/results/hostile/<form>/<suite>.json)
 * and docs/reliability.md is rendered from the saved results, so suites can run apart.
 */

/** The bar a figure is held to: exactly zero, flat (a slope under a limit), at least or at most a value, or none (context). */
export type Bar = { kind: 'zero' } | { kind: 'flat'; limit: number } | { kind: 'atLeast'; value: number } | { kind: 'atMost'; value: number } | { kind: 'none' };

export interface Figure {
  /** What was measured, named by what the case does. */
  name: string;
  value: number;
  unit: string;
  bar: Bar;
  meets: boolean;
  /** Replays this figure: `npm run hostile -- --only <suite> --seed <seed>`. */
  seed: number;
  /** When it was measured (ISO 8601). */
  at?: string;
  detail?: string;
}

export interface SuiteResult {
  suite: string;
  form: 'quick' | 'full';
  seed: number;
  startedAt: string;
  durationSeconds: number;
  figures: Figure[];
  /** Failures that are not figures: a case that threw, with its seed and error. */
  failures: string[];
  notes: string[];
}

export const ZERO: Bar = { kind: 'zero' };
export const NONE: Bar = { kind: 'none' };

export function atLeast(value: number): Bar {
  return { kind: 'atLeast', value };
}

export function atMost(value: number): Bar {
  return { kind: 'atMost', value };
}

export function flat(limit: number): Bar {
  return { kind: 'flat', limit };
}

export function meetsBar(value: number, bar: Bar): boolean {
  switch (bar.kind) {
    case 'zero':
      return value === 0;
    case 'flat':
      return Number.isFinite(value) && value <= bar.limit;
    case 'atLeast':
      return value >= bar.value;
    case 'atMost':
      return value <= bar.value;
    case 'none':
      return true;
  }
}

export function figure(name: string, value: number, unit: string, bar: Bar, seed: number, detail?: string): Figure {
  return { name, value, unit, bar, meets: meetsBar(value, bar), seed, at: new Date().toISOString(), ...(detail ? { detail } : {}) };
}

export function describeBar(bar: Bar, unit: string): string {
  switch (bar.kind) {
    case 'zero':
      return '0';
    case 'flat':
      return `flat (≤ ${bar.limit} ${unit})`;
    case 'atLeast':
      return `≥ ${bar.value.toLocaleString('en-US')}`;
    case 'atMost':
      return `≤ ${bar.value.toLocaleString('en-US')}`;
    case 'none':
      return '';
  }
}

/** Collects a suite's figures, failures and notes while it runs. */
export class SuiteRecorder {
  readonly figures: Figure[] = [];
  readonly failures: string[] = [];
  readonly notes: string[] = [];

  constructor(
    readonly suite: string,
    readonly seed: number,
    private readonly log: (line: string) => void,
  ) {}

  add(name: string, value: number, unit: string, bar: Bar, detail?: string, seed = this.seed): Figure {
    const added = figure(name, value, unit, bar, seed, detail);
    this.figures.push(added);
    this.log(`${added.meets ? 'ok  ' : 'MISS'} ${name}: ${formatValue(value)} ${unit}${bar.kind === 'none' ? '' : ` (bar ${describeBar(bar, unit)})`}`);
    return added;
  }

  fail(what: string, error: unknown, seed = this.seed): void {
    const message = error instanceof Error ? error.message : String(error);
    this.failures.push(`${what}: ${message.split('\n').slice(0, 6).join(' / ')} (seed ${seed})`);
    this.log(`FAIL ${what} (seed ${seed}): ${message.split('\n')[0]}`);
  }

  note(text: string): void {
    this.notes.push(text);
  }
}

export function formatValue(value: number): string {
  if (!Number.isFinite(value)) return String(value);
  if (Number.isInteger(value)) return value.toLocaleString('en-US');
  const abs = Math.abs(value);
  return value.toLocaleString('en-US', { maximumFractionDigits: abs >= 100 ? 0 : abs >= 1 ? 2 : 4 });
}
