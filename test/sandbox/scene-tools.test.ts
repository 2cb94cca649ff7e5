/**
 * The scene and undo tools of the sandbox editor, through `tether call` (exit codes, stdout,
 * stderr, files on disk) and through the MCP SDK client over `tether mcp` (structured results
 * checked against the output schemas, errors as isError): good input, each kind of bad input,
 * and undo/redo of every tool that edits.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { SceneInfo } from '../../src/sandbox/scenes.js';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { cleanupProcesses, createWorkspace, executedTools, sceneText, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const SAMPLE = 'Assets/Scenes/SampleScene.unity';

describe('scene tools through tether call', () => {
  it('lists, creates and opens (alone and additively) scenes, with Unity paths', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);

    const listed = await callOk<{ count: number; scenes: SceneInfo[] }>(workspace, 'list_scenes');
    expect(listed.scenes).toEqual([{ name: 'SampleScene', path: SAMPLE, isLoaded: true, isActive: true, isDirty: false, rootCount: 4 }]);

    const created = await callOk<{ created: SceneInfo; loaded: SceneInfo[] }>(workspace, 'create_scene', { path: 'Assets/Levels/Level2.unity' });
    expect(created.created).toMatchObject({ name: 'Level2', path: 'Assets/Levels/Level2.unity', isActive: true, rootCount: 2 });
    expect(created.loaded.map((s) => s.path)).toEqual(['Assets/Levels/Level2.unity']);
    expect(existsSync(join(workspace.project, 'Assets', 'Levels', 'Level2.json'))).toBe(true);
    expect((await callOk<{ scene: string }>(workspace, 'get_hierarchy')).scene).toBe('Level2');

    await callOk(workspace, 'create_scene', { path: 'Assets/Levels/Empty.unity', template: 'empty', additive: true, setActive: false });
    const active = await callOk<{ active: SceneInfo; loaded: SceneInfo[] }>(workspace, 'get_active_scene');
    expect(active.active.path).toBe('Assets/Levels/Level2.unity');
    expect(active.loaded.map((s) => [s.path, s.rootCount])).toEqual([
      ['Assets/Levels/Level2.unity', 2],
      ['Assets/Levels/Empty.unity', 0],
    ]);

    const opened = await callOk<{ opened: SceneInfo; loaded: SceneInfo[] }>(workspace, 'open_scene', { path: SAMPLE, additive: true });
    expect(opened.opened).toMatchObject({ path: SAMPLE, isActive: true });
    expect(opened.loaded).toHaveLength(3);
    const alone = await callOk<{ loaded: SceneInfo[] }>(workspace, 'open_scene', { path: 'Assets/Levels/Empty.unity' });
    expect(alone.loaded.map((s) => s.path)).toEqual(['Assets/Levels/Empty.unity']);
    const filtered = await callOk<{ scenes: SceneInfo[] }>(workspace, 'list_scenes', { filter: 'levels' });
    expect(filtered.scenes.map((s) => [s.path, s.isLoaded])).toEqual([
      ['Assets/Levels/Empty.unity', true],
      ['Assets/Levels/Level2.unity', false],
    ]);
  });

  it('saves a scene in place and under a new path it then takes', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    await callOk(workspace, 'create_gameobject', { name: 'Saved' });
    const savedAs = await callOk<{ saved: SceneInfo }>(workspace, 'save_scene', { saveAs: 'Assets/Scenes/Copy.unity' });
    expect(savedAs.saved).toMatchObject({ name: 'Copy', path: 'Assets/Scenes/Copy.unity', isActive: true });
    expect(readFileSync(join(workspace.project, 'Assets', 'Scenes', 'Copy.json'), 'utf8')).toContain('"Saved"');
    expect((await callOk<{ saved: SceneInfo }>(workspace, 'save_scene', { scene: 'Assets/Scenes/Copy.unity' })).saved.path).toBe('Assets/Scenes/Copy.unity');
  });

  it('refuses each kind of bad input, saying what to do, and changes nothing', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'open_scene', { path: 'Assets/Scenes/Sample.unity' }, 'NOT_FOUND')).resolves.toContain('Did you mean "Assets/Scenes/SampleScene.unity"'),
      expect(callFails(workspace, 'open_scene', { path: '../Other/Assets/A.unity' }, 'PATH_OUTSIDE_PROJECT')).resolves.toContain('inside the project'),
      expect(callFails(workspace, 'open_scene', { path: '/etc/passwd' }, 'PATH_OUTSIDE_PROJECT')).resolves.toBeTruthy(),
      expect(callFails(workspace, 'create_scene', { path: 'Assets/Scenes/Level' }, 'INVALID_ARGUMENTS')).resolves.toContain('"Assets/Scenes/Level.unity"'),
      expect(callFails(workspace, 'create_scene', { path: 'Library/Level.unity' }, 'INVALID_ARGUMENTS')).resolves.toContain('under Assets/'),
      expect(callFails(workspace, 'create_scene', { path: SAMPLE }, 'INVALID_ARGUMENTS')).resolves.toContain('open_scene'),
      expect(callFails(workspace, 'create_scene', { path: 'Assets/A.unity', template: 'fancy' }, 'INVALID_ARGUMENTS')).resolves.toContain('template'),
      expect(callFails(workspace, 'open_scene', { path: SAMPLE, unsavedChanges: 'maybe' }, 'INVALID_ARGUMENTS')).resolves.toContain('unsavedChanges'),
      expect(callFails(workspace, 'open_scene', {}, 'INVALID_ARGUMENTS')).resolves.toContain('path'),
      expect(callFails(workspace, 'save_scene', { scene: 'Assets/Scenes/Other.unity' }, 'NOT_FOUND')).resolves.toContain('open_scene'),
      expect(callFails(workspace, 'list_scenes', { filter: 3 }, 'INVALID_ARGUMENTS')).resolves.toContain('filter'),
    ]);
    await callOk(workspace, 'create_scene', { path: 'Assets/Scenes/Taken.unity', additive: true, setActive: false });
    expect(await callFails(workspace, 'save_scene', { saveAs: 'Assets/Scenes/Taken.unity' }, 'INVALID_ARGUMENTS')).toContain('never overwrites');
    const setup = await callOk<{ active: SceneInfo; loaded: SceneInfo[] }>(workspace, 'get_active_scene');
    expect(setup.active.path).toBe(SAMPLE);
    expect(setup.loaded.map((s) => s.path)).toEqual([SAMPLE, 'Assets/Scenes/Taken.unity']);
  });

  it('keeps the loaded scenes across a domain reload', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace);
    await callOk(workspace, 'create_scene', { path: 'Assets/Scenes/Kept.unity' });
    await callOk(workspace, 'compile_scripts');
    await sandbox.ready(2);
    expect((await callOk<{ active: SceneInfo }>(workspace, 'get_active_scene')).active.path).toBe('Assets/Scenes/Kept.unity');
  });
});

describe('undo and redo through tether call', () => {
  it('undoes and redoes each edit of create_gameobject, modify_gameobject and delete_gameobject as one step', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const original = sceneText(workspace);

    await callOk(workspace, 'create_gameobject', { name: 'Enemy', components: ['Rigidbody'] });
    await callOk(workspace, 'modify_gameobject', { path: '/Enemy', position: [1, 2, 3], addComponents: ['SphereCollider'] });
    await callOk(workspace, 'delete_gameobject', { path: '/Environment' });
    expect(sceneText(workspace)).not.toContain('"Ground"');

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Delete Environment'] });
    expect(sceneText(workspace)).toContain('"Ground"');
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Modify Enemy'] });
    expect(sceneText(workspace)).not.toContain('SphereCollider');
    expect(await callOk(workspace, 'undo', { steps: 5 })).toEqual({ performed: 1, names: ['Create Enemy'] });
    expect(JSON.parse(sceneText(workspace))).toEqual(JSON.parse(original));
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 0, names: [] });

    expect(await callOk(workspace, 'redo', { steps: 2 })).toEqual({ performed: 2, names: ['Create Enemy', 'Modify Enemy'] });
    expect(sceneText(workspace)).toContain('SphereCollider');
    expect(sceneText(workspace)).toContain('"Ground"');
  });

  it("clears what could be redone on a new edit, and undoes a menu item's edit", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    await callOk(workspace, 'create_gameobject', { name: 'Enemy' });
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Create Enemy'] });
    await callOk(workspace, 'execute_menu_item', { menuPath: 'GameObject/Create Empty' });
    expect(await callOk(workspace, 'redo')).toEqual({ performed: 0, names: [] });
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Create GameObject'] });
  });

  it('records nothing for a refused edit, refuses bad steps, and keeps the history across a domain reload', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace);
    // Refusals change nothing, so they run side by side.
    await Promise.all([
      callFails(workspace, 'modify_gameobject', { path: '/Player', removeComponents: ['Transform'] }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'delete_gameobject', { path: '/Nobody' }, 'NOT_FOUND'),
      expect(callFails(workspace, 'undo', { steps: 0 }, 'INVALID_ARGUMENTS')).resolves.toContain('steps'),
      expect(callFails(workspace, 'redo', { steps: 101 }, 'INVALID_ARGUMENTS')).resolves.toContain('steps'),
      expect(callFails(workspace, 'undo', { step: 1 }, 'INVALID_ARGUMENTS')).resolves.toContain('steps'),
    ]);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 0, names: [] });

    await callOk(workspace, 'create_gameobject', { name: 'Survivor' });
    await callOk(workspace, 'compile_scripts');
    await sandbox.ready(2);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Create Survivor'] });
    expect(sceneText(workspace)).not.toContain('Survivor');
    expect(executedTools(workspace).filter((t) => t === 'undo')).toHaveLength(2);
  });

  it('starts a restarted editor with an empty history, as Unity does', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace);
    await callOk(workspace, 'create_gameobject', { name: 'Before restart' });
    await sandbox.stop();
    await startSandbox(workspace);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 0, names: [] });
    expect(sceneText(workspace)).toContain('Before restart');
  });
});

describe('scene and undo tools through an MCP client', () => {
  it('lists them with output schemas and answers with structured content, errors as isError', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    for (const name of ['list_scenes', 'get_active_scene', 'open_scene', 'create_scene', 'save_scene', 'undo', 'redo']) {
      const tool = tools.find((t) => t.name === name);
      expect(tool?.outputSchema, name).toBeDefined();
    }
    expect(tools.find((t) => t.name === 'list_scenes')?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === 'undo')?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });

    const structured = async <T>(name: string, args: Record<string, unknown> = {}): Promise<T> => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    };
    expect((await structured<{ scenes: SceneInfo[] }>('list_scenes')).scenes[0]?.path).toBe(SAMPLE);
    expect((await structured<{ created: SceneInfo }>('create_scene', { path: 'Assets/Scenes/Mcp.unity', template: 'empty' })).created.rootCount).toBe(0);
    await structured('create_gameobject', { name: 'Thing' });
    expect((await structured<{ active: SceneInfo }>('get_active_scene')).active).toMatchObject({ path: 'Assets/Scenes/Mcp.unity', rootCount: 1 });
    expect(await structured('undo')).toEqual({ performed: 1, names: ['Create Thing'] });
    expect((await structured<{ active: SceneInfo }>('get_active_scene')).active.rootCount).toBe(0);
    expect(await structured('redo')).toEqual({ performed: 1, names: ['Create Thing'] });
    expect((await structured<{ saved: SceneInfo }>('save_scene')).saved.path).toBe('Assets/Scenes/Mcp.unity');
    expect((await structured<{ opened: SceneInfo }>('open_scene', { path: SAMPLE })).opened.rootCount).toBe(4);

    const missing = await client.callTool({ name: 'open_scene', arguments: { path: 'Assets/Scenes/Mpc.unity' } });
    expect(missing.isError).toBe(true);
    expect(textOf(missing)).toContain('Did you mean "Assets/Scenes/Mcp.unity"');
    const outside = await client.callTool({ name: 'create_scene', arguments: { path: '../../Evil.unity' } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain('outside the project');
    const badSteps = await client.callTool({ name: 'redo', arguments: { steps: 'two' } });
    expect(badSteps.isError).toBe(true);
  });
});
