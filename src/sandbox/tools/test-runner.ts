/**
 * run_tests in the sandbox: the project's tests are listed in Assets/Tests/tests.json (name,
 * mode, categories, assembly, and the outcome, message and stack each will have), selected as
 * the Test Framework's Filter selects (every kind of name given must match; within a kind, any
 * one), run one after another with progress as each starts and ends, and summed up in
 * Library/TestResults/latest.json, as the Unity package writes it. Refused while the scripts do
 * not compile, as the Unity package refuses it (see script-compilation.ts).
 *
 * A PlayMode run enters play mode, which reloads the code domain unless the project's Enter Play
 * Mode Options turn that off (enter-play-mode-options.ts). The call cannot outlive the reload,
 * so, as the Unity package's RunTestsTool does, it answers as the run starts (finished: false),
 * and the run goes on in the next domain of the same editor process (main-thread.ts calls
 * finishInterruptedRun), as the Test Runner's does in Unity: its results land in latest.json,
 * then the editor leaves play mode. A restarted editor does not go on with it, as Unity does not.
 * Without the reload, the call follows the run and answers with its results.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { reloadsOnEnteringPlayMode } from '../enter-play-mode-options.js';
import { setPlayMode } from './play-mode-tool.js';
import { refuseWhileScriptsFail } from './script-compilation.js';
import { invalidArgument } from './tool-errors.js';
import type { MainThreadContext } from './tool.js';

export const TEST_MODES = ['EditMode', 'PlayMode'] as const;
export const RESULTS_PATH = 'Library/TestResults/latest.json';

const OUTCOMES = ['passed', 'failed', 'skipped', 'inconclusive'] as const;

const TestCase = z.object({
  name: z.string().min(1),
  mode: z.enum(TEST_MODES).default('EditMode'),
  categories: z.array(z.string()).default([]),
  assembly: z.string().default('Tests'),
  outcome: z.enum(OUTCOMES).default('passed'),
  message: z.string().optional(),
  stackTrace: z.string().optional(),
});
type TestCase = z.infer<typeof TestCase>;

const DEFAULT_TESTS = ['Player.MovesForward', 'Player.JumpsWhenGrounded', 'Inventory.AddsItems', 'Inventory.RejectsOverflow', 'Enemy.FollowsPlayer', 'Save.RoundTripsState'].map((name) => ({ name }));

/** One test's result. */
export const testResult = z.object({
  name: z.string().describe('The test\'s full name, e.g. "Game.Tests.PlayerTests.MovesForward".'),
  outcome: z.enum(OUTCOMES),
  durationMs: z.number().int(),
  message: z.string().optional().describe('Why it failed, or was skipped.'),
  stackTrace: z.string().optional(),
});

/** run_tests' result. */
export const testRunSummary = z.object({
  mode: z.enum(TEST_MODES),
  finished: z.boolean().describe('False when the run goes on after this answer (a PlayMode run that reloads the domain): then read resultsPath once the editor is back.'),
  total: z.number().int(),
  passed: z.number().int(),
  failed: z.number().int(),
  skipped: z.number().int(),
  inconclusive: z.number().int(),
  durationMs: z.number().int(),
  results: z.array(testResult),
  resultsPath: z.string().describe('Where the summary is written too.'),
  domainReload: z.boolean().optional(),
  note: z.string().optional(),
});

export const testFilter = {
  filter: z.string().optional().describe('Only tests whose full name contains this text.'),
  testNames: z.array(z.string()).optional().describe('Only these tests, by full name ("Fixture.Test", arguments in parentheses).'),
  groupNames: z.array(z.string()).optional().describe('Only tests whose full name matches one of these regular expressions, e.g. "^Game\\\\.Player".'),
  categoryNames: z.array(z.string()).optional().describe('Only tests in one of these [Category]s.'),
  assemblyNames: z.array(z.string()).optional().describe('Only tests in one of these assemblies (names without ".dll").'),
};

export interface TestSelection {
  mode: (typeof TEST_MODES)[number];
  filter?: string;
  testNames?: string[];
  groupNames?: string[];
  categoryNames?: string[];
  assemblyNames?: string[];
}

