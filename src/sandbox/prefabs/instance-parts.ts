/**
 * Prefab instances in a scene's objects. Every object of an instance carries a link (its
 * asset and the id of the prefab object it comes from); the instance's root is marked. As in
 * Unity, everything under an instance's root is part of it: a linked object, or a GameObject
 * added to the instance (with everything under it). These functions read a scene's objects
 * as a plain list (a SceneFile's), so they serve loaded scenes and scene files alike.
 */
import type { GameObject } from '../game-object.js';
import { childrenByParent } from '../hierarchy-order.js';

/** What an instance is made of. */
export interface InstanceParts {
  /** The instance's linked objects by the prefab object they come from (the root among them). */
  linked: Map<number, GameObject>;
  /** The GameObjects added to the instance (each the top of an added subtree). */
  added: GameObject[];
}

export function byIdOf(objects: readonly GameObject[]): Map<number, GameObject> {
  return new Map(objects.map((o) => [o.id, o]));
}

/** The object under `rootId`, itself first, every parent before its children, in the list's order. */
export function subtree(objects: readonly GameObject[], rootId: number): GameObject[] {
  const kids = childrenByParent(objects);
  const root = objects.find((o) => o.id === rootId);
  if (!root) return [];
  const out: GameObject[] = [];
  const visit = (o: GameObject): void => {
    out.push(o);
    for (const child of kids.get(o.id) ?? []) visit(child);
  };
  visit(root);
  return out;
}

/** "/Root/Child" for an object of the list. */
export function pathIn(byId: ReadonlyMap<number, GameObject>, object: GameObject): string {
  const names: string[] = [];
  for (let current: GameObject | undefined = object; current; current = current.parentId === null ? undefined : byId.get(current.parentId)) names.unshift(current.name);
  return `/${names.join('/')}`;
}

/**
 * The root of the prefab instance `object` is part of (the outermost one, as
 * PrefabUtility.GetOutermostPrefabInstanceRoot), or undefined when it is not part of one: an
 * object without a link, such as a GameObject added to an instance, is not.
 */
export function instanceRootOf(byId: ReadonlyMap<number, GameObject>, object: GameObject): GameObject | undefined {
  if (!object.prefab) return undefined;
  let root: GameObject | undefined;
  for (let current: GameObject | undefined = object; current; current = current.parentId === null ? undefined : byId.get(current.parentId)) {
    if (current.prefab?.root) root = current;
  }
  return root;
}

/** The linked objects and added GameObjects of the instance whose root is `root`. */
export function instanceParts(objects: readonly GameObject[], root: GameObject): InstanceParts {
  const asset = root.prefab?.asset;
  const linked = new Map<number, GameObject>();
  const added: GameObject[] = [];
  if (!root.prefab) return { linked, added };
  linked.set(root.prefab.source, root);
  const kids = childrenByParent(objects);
  const visit = (parent: GameObject): void => {
    for (const child of kids.get(parent.id) ?? []) {
      // Another instance inside this one, or an object of no instance, is added to it whole.
      if (child.prefab && child.prefab.asset === asset && !child.prefab.root && !linked.has(child.prefab.source)) {
        linked.set(child.prefab.source, child);
        visit(child);
      } else {
        added.push(child);
      }
    }
  };
  visit(root);
  return { linked, added };
}

/** The instance roots of `asset` among `objects`. */
export function instancesOf(objects: readonly GameObject[], asset: string): GameObject[] {
  return objects.filter((o) => o.prefab?.root && o.prefab.asset === asset);
}

/** Whether any object under `rootId` (itself included) is part of a prefab instance. */
export function holdsInstance(objects: readonly GameObject[], rootId: number): GameObject | undefined {
  return subtree(objects, rootId).find((o) => o.prefab !== undefined);
}
