/**
 * `npm run bench [-- --quick] [-- --only NAME,…] [-- --write-docs]`: runs every scenario on
 * this machine, prints a table and writes bench/results/latest.json
 * ({ scenarios: [{ name, metric, value, unit, floor, ratio, target, meets }] }), plus
 * diagnostics.json (the measurements behind the figures) and latest.md (the table).
 * --write-docs also puts the table into docs/performance.md. See docs/performance.md.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { availableParallelism, cpus, totalmem } from 'node:os';
import { join } from 'node:path';
import { buildHelpers } from './lib/build.js';
import { BENCH_DIR, REPO_ROOT, killAll, removeWorkspaces } from './lib/procs.js';
import type { Context, Entry } from './lib/results.js';
import * as coldStart from './scenarios/cold-start.js';
import * as csharpHost from './scenarios/csharp-host.js';
import * as dashboard from './scenarios/dashboard.js';
import * as latency from './scenarios/latency.js';
import * as memory from './scenarios/memory.js';
import * as payloads from './scenarios/payloads.js';
import * as recovery from './scenarios/recovery.js';
import * as throughput from './scenarios/throughput.js';

const SCENARIOS: Record<string, { run(ctx: Context): Promise<Entry[]> }> = {
  latency,
  throughput,
  payloads,
  recovery,
  'cold-start': coldStart,
  memory,
  'csharp-host': csharpHost,
  dashboard,
};

const argv = process.argv.slice(2);
const quick = argv.includes('--quick');
const onlyAt = argv.indexOf('--only');
const only = onlyAt >= 0 ? (argv[onlyAt + 1] ?? '').split(',') : Object.keys(SCENARIOS);
const writeDocs = argv.includes('--write-docs');

// The SDK's HTTP client leaks one abort listener per request on its transport signal when the
// server primes resumable SSE streams (tether serve does); Node would print a warning with a
// stack for each one past 1,500, which costs time inside the measurement. Count them instead.
const warnings = new Map<string, number>();
process.removeAllListeners('warning');
process.on('warning', (warning) => {
  const count = (warnings.get(warning.name) ?? 0) + 1;
  warnings.set(warning.name, count);
  if (count === 1) process.stderr.write(`[bench] ${warning.name}: ${warning.message} (further ones counted in diagnostics.json)\n`);
});

for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    killAll();
    removeWorkspaces();
    process.exit(130);
  });
}

function formatNumber(value: number | null): string {
  if (value === null) return '—';
  const abs = Math.abs(value);
  return abs >= 100 ? value.toFixed(0) : abs >= 10 ? value.toFixed(1) : value.toFixed(abs >= 1 ? 2 : 3);
}

export function markdownTable(entries: Entry[]): string {
  const rows = entries.map((e) =>
    [e.name, formatNumber(e.value), e.unit, formatNumber(e.floor), e.ratio === null ? '—' : `${formatNumber(e.ratio)}×`, e.meets === null ? '' : e.meets ? 'yes' : '**no**'].join(' | '),
  );
  return ['| figure | value | unit | floor | ratio | meets |', '| --- | ---: | --- | ---: | ---: | :---: |', ...rows.map((r) => `| ${r} |`)].join('\n');
}

function consoleTable(entries: Entry[]): string {
  const cells = entries.map((e) => [e.name, formatNumber(e.value), e.unit, formatNumber(e.floor), e.ratio === null ? '' : `${formatNumber(e.ratio)}x`, e.meets === null ? '' : e.meets ? 'yes' : 'NO']);
  const header = ['figure', 'value', 'unit', 'floor', 'ratio', 'meets'];
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] as string).length)));
  const line = (c: string[]): string => c.map((cell, i) => (i === 0 || i === 2 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join('  ');
  return [line(header), widths.map((w) => '-'.repeat(w)).join('  '), ...cells.map(line)].join('\n');
}

async function main(): Promise<void> {
  const started = Date.now();
  buildHelpers();
  const machine = {
    nproc: availableParallelism(),
    cpu: cpus()[0]?.model ?? 'unknown',
    memoryGiB: Math.round(totalmem() / 2 ** 30),
    node: process.version,
    platform: `${process.platform}-${process.arch}`,
    mode: quick ? 'quick' : 'full',
    date: new Date().toISOString(),
  };
  const diagnostics: Record<string, unknown> = { machine };
  const ctx: Context = { quick, diagnostics, log: (message) => process.stderr.write(`[bench] ${message}\n`) };
  const entries: Entry[] = [];
  for (const name of only) {
    const scenario = SCENARIOS[name];
    if (!scenario) throw new Error(`unknown scenario "${name}"; known: ${Object.keys(SCENARIOS).join(', ')}`);
    const t0 = Date.now();
    ctx.log(`scenario ${name}…`);
    try {
      entries.push(...(await scenario.run(ctx)));
    } finally {
      killAll();
    }
    ctx.log(`scenario ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s`);
  }
  diagnostics.durationSeconds = Math.round((Date.now() - started) / 1000);
  diagnostics.benchProcessWarnings = Object.fromEntries(warnings);

  const dir = join(BENCH_DIR, 'results');
  mkdirSync(dir, { recursive: true });
  writeFileSync(join(dir, 'latest.json'), `${JSON.stringify({ scenarios: entries }, null, 2)}\n`);
  writeFileSync(join(dir, 'diagnostics.json'), `${JSON.stringify(diagnostics, null, 2)}\n`);
  const header = `Run: ${machine.mode}, ${machine.date}, ${machine.nproc} CPUs (${machine.cpu}), ${machine.memoryGiB} GiB, Node ${machine.node}, ${machine.platform}; ${diagnostics.durationSeconds} s.`;
  const table = `${header}\n\n${markdownTable(entries)}\n`;
  writeFileSync(join(dir, 'latest.md'), table);
  if (writeDocs) {
    const docs = join(REPO_ROOT, 'docs', 'performance.md');
    const text = readFileSync(docs, 'utf8');
    const start = '<!-- bench:table:start -->';
    const end = '<!-- bench:table:end -->';
    const from = text.indexOf(start);
    const to = text.indexOf(end);
    if (from < 0 || to < 0) throw new Error(`docs/performance.md lacks the ${start} … ${end} markers`);
    writeFileSync(docs, `${text.slice(0, from + start.length)}\n${table}${text.slice(to)}`);
  }
  process.stdout.write(`\n${header}\n\n${consoleTable(entries)}\n\nWrote bench/results/latest.json, latest.md and diagnostics.json.\n`);
  const missed = entries.filter((e) => e.meets === false).length;
  if (missed > 0) process.stdout.write(`${missed} figure(s) miss their goal (goals are targets, not a pass/fail gate).\n`);
}

main()
  .catch((error: unknown) => {
    process.stderr.write(`bench failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}\n`);
    process.exitCode = 1;
  })
  .finally(() => {
    killAll();
    removeWorkspaces();
    // SDK clients and pipes may keep handles open; the run is over.
    setTimeout(() => process.exit(), 200).unref();
  });
