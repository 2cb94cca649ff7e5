/**
 * `npm run hostile [-- --quick] [-- --seed N] [-- --only fuzz,chaos,soak,attacks]`: the
 * hostile-input and long-run suites against real `tether` processes. Prints the run's seed
 * first (every case replays from it), saves each suite's figures under
 * bench/results/hostile/<form>/, and renders them: the full form into docs/reliability.md,
 * the quick form (minutes, for CI) into bench/results/hostile/quick.md. Exits 1 when a figure
 * misses its bar or a case fails. Replaying one fuzz batch:
 *   npm run hostile -- --only fuzz --parsers serve-http --seed S --from-batch B --inputs 2000
 * A suite's cases may run apart (--only, --parsers): each run replaces its own cases' figures
 * in what was saved and keeps the rest. --render-only renders the saved results again;
 * --note SUITE=TEXT adds a finding to a suite's saved results (a cause found after the run).
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, cleanupProcesses } from '../../test/helpers/processes.js';
import { runAttacks } from './attacks/suite.js';
import { runChaosSuite } from './chaos/suite.js';
import { PARSERS, runFuzz, type Parser } from './fuzz/suite.js';
import { stopAdopted } from './lib/children.js';
import { SuiteRecorder, formatValue } from './lib/figures.js';
import { HeapProbe } from './lib/heap-probe.js';
import { machine } from './lib/machine.js';
import { SUITES, loadSuites, renderReport, resultsDir, saveSuite, type Suite } from './lib/report.js';
import { CLOSING, PREAMBLE, SUITE_TEXTS } from './lib/report-text.js';
import { runSoak } from './soak/suite.js';

const argv = process.argv.slice(2);
const option = (name: string): string | undefined => {
  const at = argv.indexOf(`--${name}`);
  return at >= 0 ? argv[at + 1] : undefined;
};
const quick = argv.includes('--quick');
const form = quick ? 'quick' : 'full';
const seed = Number(option('seed') ?? Math.floor(Math.random() * 2 ** 31));
/** --render-only: no suite runs; the saved results are rendered again (after a change to the report's text, say). */
const only = argv.includes('--render-only') ? [] : ((option('only')?.split(',') ?? [...SUITES]) as Suite[]);
const parsers = (option('parsers')?.split(',') ?? [...PARSERS]) as Parser[];
/** --inputs N for every parser, or --inputs serve-http=500000,serve-jsonrpc=250000 for some. */
const inputsOption = option('inputs');
const inputsFor = (parser: Parser): number | undefined => {
  if (inputsOption === undefined) return undefined;
  if (!inputsOption.includes('=')) return Number(inputsOption);
  const pair = inputsOption.split(',').find((part) => part.startsWith(`${parser}=`));
  return pair === undefined ? undefined : Number(pair.slice(parser.length + 1));
};
const fromBatch = option('from-batch') === undefined ? undefined : Number(option('from-batch'));

const QUICK_INPUTS: Record<Parser, number> = { 'host-pre': 10_000, 'host-post': 20_000, 'mcp-stdin': 20_000, 'serve-http': 5_000, 'serve-jsonrpc': 5_000 };
const inputs = Object.fromEntries(PARSERS.map((p) => [p, inputsFor(p) ?? (quick ? QUICK_INPUTS[p] : 1_000_000)])) as Record<Parser, number>;

const log = (line: string): void => void process.stderr.write(`[hostile ${new Date().toISOString().slice(11, 19)}] ${line}\n`);

// Tests' defaults would log every refused frame at warn: a million of them is gigabytes.
process.env.TETHER_LOG_LEVEL = 'error';
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    void Promise.all([stopAdopted(), cleanupProcesses()]).finally(() => process.exit(130));
  });
}

