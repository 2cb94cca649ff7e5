/**
 * run_tests and build_player through `tether call` and an MCP client: filters as the Test
 * Framework's, progress as each test starts and ends (PlayMode runs, and each test's message
 * and stack: play-mode-test-run.test.ts);
 * builds with their summary, where the player may go (and why not elsewhere), scenes, options,
 * and a build refused while scripts do not compile; play_mode's "enter" and run_tests refused
 * then too, as the Unity package refuses them (EditorUtility.scriptCompilationFailed), and the
 * Edit/Play menu item staying in edit mode as Unity's does; the scenes built by default (Build
 * Settings).
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import type { Client } from '@modelcontextprotocol/client';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { buildLog } from '../helpers/processes.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { sharedSandbox } from '../helpers/tool-session.js';
import { activeBuildTarget } from '../../src/sandbox/tools/build-player.js';

interface Summary {
  mode: string;
  finished: boolean;
  total: number;
  passed: number;
  failed: number;
  skipped: number;
  results: Array<{ name: string; outcome: string; durationMs: number; message?: string; stackTrace?: string }>;
  note?: string;
}

interface Build {
  status: string;
  outputPath: string;
  location: string;
  scenes: string[];
  options: string[];
  totalSize: number;
  totalErrors: number;
}

const { workspace } = sharedSandbox({ args: ['--build-seconds', '0.2'], mcp: false });

describe('run_tests and build_player through tether call', () => {
  it('runs the tests a filter selects', async () => {
    const edit = await callOk<Summary>(workspace, 'run_tests');
    expect(edit).toMatchObject({ mode: 'EditMode', finished: true, total: 6, passed: 6, failed: 0, skipped: 0 });
    // PlayMode runs, failures with their message and stack: play-mode-test-run.test.ts.
    const movement = await callOk<Summary>(workspace, 'run_tests', { categoryNames: ['Movement'], groupNames: ['^Player\\.'] });
    expect(movement.results.map((r) => r.name)).toEqual(['Player.MovesForward', 'Player.JumpsWhenGrounded']);
    expect(await callFails(workspace, 'run_tests', { groupNames: ['(unclosed'] }, 'INVALID_ARGUMENTS')).toContain('groupNames.0');
  });

  it('builds a player with the summary of its report, where it may go, and counts each build once', async () => {
    const built = await callOk<Build>(workspace, 'build_player', { target: 'StandaloneWindows64', development: true, options: ['AllowDebugging'] });
    expect(built).toMatchObject({
      status: 'succeeded',
      outputPath: 'Builds/StandaloneWindows64',
      scenes: ['Assets/Scenes/SampleScene.unity'],
      options: ['Development', 'AllowDebugging'],
      totalErrors: 0,
    });
    expect(built.location).toMatch(/^Builds\/StandaloneWindows64\/.+\.exe$/);
    expect(readFileSync(join(workspace.project, built.location)).length).toBe(built.totalSize);
    const outside = join(dirname(workspace.project), 'elsewhere');
    expect(await callFails(workspace, 'build_player', { outputPath: outside }, 'PATH_OUTSIDE_PROJECT')).toContain('allowOutsideProject');
    expect(await callFails(workspace, 'build_player', { outputPath: 'Assets/Build' }, 'INVALID_ARGUMENTS')).toContain('inside Assets/, which the editor owns');
    expect(existsSync(outside)).toBe(false);
    expect(buildLog(workspace).map((b) => b.status)).toEqual(['succeeded']);
  });
});

describe('run_tests and build_player through an MCP client', () => {
  it('reports progress per test by name, and builds where it is allowed to', async () => {
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    for (const name of ['run_tests', 'build_player']) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    const messages: string[] = [];
    const tests = ['Player.MovesForward', 'Inventory.AddsItems'];
    const run = await client.callTool({ name: 'run_tests', arguments: { testNames: tests } }, { onprogress: (p) => void messages.push(p.message ?? '') });
    expect(run.isError, textOf(run)).toBeFalsy();
    expect((run.structuredContent as Summary).results.map((r) => r.name)).toEqual(tests);
    // The first test's outcome, not the last's: the SDK client runs a notification's handler a
    // microtask later than a response's, so progress read in the same chunk as the result
    // ("Passed Inventory.AddsItems", "Tests finished") may find its request already done.
    expect(messages).toEqual(expect.arrayContaining(['Running Player.MovesForward', expect.stringMatching(/^Passed Player\.MovesForward \(\d+ ms\)$/), 'Running Inventory.AddsItems']));
    const none = await client.callTool({ name: 'run_tests', arguments: { assemblyNames: ['Game.PlayTests'] } });
    expect(none.structuredContent).toMatchObject({ total: 0, note: expect.stringContaining('the project has 6') });

    const refused = async (args: Record<string, unknown>, code: string): Promise<string> => {
      const result = await client.callTool({ name: 'build_player', arguments: args });
      expect(result.isError, JSON.stringify(args)).toBe(true);
      expect((result._meta?.['tether/error'] as { code?: string } | undefined)?.code, textOf(result)).toBe(code);
      return textOf(result);
    };
    expect(await refused({ outputPath: '.' }, 'INVALID_ARGUMENTS')).toContain('the project folder itself');
    expect(await refused({ outputPath: 'Library/Out' }, 'INVALID_ARGUMENTS')).toContain('Library/');
    expect(await refused({ scenes: ['Assets/Scenes/SampleScen.unity'] }, 'NOT_FOUND')).toContain('Did you mean "Assets/Scenes/SampleScene.unity"');
    expect(await refused({ scenes: ['Assets/Scenes/SampleScene'] }, 'INVALID_ARGUMENTS')).toContain('.unity');
    expect(await refused({ options: ['Turbo'] }, 'INVALID_ARGUMENTS')).toContain('options');
    expect(await refused({ target: 'PS5' }, 'INVALID_ARGUMENTS')).toContain('target');

    // No target: the active build target, which a build needs no module for (Unity's default on each platform).
    const { buildTarget } = (await client.callTool({ name: 'get_editor_state', arguments: {} })).structuredContent as { buildTarget: string };
    const byDefault = await client.callTool({ name: 'build_player', arguments: {} }, { onprogress: () => undefined });
    expect(byDefault.structuredContent, textOf(byDefault)).toMatchObject({ target: buildTarget, outputPath: `Builds/${buildTarget}` });
    expect(['win32', 'darwin', 'linux', 'freebsd'].map((platform) => activeBuildTarget(platform as NodeJS.Platform))).toEqual([
      'StandaloneWindows64',
      'StandaloneOSX',
      'StandaloneLinux64',
      'StandaloneLinux64',
    ]);

    const outside = join(dirname(workspace.project), 'player-out');
    const elsewhere = await client.callTool({ name: 'build_player', arguments: { target: 'WebGL', outputPath: outside, allowOutsideProject: true } }, { onprogress: () => undefined });
    expect(elsewhere.isError, textOf(elsewhere)).toBeFalsy();
    expect(elsewhere.structuredContent).toMatchObject({ outputPath: outside, location: outside });
    expect(existsSync(join(outside, 'player.txt'))).toBe(true);

    // Unity builds no player while the scripts do not compile.
    writeFileSync(join(workspace.project, 'Assets', 'Broken.cs'), 'class Broken {\n');
    const failed = await refused({}, 'TOOL_FAILED');
    expect(failed).toContain('Assets/Broken.cs(1,15): error CS1513: } expected');
    expect(buildLog(workspace).map((b) => b.status)).toEqual(['succeeded', 'succeeded', 'succeeded', 'failed']);
  });
});

/** The Unity package's refusals while EditorUtility.scriptCompilationFailed (PlayModeTool, RunTestsTool), word for word. */
const PLAY_REFUSED = 'Unity cannot enter play mode while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.';
const TESTS_REFUSED = 'Unity cannot run tests while scripts have compile errors. Fix them (read_console lists them), run compile_scripts, then try again.';

