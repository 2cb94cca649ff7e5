/**
 * What play mode means for the scene tools, in process against the sandbox's own tools (src/),
 * as the Unity package does it (PlayModeRules, PlayModeEdits): the scene-file tools are refused
 * while playing, and every edit of a scene still happens but says that it lasts only until play
 * mode exits; edits of assets and of the prefab open in prefab mode do not say so.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/index.js';
import { ConsoleLog } from '../../src/sandbox/console-log.js';
import { openEditorScenes } from '../../src/sandbox/editor-scenes.js';
import { Project } from '../../src/sandbox/project.js';
import { editorToolSet } from '../../src/sandbox/tools/editor-tool-set.js';
import { noteEdit } from '../../src/sandbox/tools/play-mode-tool.js';
import type { MainThreadContext } from '../../src/sandbox/tools/tool.js';
import { UndoHistory } from '../../src/sandbox/undo.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';

/** The Unity package's PlayModeRules.EditLostNote, word for word. */
const LOST =
  'The editor is in play mode: this change lasts only until play mode exits, when Unity puts the scene back as it was. To keep it, exit play mode (play_mode with action "exit") and make it again.';

afterEach(cleanupProcesses);

type Result = Record<string, unknown> & { note?: string };

/** The sandbox editor's main thread over a copy of the sample project, with play mode a flag the test sets. */
function editor(): { context: MainThreadContext; project: string; run(name: string, args?: Record<string, unknown>): Promise<Result> } {
  const { project: root } = createWorkspace();
  const project = new Project(root);
  const scenes = openEditorScenes(project);
  const context = {
    callId: 'play-mode-test',
    project,
    get scene() {
      return scenes.stage ?? scenes.active;
    },
    scenes,
    undo: new UndoHistory(scenes.undoTarget),
    console: new ConsoleLog(project),
    builtInNames: new Set(editorToolSet.map((tool) => tool.name)),
    cancelled: () => false,
    progress: () => undefined,
    playing: false,
  } as unknown as MainThreadContext;
  return {
    context,
    project: root,
    run: async (name, args = {}) => {
      const tool = editorToolSet.find((t) => t.name === name);
      if (!tool) throw new Error(`no tool ${name}`);
      return (await tool.run(tool.input.parse(args), context)) as Result;
    },
  };
}

function refusal(run: () => Promise<unknown>): Promise<TetherError> {
  return run().then(
    () => {
      throw new Error('the call was not refused');
    },
    (error: unknown) => error as TetherError,
  );
}

describe('the scene-file tools in play mode', () => {
  it('are refused up front, as build_player is, naming the tool and saying to exit play mode', async () => {
    const { context, project, run } = editor();
    context.playing = true;
    for (const [tool, verb, args] of [
      ['open_scene', 'open', { path: 'Assets/Scenes/SampleScene.unity' }],
      ['create_scene', 'create', { path: 'Assets/Levels/Level2.unity' }],
      ['save_scene', 'save', {}],
    ] as const) {
      const error = await refusal(() => run(tool, args));
      expect(error, tool).toBeInstanceOf(TetherError);
      expect(error.code, tool).toBe('TOOL_FAILED');
      expect(error.message).toBe(`Unity cannot ${verb} a scene in play mode. Exit play mode (play_mode with action "exit"), then ${verb} it.`);
      expect(error.data).toEqual({ tool });
    }
    expect(existsSync(join(project, 'Assets', 'Levels', 'Level2.json'))).toBe(false);

    context.playing = false;
    expect(await run('create_scene', { path: 'Assets/Levels/Level2.unity' })).toMatchObject({ created: { path: 'Assets/Levels/Level2.unity' } });
    expect(await run('save_scene')).toMatchObject({ saved: { path: 'Assets/Levels/Level2.unity' } });
  });

  it('build_player is refused too, as in the Unity package', async () => {
    const { context, project, run } = editor();
    context.playing = true;
    const error = await refusal(() => run('build_player', { target: 'StandaloneLinux64' }));
    expect(error.code).toBe('TOOL_FAILED');
    expect(error.message).toBe('Unity cannot build a player in play mode. Exit play mode (play_mode with action "exit"), then build.');
    expect(error.data).toEqual({ tool: 'build_player', target: 'StandaloneLinux64' });
    expect(existsSync(join(project, 'Library', 'Builds', 'build-log.jsonl'))).toBe(false);
  });

  it('still list and report the scenes', async () => {
    const { context, run } = editor();
    context.playing = true;
    expect(await run('list_scenes')).toMatchObject({ count: 1 });
    expect(await run('get_active_scene')).toMatchObject({ active: { path: 'Assets/Scenes/SampleScene.unity' } });
  });
});

