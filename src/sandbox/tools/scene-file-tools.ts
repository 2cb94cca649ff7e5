/**
 * Scene tools that act on scenes as files and on the editor's scene setup (Unity's
 * EditorSceneManager): list, open, create, save, the active scene and what is loaded. Edits
 * leave a scene dirty until save_scene; opening or creating a scene alone closes the loaded
 * ones, refused while any has unsaved changes unless unsavedChanges says save or discard
 * (scenes.ts).
 * Opening, creating and saving scenes are not undo steps, in Unity either: Undo records
 * changes to objects, not the scene setup or files. Unity's EditorSceneManager does them in
 * edit mode only, so in play mode they are refused first (requireEditMode).
 */
import { z } from 'zod';
import { scenePath } from '../scene-paths.js';
import type { SceneInfo } from '../scenes.js';
import { requireEditMode } from './play-mode-tool.js';
import { defineTool } from './tool.js';

/** A scene as these tools describe it (SceneInfo). */
export const sceneInfo = z.object({
  name: z.string(),
  path: z.string().describe('Project-relative, e.g. "Assets/Scenes/Level1.unity".'),
  isLoaded: z.boolean(),
  isActive: z.boolean().describe('The scene the GameObject tools read and edit, and where new GameObjects go.'),
  isDirty: z.boolean().describe('Changed since it was last saved.'),
  rootCount: z.number().int().describe('GameObjects at the scene root.'),
});

const loadedScenes = z.array(sceneInfo).describe('The loaded scenes, in hierarchy order.');

const UNSAVED = ['refuse', 'save', 'discard'] as const;
const unsavedChanges = z
  .enum(UNSAVED)
  .default('refuse')
  .describe('What to do with loaded scenes that have unsaved changes when this closes them: refuse (the call fails, naming them), save, or discard.');

export const sceneFileTools = [
  defineTool({
    name: 'list_scenes',
    title: 'List scenes',
    description: 'Lists the scene assets under Assets/ and which of them are loaded and active.',
    input: z.object({
      filter: z.string().optional().describe('Only scenes whose path contains this text (any case).'),
    }),
    output: z.object({ count: z.number().int(), scenes: z.array(sceneInfo) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ filter }, { scenes }) => {
      const needle = filter?.toLowerCase();
      const listed = scenes.assets().filter((path) => !needle || path.toLowerCase().includes(needle)).map((path) => scenes.assetInfo(path));
      return { count: listed.length, scenes: listed };
    },
  }),

  defineTool({
    name: 'get_active_scene',
    title: 'Get active scene',
    description: 'Returns the active scene (the one the GameObject tools edit) and every loaded scene.',
    input: z.object({}),
    output: z.object({ active: sceneInfo, loaded: loadedScenes }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (_args, { scenes }) => ({ active: scenes.info(scenes.active), loaded: scenes.all.map((scene) => scenes.info(scene)) }),
  }),

  defineTool({
    name: 'open_scene',
    title: 'Open scene',
    description:
      'Opens a scene asset: alone (closing the loaded scenes, as File > Open Scene) or additively beside them. Closing a scene with unsaved changes is refused unless unsavedChanges says save or discard.',
    input: z.object({
      path: z.string().describe('The scene, e.g. "Assets/Scenes/Level1.unity".'),
      additive: z.boolean().default(false).describe('Keep the loaded scenes open beside it.'),
      setActive: z.boolean().default(true).describe('Make it the active scene (always so when not additive).'),
      unsavedChanges,
    }),
    output: z.object({ opened: sceneInfo, loaded: loadedScenes }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: ({ path, additive, setActive, unsavedChanges: unsaved }, context) => {
      requireEditMode(context, 'open_scene', 'open');
      const { project, scenes } = context;
      const scene = scenes.open(scenePath(project, path, 'open_scene'), additive, unsaved, 'open_scene');
      if (setActive) scenes.setActive(scene);
      return { opened: scenes.info(scene), loaded: scenes.all.map((s) => scenes.info(s)) };
    },
  }),

  defineTool({
    name: 'create_scene',
    title: 'Create scene',
    description:
      'Creates a new scene, saves it at a path under Assets/ and opens it: alone (closing the loaded scenes) or additively. "default" starts it with a Main Camera and a Directional Light, as Unity does; "empty" with nothing.',
    input: z.object({
      path: z.string().describe('Where to save it, e.g. "Assets/Scenes/Level2.unity". Must not exist yet.'),
      template: z.enum(['default', 'empty']).default('default'),
      additive: z.boolean().default(false).describe('Keep the loaded scenes open beside it.'),
      setActive: z.boolean().default(true).describe('Make it the active scene (always so when not additive).'),
      unsavedChanges,
    }),
    output: z.object({ created: sceneInfo, loaded: loadedScenes }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ path, template, additive, setActive, unsavedChanges: unsaved }, context) => {
      requireEditMode(context, 'create_scene', 'create');
      const { project, scenes, console } = context;
      const scene = scenes.create(scenePath(project, path, 'create_scene'), additive, template, unsaved, 'create_scene');
      if (setActive) scenes.setActive(scene);
      console.write('log', `Created scene ${scene.path}`);
      return { created: scenes.info(scene), loaded: scenes.all.map((s) => scenes.info(s)) };
    },
  }),

  defineTool({
    name: 'save_scene',
    title: 'Save scene',
    description: 'Saves a loaded scene (the active one by default), in place or under a new path it then takes (Save As). Never overwrites another scene.',
    input: z.object({
      scene: z.string().optional().describe('The loaded scene to save, by path. Default: the active scene.'),
      saveAs: z.string().optional().describe('Save under this new path instead, e.g. "Assets/Scenes/Level1 Copy.unity".'),
    }),
    output: z.object({ saved: sceneInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ scene: which, saveAs }, context) => {
      requireEditMode(context, 'save_scene', 'save');
      const { project, scenes } = context;
      const scene = which === undefined ? scenes.active : scenes.requireLoaded(scenePath(project, which, 'save_scene', 'scene'));
      scenes.save(scene, saveAs === undefined ? undefined : scenePath(project, saveAs, 'save_scene', 'saveAs'), 'save_scene');
      return { saved: scenes.info(scene) satisfies SceneInfo };
    },
  }),
];