describe('play_mode and run_tests while the scripts do not compile', () => {
  // A sandbox of their own: they leave the project's scripts broken for a while.
  const { workspace: broken, mcp } = sharedSandbox();

  /** The failure's code, data and text; the call must fail. */
  const failure = async (client: Client, name: string, args: Record<string, unknown>): Promise<{ code?: string; data?: unknown; text: string }> => {
    const result = await client.callTool({ name, arguments: args });
    expect(result.isError, `${name}: ${textOf(result)}`).toBe(true);
    const error = result._meta?.['tether/error'] as { code?: string; data?: unknown } | undefined;
    return { code: error?.code, data: error?.data, text: textOf(result) };
  };

  it('refuse as Unity does, with its message and data and the errors, until a compile succeeds; a run left nothing behind', async () => {
    const error = 'Assets/Scripts/Mover.cs(3,18): error CS1002: ; expected';
    // As the review reproduced it: a create_script that leaves a compile error (it fails, the file stays).
    expect(await mcp.fails('create_script', { path: 'Assets/Scripts/Mover.cs', contents: 'public class Mover\n{\n    int speed = 5\n}\n' }, 'TOOL_FAILED')).toContain(error);

    const play = await failure(mcp.client, 'play_mode', { action: 'enter' });
    expect(play).toMatchObject({ code: 'TOOL_FAILED', data: { tool: 'play_mode', action: 'enter' } });
    expect(play.text).toBe(`${PLAY_REFUSED}\n${error} [TOOL_FAILED]`);
    expect(await mcp.ok('play_mode', { action: 'exit' })).toEqual({ playing: false, changed: false });

    for (const mode of ['EditMode', 'PlayMode']) {
      const tests = await failure(mcp.client, 'run_tests', { mode });
      expect(tests, mode).toMatchObject({ code: 'TOOL_FAILED', data: { tool: 'run_tests' } });
      expect(tests.text, mode).toBe(`${TESTS_REFUSED}\n${error} [TOOL_FAILED]`);
    }
    // A bad pattern is still refused first, as RunTestsTool checks it before anything else.
    expect(await mcp.fails('run_tests', { groupNames: ['(unclosed'] }, 'INVALID_ARGUMENTS')).toContain('groupNames.0');
    expect(existsSync(join(broken.project, 'Library', 'TestResults', 'latest.json'))).toBe(false);

    // Fixed and compiled: both go ahead.
    await mcp.ok('edit_script', { path: 'Assets/Scripts/Mover.cs', oldText: '5\n', newText: '5;\n' });
    expect(await mcp.ok<Summary>('run_tests')).toMatchObject({ mode: 'EditMode', total: 6, passed: 6 });
    expect(await mcp.ok('play_mode', { action: 'enter' })).toMatchObject({ playing: true, changed: true });

    // Already playing, play_mode answers so before it looks at the scripts, as PlayModeTool does.
    await mcp.fails('edit_script', { path: 'Assets/Scripts/Mover.cs', oldText: '5;\n', newText: '5\n' }, 'TOOL_FAILED');
    expect(await mcp.ok('play_mode', { action: 'enter' })).toEqual({ playing: true, changed: false });
    expect(await mcp.ok('play_mode', { action: 'exit' })).toEqual({ playing: false, changed: true });
  });

  it("counts a script written behind the editor's back at once, as build_player does", async () => {
    // The sandbox has no refresh of its own: the files on disk are what build_player builds and these check.
    writeFileSync(join(broken.project, 'Assets', 'Scripts', 'Mover.cs'), 'public class Mover { }\n');
    expect(await mcp.ok('play_mode', { action: 'enter' })).toMatchObject({ playing: true, changed: true });
    expect(await mcp.ok('play_mode', { action: 'exit' })).toMatchObject({ playing: false, changed: true });
    writeFileSync(join(broken.project, 'Assets', 'Broken.cs'), 'class Broken {\n');
    const play = await failure(mcp.client, 'play_mode', { action: 'enter' });
    expect(play.text).toBe(`${PLAY_REFUSED}\nAssets/Broken.cs(1,15): error CS1513: } expected [TOOL_FAILED]`);
    expect((await failure(mcp.client, 'build_player', {})).text).toContain('Assets/Broken.cs(1,15): error CS1513: } expected');
  });

  it("leaves Edit/Play in edit mode, Unity's words in the console, answering as the Unity package does (the item ran)", async () => {
    writeFileSync(join(broken.project, 'Assets', 'Broken.cs'), 'class Broken {\n');
    await mcp.ok('clear_console');
    // EditorApplication.ExecuteMenuItem returns true: Unity ran the item, which did not enter play mode.
    expect(await mcp.ok('execute_menu_item', { menuPath: 'Edit/Play' })).toEqual({ menuPath: 'Edit/Play', result: { executed: true } });
    expect(await mcp.ok('get_editor_state')).toMatchObject({ playing: false });
    const errors = await mcp.ok<{ entries: Array<{ message: string }> }>('read_console', { types: ['error'] });
    expect(errors.entries.map((e) => e.message)).toEqual(['All compiler errors have to be fixed before you can enter playmode!']);

    // Fixed, the item enters play mode; broken again, it still exits it.
    rmSync(join(broken.project, 'Assets', 'Broken.cs'));
    expect(await mcp.ok('execute_menu_item', { menuPath: 'Edit/Play' })).toMatchObject({ menuPath: 'Edit/Play', result: { playing: true, changed: true } });
    writeFileSync(join(broken.project, 'Assets', 'Broken.cs'), 'class Broken {\n');
    expect(await mcp.ok('execute_menu_item', { menuPath: 'Edit/Play' })).toMatchObject({ menuPath: 'Edit/Play', result: { playing: false, changed: true } });
  });
});

