/**
 * A prefab that changed (applied to, or saved in prefab mode) changes its instances, as in
 * Unity: every instance in the loaded scenes and in the scene files is rebuilt with its own
 * overrides kept. That is no edit of a loaded scene (Unity's scene keeps only the instance's
 * overrides, so it has no unsaved change from it): its contents follow, and so does its asset
 * as last saved, as every scene file does. And what one undo group covers of prefabs: the
 * prefab assets the loaded scenes' instances come from (an apply is undone with its asset, as
 * Unity's InteractionMode.UserAction records it); creating a prefab asset is not undone, in
 * Unity either. Scene files follow a change, not its undo.
 */
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { SceneFile } from '../game-object.js';
import type { Project } from '../project.js';
import type { Scene } from '../scene.js';
import { isSceneFile, sceneFileOf } from '../scene-paths.js';
import type { SceneSet } from '../scenes.js';
import type { UndoTarget } from '../undo.js';
import { propagate } from './prefab-edits.js';
import { loadPrefab, writePrefab, type PrefabFile } from './prefab-file.js';

/** Rebuilds the instances of `asset` everywhere but the one rooted at `except` (in the loaded scene `except.scene`); returns how many (in the loaded scenes, and in the files of the others). */
export function syncInstances(project: Project, scenes: SceneSet, asset: string, previous: PrefabFile | undefined, next: PrefabFile, except?: { scene: Scene; id: number }): number {
  let count = 0;
  for (const scene of scenes.all) {
    const data = scene.snapshot();
    const n = propagate(data, asset, previous, next, except?.scene === scene ? except.id : undefined);
    if (n > 0) scene.follow(data);
    count += n;
  }
  for (const path of scenes.assets()) {
    const file = project.resolveInside(sceneFileOf(path));
    const data = project.readJson<SceneFile | undefined>(file, undefined);
    if (!data || !isSceneFile(data)) continue;
    const n = propagate(data, asset, previous, next);
    if (n > 0) project.writeJson(file, data);
    if (!scenes.find(path)) count += n;
  }
  return count;
}

/** The prefab assets the loaded scenes' instances come from, by path: their contents, for undo. */
export function prefabAssetsUndo(project: Project, scenes: SceneSet): UndoTarget<Record<string, PrefabFile>> {
  return {
    capture: () => {
      const assets = new Set(scenes.all.flatMap((scene) => scene.objects.flatMap((o) => (o.prefab ? [o.prefab.asset] : []))));
      const out: Record<string, PrefabFile> = {};
      for (const path of [...assets].sort()) {
        const file = loadPrefab(project, path);
        if (file) out[path] = file;
      }
      return out;
    },
    restore: (state) => {
      for (const [path, file] of Object.entries(state)) {
        const now = loadPrefab(project, path);
        if (!now || canonicalJson(now) !== canonicalJson(file)) writePrefab(project, path, file);
      }
    },
  };
}
