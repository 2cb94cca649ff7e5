/**
 * An instance's overrides: how it differs from its prefab, as Unity's PrefabUtility names the
 * kinds (property overrides, added and removed components, added and removed GameObjects).
 * Found by laying the prefab out as the instance would be (materialize) and comparing field by
 * field, into plain objects; values that are references or arrays compare whole. The root's
 * name, position and rotation are Unity's "default overrides": every instance has its own,
 * never applied, never reverted, never counted.
 *
 * Components are matched by type and order among those of the type (Unity matches them by
 * file id; an instance whose components were reordered compares as if they were not).
 */
import { canonicalJson } from '../../protocol/canonical-json.js';
import type { Component, GameObject } from '../game-object.js';
import { flatten, type PrefabFile } from './prefab-file.js';
import { byIdOf, instanceParts, pathIn } from './instance-parts.js';
import { isStoredReference, remapReferences } from '../serialized/stored-references.js';

export interface Modification {
  source: number;
  /** The component's type and its index among the object's components of that type; absent for the GameObject's own fields. */
  component?: { type: string; index: number };
  path: string[];
  /** The instance's value; undefined when the instance lacks the field. */
  value: unknown;
}

export interface Overrides {
  modifications: Modification[];
  addedComponents: Array<{ source: number; component: Component }>;
  removedComponents: Array<{ source: number; type: string; index: number }>;
  /** Scene ids of the GameObjects added to the instance (the top of each added subtree). */
  addedObjects: number[];
  /** Prefab ids of the prefab's GameObjects the instance lacks (the top of each missing subtree). */
  removedObjects: number[];
}

/** The overrides as the tools report them, by path in the scene (Unity's ObjectOverride, AddedComponent, …). */
export interface OverridesSummary extends Record<string, unknown> {
  propertyOverrides: Array<{ path: string; target: string }>;
  addedComponents: Array<{ path: string; type: string }>;
  removedComponents: Array<{ path: string; type: string }>;
  addedGameObjects: string[];
  removedGameObjects: string[];
}

/** Fields of a GameObject that are its identity and structure, not properties. */
const STRUCTURE = new Set(['id', 'parentId', 'components', 'prefab', 'children']);
/** The root's fields every instance has its own value of. */
export const DEFAULT_OVERRIDES = new Set(['name', 'position', 'rotation']);
const TRANSFORM_FIELDS = new Set(['position', 'rotation', 'scale']);

export function noOverrides(): Overrides {
  return { modifications: [], addedComponents: [], removedComponents: [], addedObjects: [], removedObjects: [] };
}

export function countOverrides(o: Overrides): number {
  return o.modifications.length + o.addedComponents.length + o.removedComponents.length + o.addedObjects.length + o.removedObjects.length;
}

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value) && !isStoredReference(value);
}

/**
 * The prefab's objects as an instance of it would hold them: scene ids from `ids` (prefab id →
 * scene id), new ones from `allocate` (recorded in `ids`), links set, references inside the
 * prefab remapped. The root goes under `parentId`.
 */
export function materialize(file: PrefabFile, asset: string, ids: Map<number, number>, allocate: () => number, parentId: number | null): GameObject[] {
  const objects = flatten(file);
  for (const o of objects) if (!ids.has(o.id)) ids.set(o.id, allocate());
  return objects.map((o, n) => {
    const copy = remapReferences(o, (id) => ids.get(id)) as GameObject;
    return {
      ...copy,
      id: ids.get(o.id)!,
      parentId: n === 0 ? parentId : ids.get(o.parentId!)!,
      prefab: { asset, source: o.id, ...(n === 0 ? { root: true as const } : {}) },
    };
  });
}

function diffValues(expected: unknown, actual: unknown, path: string[], out: (path: string[], value: unknown) => void): void {
  if (isPlainObject(expected) && isPlainObject(actual)) {
    for (const key of new Set([...Object.keys(expected), ...Object.keys(actual)])) diffValues(expected[key], actual[key], [...path, key], out);
    return;
  }
  if (expected === undefined && actual === undefined) return;
  if (expected === undefined || actual === undefined || canonicalJson(expected) !== canonicalJson(actual)) out(path, structuredClone(actual));
}

function byType(components: readonly Component[]): Map<string, Component[]> {
  const out = new Map<string, Component[]>();
  for (const c of components) (out.get(c.type) ?? out.set(c.type, []).get(c.type)!).push(c);
  return out;
}

function withoutType(component: Component): Record<string, unknown> {
  const { type: _type, ...rest } = component;
  return rest;
}