/** ProjectSettings/EditorBuildSettings.json, the sandbox's Build Settings. */
function writeBuildSettings(project: string, scenes: Array<{ path: string; enabled: boolean }>): void {
  writeFileSync(join(project, 'ProjectSettings', 'EditorBuildSettings.json'), JSON.stringify({ scenes }));
}

describe("build_player's scenes when it is given none", () => {
  const { workspace, mcp } = sharedSandbox({ args: ['--build-seconds', '0.2'] });
  const SAMPLE = 'Assets/Scenes/SampleScene.unity';
  const LEVEL = 'Assets/Scenes/Level2.unity';

  it("are the Build Settings' enabled scenes, as in Unity; with none, Unity builds the open scene and the summary says scenes: []", async () => {
    // A second scene, which the sample's Build Settings do not list (only SampleScene, as a new Unity project's).
    await mcp.ok('create_scene', { path: LEVEL, additive: true, setActive: false });
    expect((await mcp.ok<Build>('build_player')).scenes).toEqual([SAMPLE]);

    writeBuildSettings(workspace.project, [
      { path: SAMPLE, enabled: false },
      { path: LEVEL, enabled: true },
    ]);
    expect((await mcp.ok<Build>('build_player')).scenes).toEqual([LEVEL]);

    writeBuildSettings(workspace.project, [{ path: SAMPLE, enabled: false }]);
    const open = await mcp.ok<Build>('build_player');
    expect(open.scenes).toEqual([]);
    expect(readFileSync(join(workspace.project, open.location), 'utf8')).toContain(`(${SAMPLE})`);
    rmSync(join(workspace.project, 'ProjectSettings', 'EditorBuildSettings.json'));
    expect((await mcp.ok<Build>('build_player')).scenes).toEqual([]);

    // Scenes given are built as given, listed or not.
    expect((await mcp.ok<Build>('build_player', { scenes: [LEVEL, SAMPLE] })).scenes).toEqual([LEVEL, SAMPLE]);
    expect((buildLog(workspace) as Array<{ scenes?: string[] }>).map((b) => b.scenes)).toEqual([[SAMPLE], [LEVEL], [], [], [LEVEL, SAMPLE]]);
  });
});