describe('the edit tools in play mode', () => {
  it('edit the scene and say the edit lasts only until play mode exits', async () => {
    const { context, run } = editor();
    await run('create_prefab', { path: '/Player', assetPath: 'Assets/Prefabs/Player.prefab' });
    context.playing = true;
    const edits: Array<[string, Record<string, unknown>]> = [
      ['create_gameobject', { name: 'Spawned' }],
      ['modify_gameobject', { path: '/Spawned', position: [1, 2, 3] }],
      ['add_component', { path: '/Spawned', type: 'Rigidbody' }],
      ['set_serialized_properties', { target: { gameObject: '/Spawned', component: 'Rigidbody' }, properties: [{ path: 'm_Mass', value: 5 }] }],
      ['remove_component', { path: '/Spawned', type: 'Rigidbody' }],
      ['duplicate_gameobject', { path: '/Spawned' }],
      ['reparent_gameobject', { path: '/Spawned (1)', parent: '/Spawned' }],
      ['instantiate_prefab', { assetPath: 'Assets/Prefabs/Player.prefab', name: 'Clone' }],
      ['revert_prefab_overrides', { path: '/Clone' }],
      ['delete_gameobject', { path: '/Spawned' }],
    ];
    for (const [tool, args] of edits) expect((await run(tool, args)).note, tool).toBe(LOST);
    const { objects } = await run('find_gameobjects', { name: 'Clone' });
    expect(objects).toHaveLength(1);
  });

  it('create one of each component type, as the Unity package skips a type the GameObject has', async () => {
    const { run } = editor();
    const created = (await run('create_gameobject', { name: 'Crate', primitive: 'Cube', components: ['Rigidbody', 'Rigidbody', 'MeshFilter'] })) as {
      created: { components: Array<{ type: string }> };
    };
    // A Cube has its BoxCollider from GameObject.CreatePrimitive.
    expect(created.created.components.map((component) => component.type)).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'BoxCollider', 'Rigidbody']);
  });

  it('say nothing of play mode in edit mode', async () => {
    const { run } = editor();
    const created = await run('create_gameobject', { name: 'Spawned' });
    expect(created).not.toHaveProperty('note');
    expect(await run('add_component', { path: '/Spawned', type: 'Rigidbody' })).not.toHaveProperty('note');
    expect(await run('delete_gameobject', { path: '/Spawned' })).not.toHaveProperty('note');
  });

  it('say nothing of play mode for an asset or the prefab open in prefab mode, which play mode does not restore', async () => {
    const { context, run } = editor();
    await run('create_prefab', { path: '/Player', assetPath: 'Assets/Prefabs/Player.prefab' });
    context.playing = true;
    const written = await run('set_serialized_properties', { target: { asset: 'Assets/Prefabs/Player.prefab', component: 'Rigidbody' }, properties: [{ path: 'm_Mass', value: 3 }] });
    expect(written).not.toHaveProperty('note');
    await run('open_prefab', { assetPath: 'Assets/Prefabs/Player.prefab' });
    expect(await run('create_gameobject', { name: 'Gun', parent: '/Player' })).not.toHaveProperty('note');
    await run('close_prefab', { save: true });
    expect((await run('create_gameobject', { name: 'Back in the scene' })).note).toBe(LOST);
  });

  it('put the note after a note the result already has', () => {
    const { context } = editor();
    context.playing = true;
    expect(noteEdit(context, { duplicated: {}, note: 'Components added to it are not copied.' })).toEqual({ duplicated: {}, note: `Components added to it are not copied. ${LOST}` });
  });
});
