/**
 * run_tests in the sandbox: the project's tests are listed in Assets/Tests/tests.json (name,
 * mode, categories, assembly, and the outcome, message and stack each will have), selected as
 * the Test Framework's Filter selects (every kind of name given must match; within a kind, any
 * one), run one after another with progress as each starts and ends, and summed up in
 * Library/TestResults/latest.json, as the Unity package writes it. Refused while the scripts do
 * not compile, as the Unity package refuses it (see script-compilation.ts).
 *
 * Unlike Unity, a PlayMode run answers with its results: Unity's enters play mode, whose domain
 * reload the call cannot outlive, so it answers as the run starts (finished: false). Modelling
 * that needs the run to go on in the sandbox's next domain, which only its main thread's start
 * (main-thread.ts) could do.
 */
import { join } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
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

export async function runTests(context: MainThreadContext, selection: TestSelection): Promise<z.infer<typeof testRunSummary>> {
  // In RunTestsTool's order: a bad pattern is refused first, then a run while the scripts do
  // not compile (the test assemblies would not load), before the tests are listed.
  const selects = selector(selection);
  refuseWhileScriptsFail(context, TESTS_REFUSED, { tool: 'run_tests' });
  const all = projectTests(context);
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
  const count = (outcome: (typeof OUTCOMES)[number]): number => results.filter((r) => r.outcome === outcome).length;
  const inMode = all.filter((test) => test.mode === selection.mode).length;
  const summary = {
    mode: selection.mode,
    finished: true,
    total: results.length,
    passed: count('passed'),
    failed: count('failed'),
    skipped: count('skipped'),
    inconclusive: count('inconclusive'),
    durationMs: Date.now() - started,
    results,
    resultsPath: RESULTS_PATH,
    ...(results.length === 0 ? { note: `No ${selection.mode} test matched the filter (the project has ${inMode}). Check the names, or call without a filter to run them all.` } : {}),
  };
  context.project.writeJson(join(context.project.root, RESULTS_PATH), summary);
  return summary;
}
