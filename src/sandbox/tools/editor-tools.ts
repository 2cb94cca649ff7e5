/**
 * Editor tools with the semantics that make real editors hard: compiling and entering play
 * mode reload the code domain; building blocks the main thread; running tests takes long
 * and reports progress. Also the tools that change scripts and packages, which compile or
 * resolve and reload in turn (script-tools.ts, package-tools.ts).
 */
import { z } from 'zod';
import { BUILD_OPTIONS, BUILD_TARGETS, activeBuildTarget, buildPlayer, buildSummary } from './build-player.js';
import { compileOutcome, compileScripts, compiledAnswer } from './compile-scripts.js';
import { packageTools } from './package-tools.js';
import { playModeTool } from './play-mode-tool.js';
import { scriptTools } from './script-tools.js';
import { TEST_MODES, UNSAVED_BEFORE_TESTS, runTests, testFilter, testRunSummary } from './test-runner.js';
import { defineTool } from './tool.js';

// The menu items build and compile as these tools do.
export { buildPlayer } from './build-player.js';
export { compileScripts, compiledAnswer, type CompileOutcome } from './compile-scripts.js';

export const editorTools = [
  defineTool({
    name: 'compile_scripts',
    title: 'Compile scripts',
    description:
      'Compiles the project scripts (including custom tools in Assets/Editor/Tools). On success the editor reloads its code domain: the connection drops for a few seconds and the result is delivered after the reload. With compile errors the call fails and lists them; the editor keeps its previous scripts.',
    input: z.object({}),
    output: compileOutcome,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    execution: { longRunning: true },
    run: (_args, context) => {
      const compile = compileScripts(context);
      return compiledAnswer(compile, compile);
    },
  }),

  ...scriptTools,

  playModeTool,

  defineTool({
    name: 'build_player',
    title: 'Build player',
    description:
      'Builds a player for a target platform. Blocks the editor main thread for the whole build (minutes on real projects) and is NOT idempotent: every run produces a new build. An identical call made while one is queued or running shares that build instead of starting another.',
    input: z.object({
      target: z.enum(BUILD_TARGETS).optional().describe("Default: the active build target (get_editor_state's buildTarget)."),
      development: z.boolean().default(false),
      scenes: z.array(z.string()).optional().describe('The scenes to build, in order, e.g. ["Assets/Scenes/Main.unity"]. Default: the enabled scenes of the Build Settings.'),
      outputPath: z.string().optional().describe('The folder to write the player to, inside the project (default "Builds/<target>"); not Assets/, Library/ or another folder the editor owns.'),
      allowOutsideProject: z.boolean().default(false).describe('Allow an outputPath outside the project (an absolute path you were given): the build replaces what is there.'),
      options: z.array(z.enum(BUILD_OPTIONS)).optional().describe('More BuildOptions, by name.'),
    }),
    output: buildSummary,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    execution: { longRunning: true, deadlineMs: 60 * 60_000, duplicates: 'attach' },
    run: ({ target, development, ...more }, context) => buildPlayer(context, target ?? activeBuildTarget(), development, more),
  }),

  defineTool({
    name: 'run_tests',
    title: 'Run tests',
    description:
      'Runs the project\'s EditMode or PlayMode tests (Unity Test Framework), all or those a filter selects (names, regular expressions, categories, assemblies: every kind given must match), with progress as each test starts and ends; answers with each test\'s outcome, duration, message and stack. Writes Library/TestResults/latest.json.',
    input: z.object({
      mode: z.enum(TEST_MODES).default('EditMode'),
      ...testFilter,
      unsavedChanges: z.enum(['refuse', 'save']).default('refuse').describe(UNSAVED_BEFORE_TESTS),
    }),
    output: testRunSummary,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    execution: { longRunning: true },
    run: async ({ unsavedChanges, ...selection }, context) => runTests(context, selection, unsavedChanges),
  }),

  ...packageTools,
];
