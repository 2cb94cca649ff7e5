/**
 * Object references in serialized fields. An agent writes and reads them as
 * {"asset": "Assets/…"} (an asset; "name" picks a built-in resource, "component" a component of
 * a prefab's root), {"gameObject": "/Path"} or {"gameObject": "/Path", "component": "Type"}
 * (scene objects, only from a scene), or null. A scene stores GameObjects by id, as Unity by
 * file id, so a reference outlives a rename or a move. Each is checked against the field's type
 * as Unity's ObjectField checks it.
 */
import { existsSync } from 'node:fs';
import { extname, posix } from 'node:path';
import { typeByExtension } from '../assets/asset-types.js';
import { SHADERS } from '../assets/shaders.js';
import { namesComponent, shortName } from '../component-names.js';
import type { Project } from '../project.js';
import type { Component, GameObject } from '../game-object.js';
import type { Scene } from '../scene.js';
import { sceneFileOf } from '../scene-paths.js';
import type { StoredReference } from './field-spec.js';
import { isAssignable, isComponentType, type ScriptBases } from './object-types.js';
import { ValueProblem, type ReferenceCodec } from './values.js';

/** Unity's built-in resources: not files, but assets at these paths holding objects by name. */
export const BUILTIN_RESOURCES: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  'Library/unity default resources': { Cube: 'Mesh', Sphere: 'Mesh', Capsule: 'Mesh', Cylinder: 'Mesh', Plane: 'Mesh', Quad: 'Mesh', Arial: 'Font' },
  'Resources/unity_builtin_extra': {
    'Default-Material': 'Material',
    'Sprites-Default': 'Material',
    'Default-Line': 'Material',
    'Default-Particle': 'Material',
    'Default-Skybox': 'Material',
    ...Object.fromEntries([...SHADERS.keys()].map((name) => [name, 'Shader'])),
    UISprite: 'Sprite',
    Background: 'Sprite',
    Knob: 'Sprite',
  },
};

/** What a reference may point at from where the object lives. */
export interface ReferenceScope {
  project: Project;
  bases: ScriptBases;
  /** The scene holding the object: GameObjects in it may be referenced. Absent for assets, which cannot reference scene objects. */
  scene?: Scene;
  /** What a .asset or .prefab file holds: { type } and, for a prefab, its root (targets.ts reads these). */
  readAsset(path: string): { type: string; root?: GameObject } | undefined;
}

const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

export function referenceCodec(scope: ReferenceScope): ReferenceCodec {
  return {
    toStored: (value, objectType, label) => toStored(scope, value, objectType, label),
    toOutput: (stored) => toOutput(scope, stored),
  };
}

function toStored(scope: ReferenceScope, value: unknown, objectType: string, label: string): StoredReference {
  const hint = `Give {"asset": "Assets/…"}${scope.scene ? ', {"gameObject": "/Path"}, {"gameObject": "/Path", "component": "Type"}' : ''} or null.`;
  const problem = (why: string): never => {
    throw new ValueProblem(`${label} takes a ${objectType}, and ${why}`, hint);
  };
  if (value === null) return null;
  if (!isRecord(value)) problem(`${JSON.stringify(value)} is no reference`);
  const record = value as Record<string, unknown>;
  const unknownKey = Object.keys(record).find((key) => !['asset', 'name', 'component', 'gameObject'].includes(key));
  if (unknownKey !== undefined) problem(`a reference has no key "${unknownKey}"`);
  const component = record.component;
  if (component !== undefined && typeof component !== 'string') problem('"component" must be a type name');
  if (typeof record.gameObject === 'string') {
    if (!scope.scene) problem('an asset cannot reference a scene object (Unity would drop it on save); reference an asset instead');
    const scene = scope.scene as Scene;
    const object = scene.find(record.gameObject);
    if (!object) problem(`there is no GameObject at "${record.gameObject}" in the scene "${scene.name}"`);
    const picked = pick(scope, object as GameObject, component as string | undefined, objectType, `"${record.gameObject}"`, problem);
    return picked === undefined ? { gameObjectId: (object as GameObject).id } : { gameObjectId: (object as GameObject).id, component: picked };
  }
  if (typeof record.asset !== 'string') problem('a reference names an "asset" or a "gameObject"');
  const asset = (record.asset as string).replaceAll('\\', '/');
  const builtins = BUILTIN_RESOURCES[asset];
  if (builtins) {
    const type = typeof record.name === 'string' ? builtins[record.name] : undefined;
    if (!type)
      problem(
        `"${asset}" holds ${Object.keys(builtins)
          .map((n) => `"${n}"`)
          .join(', ')}: give one as "name"`,
      );
    if (!isAssignable(type as string, objectType, scope.bases)) problem(`"${record.name}" is a ${type}`);
    return { asset, name: record.name as string };
  }
  if (record.name !== undefined) problem('"name" picks one of Unity\'s built-in resources only; give the asset\'s path alone');
  const full = scope.project.resolveInside(asset);
  const relative = posix.normalize(full.slice(scope.project.root.length + 1).replaceAll('\\', '/'));
  const type = assetType(scope, relative);
  if (type === undefined) problem(`there is no asset at "${relative}"`);
  if (type === 'GameObject' && (component !== undefined || isComponentType(objectType, scope.bases))) {
    const root = scope.readAsset(relative)?.root;
    if (!root) problem(`"${relative}" has no components to reference`);
    const picked = pick(scope, root as GameObject, component as string | undefined, objectType, `"${relative}"`, problem);
    return { asset: relative, component: picked as string };
  }
  if (component !== undefined) problem(`"${relative}" is a ${type}, not a prefab with components`);
  // A texture imported as a sprite holds its Sprite: Unity's ObjectField takes the image for a Sprite field.
  if (!isAssignable(type as string, objectType, scope.bases) && !(objectType === 'Sprite' && type === 'Texture2D')) problem(`"${relative}" is a ${type}`);
  return { asset: relative };
}

