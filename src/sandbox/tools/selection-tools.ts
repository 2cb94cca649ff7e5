/**
 * get_selection and set_selection: the editor's selection (Unity's Selection.objects and
 * activeObject), GameObjects of the loaded scenes (or of the prefab open in prefab mode) and
 * assets. It is editor state, not project content: setting it is not an undo step here, and
 * Undo's API offers no way to record it as one (it records changes to objects). The
 * selection survives domain reloads, as Unity's does; a GameObject deleted or unloaded
 * leaves it.
 */
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { z } from 'zod';
import { AssetDatabase } from '../assets/asset-database.js';
import { assetPath } from '../assets/asset-paths.js';
import { currentStage } from '../prefabs/prefab-stage.js';
import type { Project } from '../project.js';
import type { Scene } from '../scene.js';
import type { SceneSet } from '../scenes.js';
import { defineTool } from './tool.js';

/** A selected GameObject by its scene (a scene's path, or the open prefab's) and id: a rename or move keeps it selected. */
interface StoredSelection {
  pid: number;
  items: Array<{ scene: string; id: number } | { asset: string }>;
}

const selection = z.object({
  gameObjects: z.array(z.object({ path: z.string(), scene: z.string().describe('The scene\'s path, or the prefab\'s when it is open in prefab mode.') })),
  assets: z.array(z.string()),
  active: z.string().optional().describe('The active object (Selection.activeObject), which the Inspector shows: a GameObject\'s path or an asset\'s.'),
});

type Selection = z.infer<typeof selection>;

function storePath(project: Project): string {
  return join(project.library, 'Tether', 'selection.json');
}

/** The scenes a selected GameObject may be in, by the key stored for it. */
function sceneKeys(scenes: SceneSet): Map<string, Scene> {
  const stage = currentStage(scenes);
  return new Map<string, Scene>([...scenes.all.map((s) => [s.path, s] as const), ...(stage ? [[stage.assetPath, stage.scene] as const] : [])]);
}

function readSelection(project: Project, scenes: SceneSet): Selection {
  const stored = project.readJson<StoredSelection | undefined>(storePath(project), undefined);
  const keys = sceneKeys(scenes);
  const found: Array<{ path: string; scene: string } | string> = [];
  // An editor started anew has an empty selection (a reload keeps it).
  for (const item of stored?.pid === process.pid ? stored.items : []) {
    if ('asset' in item) {
      if (existsSync(project.resolveInside(item.asset))) found.push(item.asset);
      continue;
    }
    const scene = keys.get(item.scene);
    const object = scene?.byId(item.id);
    if (scene && object) found.push({ path: scene.pathOf(object), scene: item.scene });
  }
  const [first] = found;
  return {
    gameObjects: found.filter((f) => typeof f !== 'string'),
    assets: found.filter((f) => typeof f === 'string'),
    ...(first === undefined ? {} : { active: typeof first === 'string' ? first : first.path }),
  };
}

export const selectionTools = [
  defineTool({
    name: 'get_selection',
    title: 'Get selection',
    description: 'Returns what is selected in the editor: GameObjects (with their scene) and assets, and the active object the Inspector shows.',
    input: z.object({}),
    output: selection,
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: (_args, { project, scenes }) => readSelection(project, scenes),
  }),

  defineTool({
    name: 'set_selection',
    title: 'Set selection',
    description:
      'Selects GameObjects (by path, in the scene the GameObject tools see) and assets (by path), replacing the selection; nothing given clears it. The first becomes the active object. Every name is checked before the selection changes. Not an undo step.',
    input: z.object({
      gameObjects: z.array(z.string()).default([]).describe('GameObject paths, e.g. ["/Player"].'),
      assets: z.array(z.string()).default([]).describe('Asset paths, e.g. ["Assets/Materials/Red.mat"].'),
    }),
    output: selection,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ gameObjects, assets }, { project, scene, scenes }) => {
      const tool = 'set_selection';
      const stage = currentStage(scenes);
      const key = stage ? stage.assetPath : scene.path;
      const objects = gameObjects.map((path) => ({ scene: key, id: scene.require(path).id }));
      const database = new AssetDatabase(project, scenes);
      const files = assets.map((input) => ({ asset: database.require(assetPath(project, input, tool, 'assets', 'read'), tool, 'assets').path }));
      // Each object once, as Unity's selection holds it.
      const items = [...objects, ...files].filter((item, n, all) => all.findIndex((other) => JSON.stringify(other) === JSON.stringify(item)) === n);
      project.writeJson(storePath(project), { pid: process.pid, items } satisfies StoredSelection);
      return readSelection(project, scenes);
    },
  }),
];
