/**
 * Saves each suite's result and renders docs/reliability.md from the saved results of the
 * full form (or, for a quick run, bench/results/hostile/quick.md): every figure with its bar,
 * its seed and its suite's date, and the machine each ran on.
 */
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBar, formatValue, type SuiteResult } from './figures.js';
import { describeMachine, type Machine } from './machine.js';

export interface SavedSuite extends SuiteResult {
  machine: Machine;
  /** The runs that made these figures: start time and seconds each (a suite's cases may run apart). */
  runs?: Record<string, number>;
}

export const SUITES = ['fuzz', 'chaos', 'soak', 'attacks'] as const;
export type Suite = (typeof SUITES)[number];

export function resultsDir(repoRoot: string, form: 'quick' | 'full'): string {
  return join(repoRoot, 'bench', 'results', 'hostile', form);
}

/** The case a figure, note or failure belongs to: what comes before its first colon. */
const caseOf = (text: string): string => text.split(':')[0]!.trim();

/**
 * Saves a suite's result. A run of some of a suite's cases (one fuzz parser, say) replaces
 * those cases' figures, notes and failures in what was saved before and keeps the others',
 * each figure with its own seed and date: the cases of a suite may run apart.
 */
export function saveSuite(repoRoot: string, result: SavedSuite): string {
  const dir = resultsDir(repoRoot, result.form);
  mkdirSync(dir, { recursive: true });
  const path = join(dir, `${result.suite}.json`);
  let merged: SavedSuite = { ...result, runs: { [result.startedAt]: result.durationSeconds } };
  if (existsSync(path)) {
    const before = JSON.parse(readFileSync(path, 'utf8')) as SavedSuite;
    const cases = new Set([...result.figures.map((f) => caseOf(f.name)), ...result.notes.map(caseOf), ...result.failures.map(caseOf)]);
    const kept = <T>(items: T[], text: (item: T) => string): T[] => items.filter((item) => !cases.has(caseOf(text(item))));
    const runs = { ...(before.runs ?? { [before.startedAt]: before.durationSeconds }), [result.startedAt]: result.durationSeconds };
    merged = {
      ...result,
      runs,
      startedAt: before.startedAt < result.startedAt ? before.startedAt : result.startedAt,
      durationSeconds: Object.values(runs).reduce((a, b) => a + b, 0),
      figures: [...kept(before.figures, (f) => f.name), ...result.figures],
      notes: [...kept(before.notes, (n) => n), ...result.notes],
      failures: [...kept(before.failures, (f) => f), ...result.failures],
    };
  }
  writeFileSync(path, `${JSON.stringify(merged, null, 2)}\n`);
  return path;
}

export function loadSuites(repoRoot: string, form: 'quick' | 'full'): SavedSuite[] {
  return SUITES.map((suite) => join(resultsDir(repoRoot, form), `${suite}.json`))
    .filter((path) => existsSync(path))
    .map((path) => JSON.parse(readFileSync(path, 'utf8')) as SavedSuite);
}

const cell = (text: string): string => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

function suiteSection(result: SavedSuite, title: string, intro: string): string {
  const rows = result.figures.map(
    (f) =>
      `| ${cell(f.name)} | ${formatValue(f.value)} ${cell(f.unit)} | ${cell(describeBar(f.bar, f.unit)) || '—'} | ${f.bar.kind === 'none' ? '' : f.meets ? 'yes' : '**no**'} | ${f.seed} | ${(f.at ?? '').slice(0, 10)} | ${cell(f.detail ?? '')} |`,
  );
  const lines = [
    `## ${title}`,
    '',
    intro,
    '',
    `${result.form === 'full' ? 'Full' : 'Quick'} form, ${Math.round(result.durationSeconds / 60)} min in all, on ${describeMachine(result.machine)}.`,
    '',
    '| case | figure | bar | met | seed | date | detail |',
    '| --- | ---: | --- | :---: | ---: | --- | --- |',
    ...rows,
  ];
  if (result.failures.length > 0) lines.push('', '**Failures**', '', ...result.failures.map((f) => `- ${f}`));
  if (result.notes.length > 0) lines.push('', 'Notes:', '', ...result.notes.map((n) => `- ${n}`));
  return lines.join('\n');
}

export interface SuiteText {
  title: string;
  intro: string;
}

/** The document: a preamble, one section per saved suite, and what is missing. */
export function renderReport(results: readonly SavedSuite[], texts: Record<Suite, SuiteText>, preamble: string, closing: string): string {
  const sections = SUITES.map((suite) => {
    const result = results.find((r) => r.suite === suite);
    return result ? suiteSection(result, texts[suite].title, texts[suite].intro) : `## ${texts[suite].title}\n\nNot run yet in this form.`;
  });
  const missed = results.flatMap((r) => r.figures.filter((f) => !f.meets).map((f) => `${f.name} (${formatValue(f.value)} ${f.unit}, bar ${describeBar(f.bar, f.unit)})`));
  const failures = results.flatMap((r) => r.failures);
  const verdict =
    missed.length === 0 && failures.length === 0
      ? 'Every figure meets its bar.'
      : `${missed.length} figure(s) miss their bar${failures.length ? ` and ${failures.length} case(s) failed` : ''}: ${[...missed, ...failures].join('; ')}.`;
  return `${preamble}\n\n**Summary.** ${verdict}\n\n${sections.join('\n\n')}\n\n${closing}\n`;
}