const any = <T>(wanted: readonly T[] | undefined, test: (item: T) => boolean): boolean => !wanted || wanted.length === 0 || wanted.some(test);

function selector(selection: TestSelection): (test: TestCase) => boolean {
  const groups = (selection.groupNames ?? []).map((pattern, index) => {
    try {
      return new RegExp(pattern);
    } catch (error) {
      throw invalidArgument('run_tests', `groupNames.${index}`, `"${pattern}" is not a regular expression (${(error as Error).message})`, 'Escape the special characters, e.g. "Game\\\\.Player".');
    }
  });
  return (test) =>
    test.mode === selection.mode &&
    (!selection.filter || test.name.includes(selection.filter)) &&
    any(selection.testNames, (name) => name === test.name) &&
    any(groups, (group) => group.test(test.name)) &&
    any(selection.categoryNames, (category) => test.categories.includes(category)) &&
    any(selection.assemblyNames, (assembly) => assembly === test.assembly);
}

function projectTests(context: MainThreadContext): TestCase[] {
  const listed = context.project.readJson<unknown>(join(context.project.root, 'Assets', 'Tests', 'tests.json'), DEFAULT_TESTS);
  const parsed = z.array(TestCase).safeParse(listed);
  if (!parsed.success) {
    const problem = parsed.error.issues.map((i) => `${i.path.join('.') || '(root)'}: ${i.message}`).join('; ');
    throw new TetherError('TOOL_FAILED', `Assets/Tests/tests.json is not a list of tests: ${problem}. Fix the file, then run the tests again.`, { tool: 'run_tests' });
  }
  return parsed.data;
}

/** The Unity package's RunTestsTool refusal while EditorUtility.scriptCompilationFailed, word for word. */
const TESTS_REFUSED = 'Unity cannot run tests while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.';

/** The Unity package's RunTestsTool note for a PlayMode run that reloads the domain, word for word. */
const ACROSS_RELOAD_NOTE = `PlayMode tests enter play mode, which reloads the code domain: this call ends as the run starts. Read ${RESULTS_PATH} once the editor is back in edit mode (host state "ready"), or turn domain reload off in Enter Play Mode Options to be answered with the results.`;

/** The Unity package's refusal of a run while the one it started goes on, word for word. */
const STILL_RUNNING = 'A test run started by Tether is still going. Wait for it, then run tests again.';

/** The Unity package's TestRunRules.PlayModeRefusal, word for word. */
const PLAY_MODE_REFUSED =
  'Unity cannot run tests in play mode: the Test Runner first saves the open scenes, which play mode does not allow. Exit play mode (play_mode "exit"), then run the tests again.';

/** The Unity package's TestRunRules.UnsavedDescription. */
export const UNSAVED_BEFORE_TESTS =
  "Loaded scenes with unsaved changes, which Unity's Test Runner would ask about in a dialog before the run: refuse (the call fails, naming them) or save them first.";

/** A PlayMode run the reload of entering play mode interrupted, for the next domain of the editor process that started it. */
interface InterruptedRun {
  /** The editor process that started it (MainThreadSettings.editorInstanceId). */
  editor: string;
  selection: TestSelection;
}

const interruptedRunPath = (context: MainThreadContext): string => join(context.project.library, 'Tether', 'test-run.json');

/** Whether this domain is finishing a run an earlier one started (a new run waits for it, as in Unity). */
let finishing = false;

