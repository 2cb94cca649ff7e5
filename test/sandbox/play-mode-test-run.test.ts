/**
 * run_tests in PlayMode, as the Unity package runs it (RunTestsTool), and what it refuses before
 * a run (TestRunRules): Unity's Test Runner first saves the loaded scenes, asking in a modal
 * dialog when one has unsaved changes (which would hold the editor), and cannot do that in play
 * mode. So a run is refused in play mode, and past unsaved scenes unless the caller says to save
 * them. Entering play mode
 * reloads the code domain, which the call cannot outlive: it answers as the run starts
 * (finished: false, Unity's note), the run goes on in the editor's next domain, writes
 * Library/TestResults/latest.json and leaves play mode; a new run waits for it. A restarted
 * editor does not go on with it, as Unity does not. With domain reload turned off in the
 * project's Enter Play Mode Options, play mode is entered in place and the call answers with
 * the results, progress and all.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { SAMPLE_SCENE, TetherProcess, cleanupProcesses, savedSceneText, startSandbox } from '../helpers/processes.js';
import { callOk } from '../helpers/tool-call.js';
import { startToolSandbox, type ToolSession } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const RESULTS = 'Library/TestResults/latest.json';
/** The Unity package's RunTestsTool note, word for word. */
const NOTE = `PlayMode tests enter play mode, which reloads the code domain: this call ends as the run starts. Read ${RESULTS} once the editor is back in edit mode (host state "ready"), or turn domain reload off in Enter Play Mode Options to be answered with the results.`;
const STILL_RUNNING = 'A test run started by Tether is still going. Wait for it, then run tests again. [TOOL_FAILED]';
/** The Unity package's TestRunRules refusals, word for word. */
const PLAY_MODE_REFUSED =
  'Unity cannot run tests in play mode: the Test Runner first saves the open scenes, which play mode does not allow. Exit play mode (play_mode "exit"), then run the tests again. [TOOL_FAILED]';
const UNSAVED_REFUSED =
  'Invalid arguments for run_tests: unsavedChanges: unsaved changes in "Assets/Scenes/SampleScene.unity": Unity\'s Test Runner would first ask in a dialog whether to save them, holding the editor until someone answers. Save them (save_scene), or call again with unsavedChanges "save". [INVALID_ARGUMENTS]';

/** The sample project's PlayMode tests, as a finished run reports them. */
const PLAY_MODE_RESULTS = {
  mode: 'PlayMode',
  finished: true,
  total: 3,
  passed: 1,
  failed: 1,
  skipped: 1,
  results: [
    { name: 'Physics.CrateFallsOntoGround', outcome: 'passed' },
    {
      name: 'Physics.PlayerStopsAtWall',
      outcome: 'failed',
      message: 'Expected: less than 4.5f\n  But was:  5.2f',
      stackTrace: 'at Game.PlayTests.Physics.PlayerStopsAtWall () [0x0002a] in Assets/Tests/PlayMode/PhysicsTests.cs:41',
    },
    { name: 'Audio.PlaysFootsteps', outcome: 'skipped', message: 'Ignored: no audio device on the build machine' },
  ],
};

function latestResults(project: string): Record<string, unknown> | undefined {
  const path = join(project, RESULTS);
  return existsSync(path) ? (JSON.parse(readFileSync(path, 'utf8')) as Record<string, unknown>) : undefined;
}

const playing = async (mcp: ToolSession): Promise<boolean> => (await mcp.ok<{ playing: boolean }>('get_editor_state')).playing;

