/**
 * The sandbox scene's hierarchy order without an editor (src/sandbox/hierarchy-order.ts): a
 * scene file lists its objects in creation order, Unity walks them depth-first in sibling order
 * (the Unity package's HierarchyPath.Walk and HierarchyPath.Find), and a reparented object goes
 * last among its new siblings (Transform.SetParent).
 */
import { describe, expect, it } from 'vitest';
import { findAtPath, inHierarchyOrder, moveToLastChild } from '../../src/sandbox/hierarchy-order.js';
import type { GameObject } from '../../src/sandbox/game-object.js';

function object(id: number, name: string, parentId: number | null): GameObject {
  return { id, name, parentId, active: true, tag: 'Untagged', position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], components: [{ type: 'Transform' }] };
}

/** The sample scene as its file lists it: Crate, a child of Environment, was created after the root Player. */
function sampleScene(): GameObject[] {
  return [object(1, 'Main Camera', null), object(2, 'Directional Light', null), object(3, 'Environment', null), object(4, 'Ground', 3), object(5, 'Player', null), object(6, 'Crate', 3)];
}

const names = (objects: readonly GameObject[]): string[] => objects.map((o) => o.name);

describe('hierarchy order', () => {
  it('walks roots in scene order, each one followed by its children in sibling order, depth-first', () => {
    expect(names(inHierarchyOrder(sampleScene()))).toEqual(['Main Camera', 'Directional Light', 'Environment', 'Ground', 'Crate', 'Player']);
    // A child listed before its parent (a parent reparented under a root created later) still follows it.
    const shuffled = [object(4, 'Lid', 2), object(1, 'Table', null), object(2, 'Box', 3), object(3, 'Shelf', 1)];
    expect(names(inHierarchyOrder(shuffled))).toEqual(['Table', 'Shelf', 'Box', 'Lid']);
  });

  it('finds the first object at a path in hierarchy order, not in the order of the list', () => {
    // Two roots "A"; the second A's "X" is listed first, yet the first A's comes first in the hierarchy.
    const objects = [object(1, 'A', null), object(2, 'A', null), object(3, 'X', 2), object(4, 'X', 1)];
    expect(findAtPath(objects, '/A/X')?.id).toBe(4);
    expect(findAtPath(objects, 'A')?.id).toBe(1);
    // It backtracks, as HierarchyPath.Find: only the second A has a "Y".
    expect(findAtPath([...objects, object(5, 'Y', 2)], '/A/Y')?.id).toBe(5);
    expect(findAtPath(objects, '/A/Z')).toBeUndefined();
    expect(findAtPath(objects, '/X')).toBeUndefined();
  });

  it('puts a reparented object last among its new siblings, at the root too, and leaves it in place under the same parent', () => {
    const objects = sampleScene();
    const byName = (name: string): GameObject => objects.find((o) => o.name === name)!;
    moveToLastChild(objects, byName('Main Camera'), 3);
    expect(names(inHierarchyOrder(objects))).toEqual(['Directional Light', 'Environment', 'Ground', 'Crate', 'Main Camera', 'Player']);
    moveToLastChild(objects, byName('Ground'), null);
    expect(names(inHierarchyOrder(objects))).toEqual(['Directional Light', 'Environment', 'Crate', 'Main Camera', 'Player', 'Ground']);
    // Transform.SetParent returns at once when the parent does not change: no reordering.
    moveToLastChild(objects, byName('Crate'), 3);
    moveToLastChild(objects, byName('Directional Light'), null);
    expect(names(inHierarchyOrder(objects))).toEqual(['Directional Light', 'Environment', 'Crate', 'Main Camera', 'Player', 'Ground']);
  });
});
