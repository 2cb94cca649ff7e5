/**
 * Editor tools with the semantics that make real editors hard: compiling and entering play
 * mode reload the code domain; building blocks the main thread; running tests takes long
 * and reports progress.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { TetherError, type ToolResult } from '../../protocol/index.js';
import { compileCustomTools } from './custom-tools.js';
import { defineTool, type MainThreadContext } from './tool.js';

const BUILD_TARGETS = ['StandaloneLinux64', 'StandaloneWindows64', 'StandaloneOSX', 'Android', 'iOS', 'WebGL'] as const;

/** What a compile did: the project's tools it compiled, and the errors that stopped it. */
export interface CompileOutcome extends Record<string, unknown> {
  succeeded: boolean;
  customTools: string[];
  errors: string[];
  domainReload: boolean;
}

/** Compiles the project's editor scripts, then asks for a domain reload (as Unity does). */
export function compileScripts(context: MainThreadContext): CompileOutcome {
  context.announce('compiling', context.settings.compileMs);
  context.progress({ message: 'Compiling scripts' });
  context.block(context.settings.compileMs);
  const { tools, errors } = compileCustomTools(context.project, context.builtInNames);
  for (const error of errors) context.console.write('error', error);
  context.console.write('log', `Compilation finished: ${tools.length} custom tool(s), ${errors.length} error(s).`);
  if (errors.length === 0) context.requestReload('compile');
  return { succeeded: errors.length === 0, customTools: tools.map((t) => t.name), errors, domainReload: errors.length === 0 };
}

/**
 * The answer of a call that compiled. A compile that failed is a failed call, as in Unity
 * (the old code stays loaded): the agent must see it as one, and `tether call` exit 1, not
 * read `"succeeded": false` inside a success.
 */
export function compiledAnswer<T extends Record<string, unknown>>(answer: T, compile: CompileOutcome): T | ToolResult {
  if (compile.succeeded) return answer;
  const text = `Compilation failed with ${compile.errors.length} error(s); the editor kept its previous scripts. Fix these, then compile again:\n${compile.errors.join('\n')}`;
  return { content: [{ type: 'text', text }], structuredContent: answer, isError: true };
}

/**
 * A player build: blocks the main thread synchronously for the configured time, like
 * BuildPipeline.BuildPlayer, and appends one line to Library/Builds/build-log.jsonl.
 */
export function buildPlayer(context: MainThreadContext, target: string, development: boolean): Record<string, unknown> {
  const startedAt = new Date().toISOString();
  context.console.write('log', `Build started for ${target}`);
  let reported = 0;
  const completed = context.block(context.settings.buildMs, (fraction) => {
    const step = Math.floor(fraction * 10);
    if (step > reported && step < 10) {
      reported = step;
      context.progress({ progress: step * 10, total: 100, message: `Building ${target}: ${step * 10}%` });
    }
  });
  const finishedAt = new Date().toISOString();
  const status = completed ? 'succeeded' : 'cancelled';
  context.project.appendLine(context.project.buildLogPath, { callId: context.callId, target, development, status, startedAt, finishedAt });
  if (!completed) {
    context.console.write('warning', `Build for ${target} was cancelled`);
    throw new TetherError('CANCELLED', `The ${target} build was cancelled after it started; no player was produced.`, { target, started: true });
  }
  const outputDir = join(context.project.root, 'Builds', target);
  mkdirSync(outputDir, { recursive: true });
  writeFileSync(join(outputDir, 'player.txt'), `Sandbox player for ${target}, built ${finishedAt}\n`);
  context.console.write('log', `Build succeeded for ${target}`);
  return { status, target, development, outputPath: `Builds/${target}`, startedAt, finishedAt };
}

export function setPlayMode(context: MainThreadContext, action: 'enter' | 'exit'): Record<string, unknown> {
  if (action === 'enter') {
    if (context.playing) return { playing: true, changed: false };
    context.playing = true;
    context.console.write('log', 'Entering play mode');
    context.requestReload('play');
    return { playing: true, changed: true, domainReload: true };
  }
  if (!context.playing) return { playing: false, changed: false };
  context.playing = false;
  context.console.write('log', 'Exited play mode');
  return { playing: false, changed: true };
}

