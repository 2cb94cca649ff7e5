/**
 * The order of a scene's GameObjects as Unity shows and walks them: the roots in scene order,
 * each GameObject's children in sibling order, depth-first (the Unity package's
 * HierarchyPath.Walk and HierarchyPath.Find). A scene file keeps its objects in one flat list;
 * the sibling order is the list's order among the objects of one parent, so the list itself
 * (creation order) is not the hierarchy's: a child created after another root comes after that
 * root in the list, yet before it in the hierarchy. Whatever an agent sees in order (which
 * objects find_gameobjects returns first, which of same-named siblings a path means) goes
 * through here, so the sandbox and Unity pick the same objects.
 */
import type { GameObject } from './game-object.js';

/** Each parent's children (null: the roots), in sibling order. */
export function childrenByParent(objects: readonly GameObject[]): Map<number | null, GameObject[]> {
  const kids = new Map<number | null, GameObject[]>();
  for (const o of objects) (kids.get(o.parentId) ?? kids.set(o.parentId, []).get(o.parentId)!).push(o);
  return kids;
}

/** Every object, depth-first, parents before children: roots in scene order, children in sibling order. */
export function inHierarchyOrder(objects: readonly GameObject[]): GameObject[] {
  const kids = childrenByParent(objects);
  const out: GameObject[] = [];
  // An explicit stack, not recursion: a hierarchy may be deeper than the call stack allows.
  const stack = [...(kids.get(null) ?? [])].reverse();
  for (let next = stack.pop(); next; next = stack.pop()) {
    out.push(next);
    stack.push(...[...(kids.get(next.id) ?? [])].reverse());
  }
  return out;
}

/**
 * The first object in hierarchy order whose path is `path` ("/Environment/Lamp"; the leading
 * "/" optional), as HierarchyPath.Find: names may repeat among siblings, and it backtracks, so
 * with two roots "A" of which only the second has a child "B", "/A/B" is that child.
 */
export function findAtPath(objects: readonly GameObject[], path: string): GameObject | undefined {
  const names = (path.startsWith('/') ? path.slice(1) : path).split('/');
  const kids = childrenByParent(objects);
  const search = (level: readonly GameObject[], index: number): GameObject | undefined => {
    for (const node of level) {
      if (node.name !== names[index]) continue;
      if (index === names.length - 1) return node;
      const found = search(kids.get(node.id) ?? [], index + 1);
      if (found) return found;
    }
    return undefined;
  };
  return search(kids.get(null) ?? [], 0);
}

/**
 * Puts `object` (one of `objects`) under `parentId` (null: the scene root) as its last child, as
 * Transform.SetParent (and Undo.SetTransformParent) does. Under the parent it already has, it
 * stays where it is: SetParent returns at once when the parent does not change.
 */
export function moveToLastChild(objects: GameObject[], object: GameObject, parentId: number | null): void {
  if (object.parentId === parentId) return;
  const at = objects.indexOf(object);
  if (at < 0) throw new Error(`GameObject ${object.id} is not in this list.`);
  objects.splice(at, 1);
  object.parentId = parentId;
  // Last in the list is last among the objects of its parent: the sibling order is the list's.
  objects.push(object);
}