/** How the instance rooted at `root` (in `objects`) differs from `file`. */
export function overridesOf(objects: readonly GameObject[], root: GameObject, file: PrefabFile): Overrides {
  const out = noOverrides();
  const parts = instanceParts(objects, root);
  const ids = new Map([...parts.linked].map(([source, o]) => [source, o.id]));
  let placeholder = -1;
  const expected = materialize(file, root.prefab!.asset, ids, () => placeholder--, root.parentId);
  const present = new Set<number>();
  for (const [n, e] of expected.entries()) {
    const source = e.prefab!.source;
    const actual = parts.linked.get(source);
    const parentSource = n === 0 ? undefined : expected.find((p) => p.id === e.parentId)?.prefab?.source;
    if (!actual) {
      if (parentSource === undefined || present.has(parentSource)) out.removedObjects.push(source);
      continue;
    }
    present.add(source);
    const fields = new Set([...Object.keys(e), ...Object.keys(actual)].filter((k) => !STRUCTURE.has(k) && !(n === 0 && DEFAULT_OVERRIDES.has(k))));
    const e1 = e as unknown as Record<string, unknown>;
    const a1 = actual as unknown as Record<string, unknown>;
    for (const key of fields) diffValues(e1[key], a1[key], [key], (path, value) => out.modifications.push({ source, path, value }));
    const wanted = byType(e.components);
    const has = byType(actual.components);
    for (const type of new Set([...wanted.keys(), ...has.keys()])) {
      const w = wanted.get(type) ?? [];
      const h = has.get(type) ?? [];
      for (let index = 0; index < Math.max(w.length, h.length); index++) {
        const [wc, hc] = [w[index], h[index]];
        if (wc && hc) diffValues(withoutType(wc), withoutType(hc), [], (path, value) => out.modifications.push({ source, component: { type, index }, path, value }));
        else if (hc) out.addedComponents.push({ source, component: structuredClone(hc) });
        else out.removedComponents.push({ source, type, index });
      }
    }
  }
  out.addedObjects = parts.added.map((o) => o.id);
  return out;
}

function setPath(target: Record<string, unknown>, path: readonly string[], value: unknown): void {
  if (path.length === 0) return;
  let container = target;
  for (const key of path.slice(0, -1)) {
    if (!isPlainObject(container[key])) container[key] = {};
    container = container[key] as Record<string, unknown>;
  }
  const last = path[path.length - 1]!;
  if (value === undefined) delete container[last];
  else container[last] = structuredClone(value);
}

function nthOfType(object: GameObject, type: string, index: number): Component | undefined {
  return object.components.filter((c) => c.type === type)[index];
}

/** `overrides` laid over materialized prefab objects; returns them without the removed GameObjects. */
export function applyOverrides(objects: GameObject[], overrides: Overrides): GameObject[] {
  const bySource = new Map(objects.map((o) => [o.prefab!.source, o]));
  for (const m of overrides.modifications) {
    const object = bySource.get(m.source);
    const target = m.component ? (object ? nthOfType(object, m.component.type, m.component.index) : undefined) : object;
    if (target) setPath(target as unknown as Record<string, unknown>, m.path, m.value);
  }
  const removals = [...overrides.removedComponents].sort((a, b) => b.index - a.index);
  for (const r of removals) {
    const object = bySource.get(r.source);
    const component = object ? nthOfType(object, r.type, r.index) : undefined;
    if (object && component) object.components = object.components.filter((c) => c !== component);
  }
  for (const a of overrides.addedComponents) bySource.get(a.source)?.components.push(structuredClone(a.component));
  const gone = new Set<number>();
  for (const source of overrides.removedObjects) {
    const top = bySource.get(source);
    if (!top) continue;
    gone.add(top.id);
    let grew = true;
    while (grew) {
      grew = false;
      for (const o of objects) {
        if (o.parentId !== null && gone.has(o.parentId) && !gone.has(o.id)) {
          gone.add(o.id);
          grew = true;
        }
      }
    }
  }
  return objects.filter((o) => !gone.has(o.id));
}

/** The overrides by path, for the tools' answers: computed on the objects before anything changes. */
export function summarize(objects: readonly GameObject[], root: GameObject, file: PrefabFile, overrides: Overrides): OverridesSummary {
  const byId = byIdOf(objects);
  const parts = instanceParts(objects, root);
  const pathOfSource = (source: number): string => {
    const object = parts.linked.get(source);
    if (object) return pathIn(byId, object);
    // A prefab object the instance lacks: where it would be, under its nearest parent that is there.
    const prefab = new Map(flatten(file).map((o) => [o.id, o]));
    const names: string[] = [];
    for (let current = prefab.get(source); current; current = current.parentId === null ? undefined : prefab.get(current.parentId)) {
      const there = parts.linked.get(current.id);
      if (there && current.id !== source) return `${pathIn(byId, there)}/${names.join('/')}`;
      names.unshift(current.name);
    }
    return `/${names.join('/')}`;
  };
  const targets = new Map<string, { path: string; target: string }>();
  for (const m of overrides.modifications) {
    const target = m.component?.type ?? (TRANSFORM_FIELDS.has(m.path[0] ?? '') ? 'Transform' : 'GameObject');
    const path = pathOfSource(m.source);
    targets.set(`${path}\u0000${target}`, { path, target });
  }
  return {
    propertyOverrides: [...targets.values()],
    addedComponents: overrides.addedComponents.map((a) => ({ path: pathOfSource(a.source), type: a.component.type })),
    removedComponents: overrides.removedComponents.map((r) => ({ path: pathOfSource(r.source), type: r.type })),
    addedGameObjects: overrides.addedObjects.map((id) => pathIn(byId, byId.get(id)!)),
    removedGameObjects: overrides.removedObjects.map(pathOfSource),
  };
}