describe('run_tests in PlayMode', () => {
  it('answers as the run starts when entering play mode reloads the domain; the run goes on in the next domain, then leaves play mode', async () => {
    // Each test two seconds: the run outlasts the answer, which comes once the reload is over.
    const { workspace, mcp } = await startToolSandbox({ args: ['--test-ms', '2000'] });
    // An earlier run's results, which must not pass for this run's.
    await mcp.ok('run_tests', { testNames: ['Player.MovesForward'] });
    expect(latestResults(workspace.project)?.mode).toBe('EditMode');
    expect(await mcp.ok('run_tests', { mode: 'PlayMode' })).toEqual({
      mode: 'PlayMode',
      finished: false,
      total: 0,
      passed: 0,
      failed: 0,
      skipped: 0,
      inconclusive: 0,
      durationMs: 0,
      results: [],
      resultsPath: RESULTS,
      domainReload: true,
      note: NOTE,
    });
    // The run goes on in play mode, and a new one waits for it; the last run's results are gone.
    expect(latestResults(workspace.project)).toBeUndefined();
    expect(await playing(mcp)).toBe(true);
    expect(await mcp.fails('run_tests', {}, 'TOOL_FAILED')).toBe(STILL_RUNNING);

    await expect.poll(() => latestResults(workspace.project)?.mode, { timeout: 15_000 }).toBe('PlayMode');
    expect(latestResults(workspace.project)).toMatchObject(PLAY_MODE_RESULTS);
    await expect.poll(() => playing(mcp), { timeout: 5_000 }).toBe(false);
    const console = await mcp.ok<{ entries: Array<{ message: string }> }>('read_console');
    expect(console.entries.map((e) => e.message)).toEqual(
      expect.arrayContaining(['Entering play mode', 'Test failed: Physics.PlayerStopsAtWall: Expected: less than 4.5f\n  But was:  5.2f', 'Exited play mode']),
    );
    // Done, a new run goes ahead.
    expect(await mcp.ok('run_tests', { testNames: ['Player.MovesForward'] })).toMatchObject({ mode: 'EditMode', finished: true, passed: 1 });
  });

  it('goes on in the domain after another reload during the run (a compile), and still ends back in edit mode', async () => {
    const { workspace, mcp } = await startToolSandbox({ args: ['--test-ms', '1000'] });
    expect(await mcp.ok('run_tests', { mode: 'PlayMode' })).toMatchObject({ finished: false });
    // A compile reloads the domain again while the run goes on: the next domain runs it again.
    expect(await mcp.ok('compile_scripts')).toMatchObject({ domainReload: true });
    await expect.poll(() => latestResults(workspace.project)?.mode, { timeout: 20_000 }).toBe('PlayMode');
    expect(latestResults(workspace.project)).toMatchObject(PLAY_MODE_RESULTS);
    await expect.poll(() => playing(mcp), { timeout: 5_000 }).toBe(false);
  });

  it('is not gone on with by a restarted editor, which starts in edit mode, as Unity does', async () => {
    const { workspace, sandbox } = await startToolSandbox({ args: ['--reload-ms', '10000', '--test-ms', '1000'], mcp: false });
    const interrupted = join(workspace.project, 'Library', 'Tether', 'test-run.json');
    // The call waits out the reload for its answer; the editor dies during it.
    new TetherProcess(['call', 'run_tests', '--project', workspace.project, '--args', '{"mode":"PlayMode"}'], workspace.env);
    await expect.poll(() => existsSync(interrupted), { timeout: 10_000 }).toBe(true);
    await sandbox.kill();

    await startSandbox(workspace, ['--test-ms', '1000']);
    await expect.poll(() => existsSync(interrupted), { timeout: 10_000 }).toBe(false);
    // A restarted Unity starts in edit mode, whatever the one before was in.
    expect(await callOk(workspace, 'get_editor_state')).toMatchObject({ playing: false });
    // Had the new editor gone on with the run (three seconds of it), this one would be refused.
    expect(await callOk(workspace, 'run_tests', { testNames: ['Player.MovesForward'] })).toMatchObject({ mode: 'EditMode', finished: true, passed: 1 });
    expect(latestResults(workspace.project)?.mode).toBe('EditMode');
  });

  it("enters play mode in place, and answers with the run's results and progress, when Enter Play Mode Options turn domain reload off", async () => {
    const { workspace, sandbox, mcp } = await startToolSandbox();
    writeFileSync(join(workspace.project, 'ProjectSettings', 'EditorSettings.json'), JSON.stringify({ enterPlayModeOptionsEnabled: true, enterPlayModeOptions: ['DisableDomainReload'] }));
    expect(await mcp.ok('play_mode', { action: 'enter' })).toEqual({ playing: true, changed: true, domainReload: false });
    expect(await mcp.ok('play_mode', { action: 'exit' })).toEqual({ playing: false, changed: true });

    const messages: string[] = [];
    const run = await mcp.client.callTool({ name: 'run_tests', arguments: { mode: 'PlayMode' } }, { onprogress: (p) => void messages.push(p.message ?? '') });
    expect(run.structuredContent).toMatchObject(PLAY_MODE_RESULTS);
    expect(messages).toEqual(expect.arrayContaining(['Running Physics.CrateFallsOntoGround', 'Running Physics.PlayerStopsAtWall']));
    expect(latestResults(workspace.project)).toMatchObject(PLAY_MODE_RESULTS);
    // One domain throughout: neither reloaded it (a reload starts before its call's answer).
    expect(sandbox.lines.filter((line) => line.includes('"event":"ready"'))).toHaveLength(1);
  });

  it('is refused in play mode, and past unsaved scenes unless told to save them, before anything runs', async () => {
    const { workspace, mcp } = await startToolSandbox({ args: ['--reload-ms', '50'] });
    await mcp.ok('play_mode', { action: 'enter' });
    for (const mode of ['EditMode', 'PlayMode']) expect(await mcp.fails('run_tests', { mode }, 'TOOL_FAILED'), mode).toBe(PLAY_MODE_REFUSED);
    await mcp.ok('play_mode', { action: 'exit' });

    await mcp.ok('create_gameobject', { name: 'Unsaved' });
    for (const mode of ['EditMode', 'PlayMode']) expect(await mcp.fails('run_tests', { mode }, 'INVALID_ARGUMENTS'), mode).toBe(UNSAVED_REFUSED);
    const refused = await mcp.client.callTool({ name: 'run_tests', arguments: {} });
    expect(refused._meta?.['tether/error']).toMatchObject({ data: { tool: 'run_tests', field: 'unsavedChanges', scenes: [SAMPLE_SCENE] } });
    expect(latestResults(workspace.project)).toBeUndefined();
    expect(savedSceneText(workspace)).not.toContain('Unsaved');

    // Told to save, it saves the scene first, then runs.
    expect(await mcp.ok('run_tests', { unsavedChanges: 'save' })).toMatchObject({ mode: 'EditMode', finished: true, total: 6 });
    expect(savedSceneText(workspace)).toContain('Unsaved');
    expect(await mcp.ok('get_active_scene')).toMatchObject({ active: { path: SAMPLE_SCENE, isDirty: false } });
  });
});
