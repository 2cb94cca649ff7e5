/**
 * Unsaved scene changes, as Unity has them: an edit leaves its scene dirty until save_scene, and
 * only a save writes the scene asset; open_scene and create_scene refuse to close a scene with
 * unsaved changes unless told to save or discard them (the Unity package's ScenePaths.UnsavedToHandle,
 * word for word); the changes outlive a domain reload and a crash of the editor (Unity keeps its
 * scenes across reloads and recovers its scene backup); build_player builds the scenes as saved.
 * Through a real sandbox, over MCP and `tether call`.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInfo } from '../../src/sandbox/scenes.js';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { SAMPLE_SCENE, cleanupProcesses, savedSceneText, sceneText, startSandbox, type Workspace } from '../helpers/processes.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { startToolSandbox, toolSession, type ToolSession } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const SECOND = 'Assets/Scenes/Second.unity';

/** The Unity package's refusal (ScenePaths.UnsavedToHandle) for these scenes, word for word. */
function refusal(tool: string, scenes: string[]): string {
  return `Invalid arguments for ${tool}: unsavedChanges: unsaved changes in ${scenes.map((s) => `"${s}"`).join(', ')} would be lost. Save them first (save_scene), or call again with unsavedChanges "save" or "discard".`;
}

async function loaded(mcp: ToolSession): Promise<Array<[string, boolean]>> {
  return (await mcp.ok<{ loaded: SceneInfo[] }>('get_active_scene')).loaded.map((s) => [s.path, s.isDirty]);
}

async function rootNames(mcp: ToolSession): Promise<string[]> {
  return (await mcp.ok<{ objects: Array<{ name: string }> }>('get_hierarchy', { depth: 1 })).objects.map((o) => o.name);
}

function workingCopy(workspace: Workspace, scene = SAMPLE_SCENE): string {
  return join(workspace.project, 'Library', 'Tether', 'scenes', `${scene}.json`);
}