export async function runTests(context: MainThreadContext, selection: TestSelection, unsavedChanges: 'refuse' | 'save' = 'refuse'): Promise<z.infer<typeof testRunSummary>> {
  // In RunTestsTool's order: a bad pattern is refused first, then a run while the scripts do
  // not compile (the test assemblies would not load), one while Tether's last goes on, one in
  // play mode, and one past unsaved scenes (TestRunRules: the Test Runner would ask about them
  // in a dialog that holds the editor).
  const selects = selector(selection);
  refuseWhileScriptsFail(context, TESTS_REFUSED, { tool: 'run_tests' });
  if (finishing) throw new TetherError('TOOL_FAILED', STILL_RUNNING, { tool: 'run_tests' });
  if (context.playing) throw new TetherError('TOOL_FAILED', PLAY_MODE_REFUSED, { tool: 'run_tests' });
  context.scenes.saveBeforeTests(unsavedChanges);
  const all = projectTests(context);
  // The last run's results must not pass for this one's (a PlayMode run's caller is told to read the file).
  rmSync(join(context.project.root, RESULTS_PATH), { force: true });
  if (selection.mode === 'PlayMode' && reloadsOnEnteringPlayMode(context.project)) {
    context.project.writeJson(interruptedRunPath(context), { editor: context.settings.editorInstanceId, selection } satisfies InterruptedRun);
    setPlayMode(context, 'enter', true);
    return { ...summaryOf(selection.mode, [], 0), finished: false, domainReload: true, note: ACROSS_RELOAD_NOTE };
  }
  return runSelected(context, selection, all, selects);
}

/**
 * In a new domain: finishes the PlayMode run the last one started as it entered play mode, if
 * this editor process started one, then leaves play mode (as the Test Runner does) and says the
 * editor is ready. Nothing hears its progress: the call that started it has been answered.
 */
export async function finishInterruptedRun(context: MainThreadContext): Promise<void> {
  const path = interruptedRunPath(context);
  const run = context.project.readJson<InterruptedRun | null>(path, null);
  if (run === null) return;
  if (run.editor !== context.settings.editorInstanceId) {
    rmSync(path, { force: true });
    return;
  }
  finishing = true;
  try {
    await runSelected(context, run.selection, projectTests(context), selector(run.selection));
  } catch (error) {
    context.console.write('error', `The PlayMode test run did not finish: ${(error as Error).message}`);
  } finally {
    finishing = false;
  }
  // Gone only now: a domain reload during the run (a compile) leaves it for the next domain to run again.
  rmSync(path, { force: true });
  setPlayMode(context, 'exit');
  context.announce('ready');
}

async function runSelected(context: MainThreadContext, selection: TestSelection, all: TestCase[], selects: (test: TestCase) => boolean): Promise<z.infer<typeof testRunSummary>> {
  const tests = all.filter(selects);
  const results: Array<z.infer<typeof testResult>> = [];
  const started = Date.now();
  for (const [index, test] of tests.entries()) {
    if (context.cancelled()) throw new TetherError('CANCELLED', `Test run cancelled after ${index} of ${tests.length} tests.`, { completed: index, results });
    context.progress({ progress: index, total: tests.length, message: `Running ${test.name}` });
    const began = Date.now();
    await new Promise((resolve) => setTimeout(resolve, context.settings.testMs));
    const result = { name: test.name, outcome: test.outcome, durationMs: Date.now() - began, ...(test.message ? { message: test.message } : {}), ...(test.stackTrace ? { stackTrace: test.stackTrace } : {}) };
    results.push(result);
    context.progress({ progress: index + 1, total: tests.length, message: `${test.outcome === 'passed' ? 'Passed' : test.outcome === 'failed' ? 'Failed' : 'Skipped'} ${test.name} (${result.durationMs} ms)` });
    if (test.outcome === 'failed') context.console.write('error', `Test failed: ${test.name}${test.message ? `: ${test.message}` : ''}`, test.stackTrace);
  }
  context.progress({ progress: tests.length, total: tests.length, message: 'Tests finished' });
  const inMode = all.filter((test) => test.mode === selection.mode).length;
  const summary = {
    ...summaryOf(selection.mode, results, Date.now() - started),
    ...(results.length === 0 ? { note: `No ${selection.mode} test matched the filter (the project has ${inMode}). Check the names, or call without a filter to run them all.` } : {}),
  };
  context.project.writeJson(join(context.project.root, RESULTS_PATH), summary);
  return summary;
}

function summaryOf(mode: TestSelection['mode'], results: Array<z.infer<typeof testResult>>, durationMs: number): z.infer<typeof testRunSummary> {
  const count = (outcome: (typeof OUTCOMES)[number]): number => results.filter((r) => r.outcome === outcome).length;
  return {
    mode,
    finished: true,
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    inconclusive: count('inconclusive'),
    durationMs,
    results,
    resultsPath: RESULTS_PATH,
  };
}
