/**
 * Prefab assets as the sandbox keeps them: "Assets/…/X.prefab" is JSON,
 * {"type":"Prefab","root":…,"nextId":n}, the root a GameObject as scene files store one, its
 * children nested under "children" (each again such a GameObject). Ids are the prefab's own
 * (Unity's file ids): an instance's objects name the one they come from by it, and `nextId`
 * keeps an id from being given twice, so a link never lands on another object.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, posix } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import { assetPath, nameOf } from '../assets/asset-paths.js';
import type { Project } from '../project.js';
import type { GameObject } from '../game-object.js';

export const PREFAB_EXTENSION = '.prefab';

/** A GameObject of a prefab asset, with its children. */
export interface PrefabObject extends GameObject {
  children?: PrefabObject[];
}

export interface PrefabFile {
  type: 'Prefab';
  root: PrefabObject;
  nextId: number;
}

/** A prefab as the prefab tools describe it. */
export interface PrefabInfo extends Record<string, unknown> {
  assetPath: string;
  name: string;
  objects: number;
}

/** Whether parsed JSON is a sandbox prefab. */
export function isPrefabFile(value: unknown): value is PrefabFile {
  if (typeof value !== 'object' || value === null) return false;
  const file = value as Record<string, unknown>;
  return file.type === 'Prefab' && typeof file.root === 'object' && file.root !== null;
}

/** The prefab's objects, root first, each parent before its children, without "children". */
export function flatten(file: PrefabFile): GameObject[] {
  const out: GameObject[] = [];
  const visit = (node: PrefabObject, parentId: number | null): void => {
    const { children, ...object } = node;
    out.push({ ...structuredClone(object), parentId });
    for (const child of children ?? []) visit(child, node.id);
  };
  visit(file.root, null);
  return out;
}

/** A prefab whose objects are `objects` (root first; parents by parentId, the root's ignored). */
export function nest(objects: readonly GameObject[], nextId: number): PrefabFile {
  const nodes = new Map<number, PrefabObject>(objects.map((o) => [o.id, { ...structuredClone(o) }]));
  const [first] = objects;
  if (!first) throw new Error('A prefab has a root.');
  const root = nodes.get(first.id)!;
  root.parentId = null;
  for (const object of objects.slice(1)) {
    const parent = object.parentId === null ? undefined : nodes.get(object.parentId);
    const node = nodes.get(object.id)!;
    if (!parent) continue;
    (parent.children ??= []).push(node);
  }
  const maxId = Math.max(...objects.map((o) => o.id));
  return { type: 'Prefab', root, nextId: Math.max(nextId, maxId + 1) };
}

export function describePrefab(path: string, file: PrefabFile): PrefabInfo {
  return { assetPath: path, name: nameOf(path), objects: flatten(file).length };
}

/**
 * The project-relative path of an existing prefab asset `input` names, and its contents.
 * PATH_OUTSIDE_PROJECT outside the project; INVALID_ARGUMENTS for a path that is not a
 * ".prefab" or not a prefab; NOT_FOUND with the closest prefabs when there is none.
 */
export function readPrefab(project: Project, input: string, tool: string, field = 'assetPath'): { path: string; file: PrefabFile } {
  const path = assetPath(project, input, tool, field, 'read');
  if (posix.extname(path) !== PREFAB_EXTENSION) {
    const problem = `"${input}" is not a prefab (${PREFAB_EXTENSION})`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. Give a prefab asset's path, e.g. "Assets/Prefabs/Enemy.prefab".`, { tool, field, problem });
  }
  let text: string;
  try {
    text = readFileSync(project.resolveInside(path), 'utf8');
  } catch {
    const suggestions = closestNames(path, prefabAssets(project));
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
    throw new TetherError('NOT_FOUND', `${tool}: no prefab at "${path}".${hint} find_assets with "t:Prefab" lists the project's prefabs; create_prefab makes one.`, { path, suggestions });
  }
  const file = parse(text);
  if (!file) {
    const problem = `"${path}" is not a prefab this editor can read`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. Give a prefab asset's path.`, { tool, field, problem });
  }
  return { path, file };
}

/** The prefab at a project-relative path, or undefined when there is none (or it is unreadable). */
export function loadPrefab(project: Project, path: string): PrefabFile | undefined {
  try {
    return parse(readFileSync(project.resolveInside(path), 'utf8'));
  } catch {
    return undefined;
  }
}

export function writePrefab(project: Project, path: string, file: PrefabFile): void {
  project.writeJson(project.resolveInside(path), file);
}

/** The prefab assets under Assets/, sorted. */
export function prefabAssets(project: Project): string[] {
  const found: string[] = [];
  const walk = (relative: string): void => {
    let entries;
    try {
      entries = readdirSync(join(project.root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      const child = `${relative}/${entry.name}`;
      if (entry.isDirectory()) walk(child);
      else if (entry.name.endsWith(PREFAB_EXTENSION)) found.push(child);
    }
  };
  walk('Assets');
  return found.sort();
}

function parse(text: string): PrefabFile | undefined {
  try {
    const value: unknown = JSON.parse(text);
    if (!isPrefabFile(value)) return undefined;
    const file: PrefabFile = { type: 'Prefab', root: value.root, nextId: typeof value.nextId === 'number' ? value.nextId : 1 };
    completed(file);
    return file;
  } catch {
    return undefined;
  }
}

/**
 * A prefab written by hand may leave out what a GameObject has by default (as a new one in
 * Unity: active, untagged, at the origin, with a Transform), its ids or nextId: filled in,
 * ids after the highest given, nextId past every id.
 */
function completed(file: PrefabFile): void {
  const nodes: PrefabObject[] = [];
  const collect = (node: PrefabObject): void => {
    nodes.push(node);
    for (const child of node.children ?? []) collect(child);
  };
  collect(file.root);
  let next = Math.max(file.nextId, ...nodes.map((n) => (typeof n.id === 'number' ? n.id + 1 : 1)));
  const visit = (node: PrefabObject, parentId: number | null): void => {
    if (typeof node.id !== 'number') node.id = next++;
    node.parentId = parentId;
    node.name ??= 'GameObject';
    node.active ??= true;
    node.tag ??= 'Untagged';
    node.position ??= [0, 0, 0];
    node.rotation ??= [0, 0, 0];
    node.scale ??= [1, 1, 1];
    node.components ??= [];
    if (!node.components.some((c) => c.type === 'Transform')) node.components.unshift({ type: 'Transform' });
    for (const child of node.children ?? []) visit(child, node.id);
  };
  visit(file.root, null);
  file.nextId = next;
}