/** The component of `object` a reference means: the one named, or the first that fits the field; undefined for the GameObject itself. */
function pick(scope: ReferenceScope, object: GameObject, component: string | undefined, objectType: string, where: string, problem: (why: string) => never): string | undefined {
  const types = object.components.map((c: Component) => c.type);
  if (component !== undefined) {
    const found = types.find((type) => namesComponent(type, component));
    if (!found) problem(`${where} has no ${component} (its components: ${types.join(', ')})`);
    if (!isAssignable(shortName(found as string), objectType, scope.bases)) problem(`a ${component} is no ${objectType}`);
    return found;
  }
  if (isAssignable('GameObject', objectType, scope.bases)) return undefined;
  const fitting = types.find((type) => isAssignable(shortName(type), objectType, scope.bases));
  if (!fitting) problem(`${where} has no component that is one (its components: ${types.join(', ')})`);
  return fitting;
}

/** The type of the asset at a project-relative path, or undefined when there is none. */
export function assetType(scope: Pick<ReferenceScope, 'project' | 'readAsset'>, path: string): string | undefined {
  const extension = extname(path).toLowerCase();
  if (extension === '.unity') return existsSync(scope.project.resolveInside(sceneFileOf(path))) ? 'SceneAsset' : undefined;
  if (!existsSync(scope.project.resolveInside(path))) return undefined;
  if (extension === '.asset') return scope.readAsset(path)?.type ?? 'ScriptableObject';
  return typeByExtension(path);
}

function toOutput(scope: ReferenceScope, stored: unknown): unknown {
  if (typeof stored === 'string') {
    const holder = Object.keys(BUILTIN_RESOURCES).find((path) => BUILTIN_RESOURCES[path]?.[stored]) ?? 'Library/unity default resources';
    return { asset: holder, name: stored };
  }
  if (!isRecord(stored)) return null;
  if (typeof stored.gameObjectId === 'number') {
    const object = scope.scene?.byId(stored.gameObjectId);
    // A deleted object: Unity shows "Missing"; the reference reads as none.
    if (!object || !scope.scene) return null;
    const path = scope.scene.pathOf(object);
    return typeof stored.component === 'string' ? { gameObject: path, component: shortName(stored.component) } : { gameObject: path };
  }
  // Written by hand or by another tool: a path, as the asset files' convention has it.
  if (typeof stored.gameObject === 'string') return { gameObject: stored.gameObject, ...(typeof stored.component === 'string' ? { component: stored.component } : {}) };
  if (typeof stored.asset !== 'string') return null;
  return { asset: stored.asset, ...(typeof stored.name === 'string' ? { name: stored.name } : {}), ...(typeof stored.component === 'string' ? { component: stored.component } : {}) };
}