async function suite(name: Suite, run: (recorder: SuiteRecorder, checkpoint: () => void) => Promise<void>): Promise<void> {
  const recorder = new SuiteRecorder(name, seed, (line) => log(`${name}: ${line}`));
  const started = Date.now();
  const save = (): string =>
    saveSuite(REPO_ROOT, {
      suite: name,
      form,
      seed,
      startedAt: new Date(started).toISOString(),
      durationSeconds: Math.round((Date.now() - started) / 1000),
      figures: recorder.figures,
      failures: recorder.failures,
      notes: recorder.notes,
      machine: machine(),
    });
  log(`suite ${name} (${form}, seed ${seed}; replay: npm run hostile --${quick ? ' --quick' : ''} --only ${name} --seed ${seed})`);
  try {
    await run(recorder, save);
  } catch (error) {
    recorder.fail(`suite ${name}`, error);
  } finally {
    await stopAdopted();
    await cleanupProcesses();
  }
  log(`suite ${name} saved to ${save()}`);
}

/** --note SUITE=TEXT (repeatable): a finding about the saved results (a cause found after the run), kept with them. */
function addNotes(): void {
  argv.forEach((arg, i) => {
    if (arg !== '--note') return;
    const [suite, ...text] = (argv[i + 1] ?? '').split('=');
    const path = join(resultsDir(REPO_ROOT, form), `${suite}.json`);
    const saved = JSON.parse(readFileSync(path, 'utf8')) as { notes: string[] };
    saved.notes.push(text.join('='));
    writeFileSync(path, `${JSON.stringify(saved, null, 2)}\n`);
  });
}

async function main(): Promise<number> {
  addNotes();
  log(`seed ${seed} (${form} form; replay with --seed ${seed})`);
  if (!HeapProbe.available()) log('no WebSocket client in this Node: heap after GC will not be sampled (run with --experimental-websocket on Node 20)');
  for (const name of only) {
    if (!SUITES.includes(name)) throw new Error(`unknown suite "${name}"; known: ${SUITES.join(', ')}`);
    if (name === 'fuzz') await suite(name, (r, checkpoint) => runFuzz({ seed, inputs, parsers, ...(fromBatch === undefined ? {} : { fromBatch }) }, r, log, checkpoint));
    if (name === 'chaos') await suite(name, (r) => runChaosSuite({ seed, faults: Number(option('faults') ?? (quick ? 30 : 1_000)), quick }, r, log));
    if (name === 'soak') {
      const minutes = Number(option('minutes') ?? (quick ? 0.5 : 60));
      await suite(name, (r) =>
        runSoak(
          {
            seed,
            minutes,
            fronts: quick ? 10 : 30,
            sessions: quick ? 100 : 500,
            reloadEverySeconds: quick ? 10 : 60,
            restarts: quick ? 1 : 2,
            sampleEverySeconds: quick ? 2 : 20,
            judgeSlopes: !quick && minutes >= 30,
          },
          r,
          log,
          (series) => writeFileSync(join(resultsDir(REPO_ROOT, form), 'soak-series.json'), `${JSON.stringify(series)}\n`),
        ),
      );
    }
    if (name === 'attacks') await suite(name, (r) => runAttacks(!quick, r, log));
  }
  const results = loadSuites(REPO_ROOT, form);
  const report = renderReport(results, SUITE_TEXTS, PREAMBLE, CLOSING);
  const target = quick ? join(resultsDir(REPO_ROOT, 'quick'), '..', 'quick.md') : join(REPO_ROOT, 'docs', 'reliability.md');
  writeFileSync(target, report);
  const ran = results.filter((r) => only.includes(r.suite as Suite));
  const missed = ran.flatMap((r) => r.figures.filter((f) => !f.meets));
  const failures = ran.flatMap((r) => r.failures);
  for (const f of missed) log(`MISSED ${f.name}: ${formatValue(f.value)} ${f.unit} (seed ${f.seed})`);
  for (const f of failures) log(`FAILED ${f}`);
  log(`wrote ${target}; ${missed.length} figure(s) missed, ${failures.length} failure(s); seed ${seed}`);
  return missed.length + failures.length === 0 ? 0 : 1;
}

main()
  .then((code) => {
    process.exitCode = code;
  })
  .catch((error: unknown) => {
    log(`hostile failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`);
    process.exitCode = 1;
  })
  .finally(() => {
    // SDK clients and pipes may keep handles open; the run is over.
    setTimeout(() => process.exit(), 500).unref();
  });
