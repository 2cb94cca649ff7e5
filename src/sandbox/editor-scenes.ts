/**
 * The editor's scene set as its main thread opens it: the loaded scenes, plus what the scene
 * set's undo groups cover besides them (the prefab stage and prefab assets, the asset files
 * tools record). Those parts need the scene set, so they are attached here, once it exists,
 * rather than by SceneSet itself (which would make scenes.ts and the parts import each other).
 */
import { attachAssetUndo } from './assets/asset-undo.js';
import { attachPrefabs } from './prefabs/prefab-stage.js';
import type { Project } from './project.js';
import { SceneSet } from './scenes.js';

/** Opens the project's scene setup and reopens the prefab mode a domain reload interrupted. */
export function openEditorScenes(project: Project): SceneSet {
  const scenes = new SceneSet(project);
  attachPrefabs(scenes, project);
  attachAssetUndo(scenes, project);
  return scenes;
}