export const editorTools = [
  defineTool({
    name: 'compile_scripts',
    title: 'Compile scripts',
    description:
      'Compiles the project scripts (including custom tools in Assets/Editor/Tools). On success the editor reloads its code domain: the connection drops for a few seconds and the result is delivered after the reload. With compile errors the call fails and lists them; the editor keeps its previous scripts.',
    input: z.object({}),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    execution: { longRunning: true },
    run: (_args, context) => {
      const compile = compileScripts(context);
      return compiledAnswer(compile, compile);
    },
  }),

  defineTool({
    name: 'play_mode',
    title: 'Enter or exit play mode',
    description: 'Enters or exits play mode. Entering reloads the code domain, as in Unity.',
    input: z.object({ action: z.enum(['enter', 'exit']) }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ action }, context) => setPlayMode(context, action),
  }),

  defineTool({
    name: 'build_player',
    title: 'Build player',
    description:
      'Builds a player for a target platform. Blocks the editor main thread for the whole build (minutes on real projects) and is NOT idempotent: every run produces a new build. An identical call made while one is queued or running shares that build instead of starting another.',
    input: z.object({
      target: z.enum(BUILD_TARGETS).default('StandaloneLinux64'),
      development: z.boolean().default(false),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    execution: { longRunning: true, deadlineMs: 60 * 60_000, duplicates: 'attach' },
    run: ({ target, development }, context) => buildPlayer(context, target, development),
  }),

  defineTool({
    name: 'run_tests',
    title: 'Run tests',
    description: 'Runs the project test suite (EditMode or PlayMode) and reports progress per test. Writes Library/TestResults/latest.json.',
    input: z.object({
      mode: z.enum(['EditMode', 'PlayMode']).default('EditMode'),
      filter: z.string().optional().describe('Only tests whose name contains this text.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    execution: { longRunning: true },
    run: async ({ mode, filter }, context) => runTests(context, mode, filter),
  }),
];

interface TestCase {
  name: string;
  outcome?: 'passed' | 'failed';
  message?: string;
}

const DEFAULT_TESTS: TestCase[] = [
  { name: 'Player.MovesForward' },
  { name: 'Player.JumpsWhenGrounded' },
  { name: 'Inventory.AddsItems' },
  { name: 'Inventory.RejectsOverflow' },
  { name: 'Enemy.FollowsPlayer' },
  { name: 'Save.RoundTripsState' },
];

async function runTests(context: MainThreadContext, mode: string, filter?: string): Promise<Record<string, unknown>> {
  const defined = context.project.readJson<TestCase[]>(join(context.project.root, 'Assets', 'Tests', 'tests.json'), DEFAULT_TESTS);
  const tests = defined.filter((t) => !filter || t.name.includes(filter));
  const results: Array<{ name: string; outcome: string; durationMs: number; message?: string }> = [];
  for (const [index, test] of tests.entries()) {
    if (context.cancelled()) throw new TetherError('CANCELLED', `Test run cancelled after ${index} of ${tests.length} tests.`, { completed: index });
    context.progress({ progress: index, total: tests.length, message: `Running ${test.name}` });
    const started = Date.now();
    await new Promise((resolve) => setTimeout(resolve, context.settings.testMs));
    const outcome = test.outcome ?? 'passed';
    results.push({ name: test.name, outcome, durationMs: Date.now() - started, ...(test.message ? { message: test.message } : {}) });
    if (outcome === 'failed') context.console.write('error', `Test failed: ${test.name}${test.message ? `: ${test.message}` : ''}`);
  }
  context.progress({ progress: tests.length, total: tests.length, message: 'Tests finished' });
  const summary = {
    mode,
    total: results.length,
    passed: results.filter((r) => r.outcome === 'passed').length,
    failed: results.filter((r) => r.outcome === 'failed').length,
    results,
  };
  context.project.writeJson(join(context.project.library, 'TestResults', 'latest.json'), summary);
  return summary;
}
