/**
 * What the prefab tools do to a scene's objects (a SceneFile's, loaded or not): make a subtree
 * a prefab and its instance, instantiate one, rebuild an instance from its prefab (reverting
 * it, or keeping its overrides when the prefab changed), and apply an instance to its prefab.
 * An instance keeps the scene ids of the objects it still has, so references to them hold.
 */
import type { GameObject, SceneFile, Vector3 } from '../game-object.js';
import { nameOf } from '../assets/asset-paths.js';
import { unityEuler } from '../euler-angles.js';
import { nest, type PrefabFile } from './prefab-file.js';
import { instanceParts, instancesOf, subtree } from './instance-parts.js';
import { remapReferences } from '../serialized/stored-references.js';
import { applyOverrides, DEFAULT_OVERRIDES, materialize, noOverrides, overridesOf } from './prefab-overrides.js';

/** The prefab made of `objects` (a subtree, root first), their ids mapped by `sourceOf`; references leaving it become null. */
function toPrefab(objects: readonly GameObject[], sourceOf: ReadonlyMap<number, number>, nextId: number, rootName: string): PrefabFile {
  const prefabObjects = objects.map((o, n) => {
    const { prefab: _link, ...rest } = remapReferences(o, (id) => sourceOf.get(id)) as GameObject;
    return { ...rest, id: sourceOf.get(o.id)!, parentId: n === 0 ? null : sourceOf.get(o.parentId!)!, ...(n === 0 ? { name: rootName } : {}) };
  });
  return nest(prefabObjects, nextId);
}

/**
 * Saves the subtree at `rootId` as a prefab (its root named after the asset, as Unity names
 * it) and links the subtree to it, which makes it the prefab's first instance.
 */
export function connect(data: SceneFile, rootId: number, asset: string): PrefabFile {
  const objects = subtree(data.objects, rootId);
  const sourceOf = new Map(objects.map((o, n) => [o.id, n + 1]));
  const file = toPrefab(objects, sourceOf, objects.length + 1, nameOf(asset));
  for (const o of objects) o.prefab = { asset, source: sourceOf.get(o.id)!, ...(o.id === rootId ? { root: true as const } : {}) };
  return file;
}

/** A new instance of `file` under `parentId` (the scene root when null), appended to the scene's objects. */
export function instantiate(data: SceneFile, file: PrefabFile, asset: string, parentId: number | null, init: { name?: string; position?: Vector3; rotation?: Vector3 }): GameObject {
  const objects = materialize(file, asset, new Map(), () => data.nextId++, parentId);
  const root = objects[0]!;
  if (init.name !== undefined) root.name = init.name;
  if (init.position) root.position = init.position;
  // As Unity reads it back from the quaternion (-90 is 270).
  if (init.rotation) root.rotation = unityEuler(init.rotation);
  data.objects.push(...objects);
  return root;
}

/**
 * Replaces the instance rooted at `root` with `next` laid out anew: with its overrides against
 * `previous` kept ("keep", when the prefab changed) or dropped with its added GameObjects
 * ("revert"). Its own name, position, rotation and parent stay. Returns the new root.
 */
export function rebuild(data: SceneFile, root: GameObject, previous: PrefabFile | undefined, next: PrefabFile, mode: 'keep' | 'revert'): GameObject {
  const parts = instanceParts(data.objects, root);
  const overrides = mode === 'keep' && previous ? overridesOf(data.objects, root, previous) : noOverrides();
  const ids = new Map([...parts.linked].map(([source, o]) => [source, o.id]));
  const fresh = applyOverrides(
    materialize(next, root.prefab!.asset, ids, () => data.nextId++, root.parentId),
    overrides,
  );
  const freshRoot = fresh[0]!;
  const rootFields = freshRoot as unknown as Record<string, unknown>;
  for (const key of DEFAULT_OVERRIDES) rootFields[key] = structuredClone((root as unknown as Record<string, unknown>)[key]);
  const kept = new Set(fresh.map((o) => o.id));
  const doomed = new Set([...parts.linked.values()].map((o) => o.id));
  for (const added of parts.added) {
    if (mode === 'revert') for (const o of subtree(data.objects, added.id)) doomed.add(o.id);
    // An added GameObject whose parent the prefab no longer has stays, under the instance's root.
    else if (added.parentId !== null && !kept.has(added.parentId)) added.parentId = freshRoot.id;
  }
  const at = data.objects.slice(0, data.objects.indexOf(root)).filter((o) => !doomed.has(o.id)).length;
  const rest = data.objects.filter((o) => !doomed.has(o.id));
  data.objects = [...rest.slice(0, at), ...fresh, ...rest.slice(at)];
  return freshRoot;
}

/**
 * Applies the instance rooted at `root` to its prefab `file` (ApplyPrefabInstance): the new
 * prefab is the instance, less the root's own name, position and rotation; the GameObjects
 * added to it become the prefab's and are linked. Returns the new prefab.
 */
export function applyInstance(data: SceneFile, root: GameObject, file: PrefabFile): PrefabFile {
  const parts = instanceParts(data.objects, root);
  const sourceOf = new Map([...parts.linked].map(([source, o]) => [o.id, source]));
  let nextId = file.nextId;
  const addedObjects = parts.added.flatMap((a) => subtree(data.objects, a.id));
  for (const o of addedObjects) sourceOf.set(o.id, nextId++);
  const members = subtree(data.objects, root.id).filter((o) => sourceOf.has(o.id));
  const next = toPrefab(members, sourceOf, nextId, file.root.name);
  next.root.position = structuredClone(file.root.position);
  next.root.rotation = structuredClone(file.root.rotation);
  const asset = root.prefab!.asset;
  for (const o of addedObjects) o.prefab = { asset, source: sourceOf.get(o.id)! };
  return next;
}

/** Rebuilds every instance of `asset` in the scene but `except` for a changed prefab, keeping their overrides; returns how many. */
export function propagate(data: SceneFile, asset: string, previous: PrefabFile | undefined, next: PrefabFile, except?: number): number {
  const roots = instancesOf(data.objects, asset).filter((o) => o.id !== except);
  for (const root of roots) rebuild(data, root, previous, next, 'keep');
  return roots.length;
}
