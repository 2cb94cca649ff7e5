/**
 * A prefab that changed (applied to, or saved in prefab mode) changes its instances, as in
 * Unity: every instance in the loaded scenes and in the scene files not loaded is rebuilt
 * with its own overrides kept. And what one undo group covers of prefabs: the prefab assets
 * the loaded scenes' instances come from (an apply is undone with its asset, as Unity's
 * InteractionMode.UserAction records it); creating a prefab asset is not undone, in Unity
 * either. Instances in scenes that are not loaded follow a change, not its undo.
 */
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { Project } from '../project.js';
import { Scene } from '../scene.js';
import type { SceneSet } from '../scenes.js';
import type { UndoTarget } from '../undo.js';
import { propagate } from './prefab-edits.js';
import { loadPrefab, writePrefab, type PrefabFile } from './prefab-file.js';

/** Rebuilds the instances of `asset` everywhere but the one rooted at `except` (in `exceptScene`); returns how many. */
export function syncInstances(project: Project, scenes: SceneSet, asset: string, previous: PrefabFile | undefined, next: PrefabFile, except?: { scene: Scene; id: number }): number {
  let count = 0;
  const update = (scene: Scene): void => {
    const data = scene.snapshot();
    const n = propagate(data, asset, previous, next, except?.scene === scene ? except.id : undefined);
    if (n > 0) scene.replace(data);
    count += n;
  };
  for (const scene of scenes.all) update(scene);
  for (const path of scenes.assets()) if (!scenes.find(path)) update(new Scene(project, path));
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
