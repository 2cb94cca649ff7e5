/**
 * What the scene tools say of a GameObject that is part of a prefab instance: which prefab,
 * whether it is the instance's root, and for a root whether the instance has overrides
 * (Unity's PrefabUtility.GetPrefabAssetPathOfNearestInstanceRoot, IsOutermostPrefabInstanceRoot,
 * HasPrefabInstanceAnyOverrides without the default overrides).
 */
import type { Project } from '../project.js';
import type { GameObject, PrefabStatus } from '../game-object.js';
import { byIdOf, instanceRootOf } from './instance-parts.js';
import { loadPrefab } from './prefab-file.js';
import { countOverrides, overridesOf } from './prefab-overrides.js';

/** `{ prefab: … }` for an object of an instance, `{}` for any other. */
export function prefabStatus(project: Project, objects: readonly GameObject[], object: GameObject): { prefab?: PrefabStatus } {
  if (!object.prefab) return {};
  const root = instanceRootOf(byIdOf(objects), object);
  if (root !== object) return { prefab: { assetPath: object.prefab.asset, instanceRoot: false } };
  const file = loadPrefab(project, object.prefab.asset);
  return { prefab: { assetPath: object.prefab.asset, instanceRoot: true, hasOverrides: file ? countOverrides(overridesOf(objects, object, file)) > 0 : false } };
}