describe('unsaved scene changes', () => {
  it('leave the scene dirty until save_scene, which alone writes the asset; an undo leaves it dirty too', async () => {
    const { workspace, mcp } = await startToolSandbox();
    expect((await mcp.ok<{ active: SceneInfo }>('get_active_scene')).active.isDirty).toBe(false);
    const saved = savedSceneText(workspace);

    await mcp.ok('create_gameobject', { name: 'Unsaved' });
    expect((await mcp.ok<{ active: SceneInfo }>('get_active_scene')).active).toMatchObject({ path: SAMPLE_SCENE, isDirty: true });
    expect((await mcp.ok<{ scenes: SceneInfo[] }>('list_scenes')).scenes.find((s) => s.path === SAMPLE_SCENE)?.isDirty).toBe(true);
    expect(savedSceneText(workspace)).toBe(saved);
    expect(sceneText(workspace)).toContain('"Unsaved"');

    // Unity keeps a scene dirty when an undo takes it back to what was saved.
    await mcp.ok('undo');
    expect((await mcp.ok<{ active: SceneInfo }>('get_active_scene')).active.isDirty).toBe(true);
    await mcp.ok('redo');

    const result = await mcp.ok<{ saved: SceneInfo }>('save_scene');
    expect(result.saved).toMatchObject({ path: SAMPLE_SCENE, isDirty: false });
    expect((await mcp.ok<{ active: SceneInfo }>('get_active_scene')).active.isDirty).toBe(false);
    expect(savedSceneText(workspace)).toContain('"Unsaved"');
    expect(existsSync(workingCopy(workspace))).toBe(false);
  });

  it('make open_scene and create_scene alone refuse by default with Unity\'s message, changing nothing; "save" and "discard" do what they say', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_scene', { path: SECOND, template: 'empty', additive: true, setActive: false });
    await mcp.ok('create_gameobject', { name: 'Pending' });
    expect(await loaded(mcp)).toEqual([
      [SAMPLE_SCENE, true],
      [SECOND, false],
    ]);

    expect(await mcp.fails('open_scene', { path: SECOND }, 'INVALID_ARGUMENTS')).toContain(refusal('open_scene', [SAMPLE_SCENE]));
    // Opening the dirty scene itself alone would reload it from its asset: refused as well.
    expect(await mcp.fails('open_scene', { path: SAMPLE_SCENE, unsavedChanges: 'refuse' }, 'INVALID_ARGUMENTS')).toContain(refusal('open_scene', [SAMPLE_SCENE]));
    expect(await mcp.fails('create_scene', { path: 'Assets/Scenes/Third.unity' }, 'INVALID_ARGUMENTS')).toContain(refusal('create_scene', [SAMPLE_SCENE]));
    expect(existsSync(join(workspace.project, 'Assets', 'Scenes', 'Third.json'))).toBe(false);
    expect(await loaded(mcp)).toEqual([
      [SAMPLE_SCENE, true],
      [SECOND, false],
    ]);
    // Additively, nothing closes: nothing to refuse.
    await mcp.ok('open_scene', { path: SECOND, additive: true });

    const discarded = await mcp.ok<{ opened: SceneInfo; loaded: SceneInfo[] }>('open_scene', { path: SECOND, unsavedChanges: 'discard' });
    expect(discarded.loaded.map((s) => s.path)).toEqual([SECOND]);
    expect(savedSceneText(workspace)).not.toContain('"Pending"');
    expect(existsSync(workingCopy(workspace))).toBe(false);
    await mcp.ok('open_scene', { path: SAMPLE_SCENE });
    expect(await rootNames(mcp)).not.toContain('Pending');

    await mcp.ok('create_gameobject', { name: 'Kept' });
    const saved = await mcp.ok<{ opened: SceneInfo }>('open_scene', { path: SECOND, unsavedChanges: 'save' });
    expect(saved.opened).toMatchObject({ path: SECOND, isDirty: false });
    expect(savedSceneText(workspace)).toContain('"Kept"');

    await mcp.ok('create_gameobject', { name: 'InSecond' });
    const created = await mcp.ok<{ loaded: SceneInfo[] }>('create_scene', { path: 'Assets/Scenes/Third.unity', unsavedChanges: 'save' });
    expect(created.loaded.map((s) => [s.path, s.isDirty])).toEqual([['Assets/Scenes/Third.unity', false]]);
    expect(savedSceneText(workspace, SECOND)).toContain('"InSecond"');
  });

  it('outlive a domain reload and a crash of the editor, still unsaved, until saved', async () => {
    const { workspace, sandbox, mcp } = await startToolSandbox();
    await mcp.ok('create_gameobject', { name: 'Survivor' });
    await mcp.ok('compile_scripts');
    await sandbox.ready(2);
    expect(await loaded(mcp)).toEqual([[SAMPLE_SCENE, true]]);
    expect(await rootNames(mcp)).toContain('Survivor');
    expect(savedSceneText(workspace)).not.toContain('"Survivor"');

    await sandbox.kill();
    await closeMcpSessions();
    await startSandbox(workspace);
    const after = await toolSession(workspace);
    expect(await loaded(after)).toEqual([[SAMPLE_SCENE, true]]);
    expect(await rootNames(after)).toContain('Survivor');
    expect(savedSceneText(workspace)).not.toContain('"Survivor"');
    expect(await after.fails('open_scene', { path: SAMPLE_SCENE }, 'INVALID_ARGUMENTS')).toContain(refusal('open_scene', [SAMPLE_SCENE]));

    await after.ok('save_scene');
    expect(savedSceneText(workspace)).toContain('"Survivor"');
    expect(await loaded(after)).toEqual([[SAMPLE_SCENE, false]]);
  });

  it('stay out of a player build until saved: build_player builds the scene files on disk', async () => {
    const { workspace } = await startToolSandbox({ args: ['--build-seconds', '0.2'], mcp: false });
    await callOk(workspace, 'create_gameobject', { name: 'NotYetSaved' });
    const first = await callOk<{ location: string; scenes: string[] }>(workspace, 'build_player');
    expect(first.scenes).toEqual([SAMPLE_SCENE]);
    const player = (): string => readFileSync(join(workspace.project, first.location), 'utf8');
    expect(player()).toContain('  /Player\n');
    expect(player()).not.toContain('NotYetSaved');

    await callOk(workspace, 'save_scene');
    await callOk(workspace, 'build_player');
    expect(player()).toContain('  /NotYetSaved\n');
  });

  it('are not made by a prefab saved in prefab mode: its instances follow, in the loaded scene and in its asset', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_prefab', { path: '/Environment', assetPath: 'Assets/Env.prefab' });
    expect(await loaded(mcp)).toEqual([[SAMPLE_SCENE, true]]);
    await mcp.ok('save_scene');
    await mcp.ok('open_prefab', { assetPath: 'Assets/Env.prefab' });
    await mcp.ok('create_gameobject', { name: 'Lamp', parent: '/Env' });
    await mcp.ok('close_prefab', { save: true });
    // Unity's scene keeps only the instance's overrides, so a changed prefab is no unsaved change of it.
    expect(await loaded(mcp)).toEqual([[SAMPLE_SCENE, false]]);
    expect((await mcp.ok<{ count: number }>('find_gameobjects', { path: '/Environment/Lamp' })).count).toBe(1);
    expect(savedSceneText(workspace)).toContain('"Lamp"');
    expect(existsSync(workingCopy(workspace))).toBe(false);
  });

  it('stay unsaved when the scene asset is renamed, and go with it', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_gameobject', { name: 'Moving' });
    await mcp.ok('rename_asset', { path: SAMPLE_SCENE, newName: 'Renamed' });
    const renamed = 'Assets/Scenes/Renamed.unity';
    expect(await loaded(mcp)).toEqual([[renamed, true]]);
    expect(savedSceneText(workspace, renamed)).not.toContain('"Moving"');
    expect(sceneText(workspace, renamed)).toContain('"Moving"');
    expect(existsSync(workingCopy(workspace))).toBe(false);
    expect(await mcp.fails('open_scene', { path: renamed }, 'INVALID_ARGUMENTS')).toContain(refusal('open_scene', [renamed]));
    await mcp.ok('save_scene');
    expect(savedSceneText(workspace, renamed)).toContain('"Moving"');
  });
});

describe('unsaved scene changes through tether call', () => {
  it("refuse open_scene with INVALID_ARGUMENTS and Unity's message, and save it when asked", async () => {
    const workspace = (await startToolSandbox({ mcp: false })).workspace;
    await callOk(workspace, 'create_scene', { path: SECOND, template: 'empty', additive: true, setActive: false });
    await callOk(workspace, 'create_gameobject', { name: 'ViaCall' });
    expect(await callFails(workspace, 'open_scene', { path: SECOND }, 'INVALID_ARGUMENTS')).toContain(refusal('open_scene', [SAMPLE_SCENE]));
    await callOk(workspace, 'open_scene', { path: SECOND, unsavedChanges: 'save' });
    expect(savedSceneText(workspace)).toContain('"ViaCall"');
  });
});
