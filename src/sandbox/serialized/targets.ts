/**
 * What the serialized-property tools read and write, found from their `target` argument, as
 * Unity's SerializedObject wraps one object: a component of a GameObject in the active scene;
 * a component of a GameObject in a prefab file; a ScriptableObject (.asset) or a Material
 * (.mat). Each gives its fields as a PropertyTree and writes them back in one go.
 */
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import { assetPath, type AssetAccess } from '../assets/asset-paths.js';
import { namesComponent } from '../component-names.js';
import { readPrefab, writePrefab, type PrefabObject } from '../prefabs/prefab-file.js';
import { syncInstances } from '../prefabs/prefab-sync.js';
import type { Project } from '../project.js';
import type { Component, GameObject } from '../game-object.js';
import type { Scene } from '../scene.js';
import type { SceneSet } from '../scenes.js';
import { assetFilesEndingWith } from './asset-files.js';
import { componentSchema, guessedNote, inferFields, readComponent, writeComponent } from './component-values.js';
import type { FieldMap, FieldSpec } from './field-spec.js';
import { MATERIAL_FIELDS, materialValues, withMaterialValues, type MaterialFile } from './material-layout.js';
import { PropertyTree } from './property-tree.js';
import { referenceCodec, type ReferenceScope } from './references.js';
import { ScriptCatalog } from './script-fields.js';
import { normalize, type ReferenceCodec } from './values.js';

export interface TargetArgs {
  gameObject?: string | undefined;
  component?: string | undefined;
  index: number;
  asset?: string | undefined;
}

export interface SerializedTarget {
  /** The object's type as Unity names it: "Rigidbody", "Material", "EnemyStats". */
  type: string;
  /** The object in messages and undo names: 'Rigidbody on "/Player"', '"Assets/Data/Goblin.asset"'. */
  label: string;
  tree: PropertyTree;
  refs: ReferenceCodec;
  note?: string;
  /** The asset file the object is in (undo records it before the change). */
  assetPath?: string;
  /** Writes the tree's values back (inside the caller's undo group). */
  commit(): void;
}

/** Where the tools find objects: the project, the scene the GameObject tools edit (the prefab stage's, in prefab mode), the loaded scenes. */
export interface TargetContext {
  project: Project;
  scene: Scene;
  scenes: SceneSet;
}

interface AssetFile {
  type?: string;
  fields?: Record<string, unknown>;
  root?: GameObject;
  [key: string]: unknown;
}

const ASSET_KINDS = ['.asset', '.mat', '.prefab'];

/** The object `args` names; `access` "write" refuses assets outside Assets/ (Packages/ are read-only). */
export function resolveTarget(args: TargetArgs, { project, scene, scenes }: TargetContext, tool: string, access: AssetAccess): SerializedTarget {
  const invalid = (field: string, problem: string, hint: string): never => {
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem });
  };
  const scripts = new ScriptCatalog(project);
  const readAsset = (path: string): AssetFile | undefined => project.readJson<AssetFile | undefined>(project.resolveInside(path), undefined);
  const scope = (inScene?: Scene): ReferenceScope => ({
    project,
    bases: scripts.bases,
    ...(inScene ? { scene: inScene } : {}),
    readAsset: (path) => {
      const file = readAsset(path);
      return typeof file?.type === 'string' ? { type: file.type === 'Prefab' ? 'GameObject' : file.type, ...(file.root ? { root: file.root } : {}) } : undefined;
    },
  });
  if (args.asset === undefined) {
    if (args.gameObject === undefined) invalid('target', 'it names no object', 'Give gameObject and component (a component in the active scene), or asset (a .asset, .mat or .prefab).');
    const object = scene.require(args.gameObject as string);
    const where = `"${scene.pathOf(object)}"`;
    return componentTarget(object, args, where, scripts, scope(scene), tool, () => scene.commit());
  }
  const path = assetPath(project, args.asset as string, tool, 'target.asset', access);
  const extension = posix.extname(path).toLowerCase();
  if (!ASSET_KINDS.includes(extension)) {
    invalid('target.asset', `"${path}" is not a ScriptableObject (.asset), Material (.mat) or prefab (.prefab)`, "Give one of those; a scene's objects are targets by gameObject and component.");
  }
  if (extension === '.prefab') {
    const { file: prefab } = readPrefab(project, path, tool, 'target.asset');
    const previous = structuredClone(prefab);
    const root = prefab.root;
    const object = args.gameObject === undefined ? root : findInPrefab(root, args.gameObject);
    if (!object)
      throw new TetherError('NOT_FOUND', `"${path}" has no GameObject at "${args.gameObject}". Paths in a prefab start at its root: "/${root.name}/…".`, { path, gameObject: args.gameObject });
    const target = componentTarget(object, args, `"${args.gameObject ?? `/${root.name}`}" in "${path}"`, scripts, scope(), tool, () => {
      writePrefab(project, path, prefab);
      // As in Unity, a prefab asset's change reaches its instances (their overrides kept).
      syncInstances(project, scenes, path, previous, prefab);
    });
    return { ...target, assetPath: path };
  }
  const file = readAsset(path);
  if (file === undefined) {
    if (!existsSync(project.resolveInside(path))) throw missingAsset(project, path, extension);
    invalid('target.asset', `"${path}" is not a sandbox asset file (JSON)`, 'The sandbox keeps assets as JSON; create them with the asset tools.');
  }
  const asset = file as AssetFile;
  const write = (content: unknown): void => project.writeJson(project.resolveInside(path), content);
  if (args.gameObject !== undefined || args.component !== undefined) {
    invalid('target', `"${path}" is an asset, not a GameObject with components`, 'Give asset alone; gameObject and component apply to a prefab (.prefab) or to the active scene.');
  }
  const refs = referenceCodec(scope());
  if (extension === '.mat') {
    const tree = new PropertyTree(MATERIAL_FIELDS, normalizeAll(MATERIAL_FIELDS, materialValues(asset as MaterialFile)), `"${path}"`);
    return { type: 'Material', label: `"${path}"`, tree, refs, assetPath: path, commit: () => write(withMaterialValues(asset as MaterialFile, tree.values)) };
  }
  const type = typeof asset.type === 'string' ? asset.type : 'ScriptableObject';
  const stored = asset.fields ?? {};
  const declared = scripts.scriptableObject(type) !== undefined;
  const fields = declared ? scripts.fieldsOf(type) : inferFields(stored);
  const tree = new PropertyTree(fields, normalizeAll(fields, stored), `"${path}"`);
  return {
    type,
    label: `"${path}"`,
    tree,
    refs,
    assetPath: path,
    ...(declared ? {} : { note: guessedNote(type) }),
    commit: () => {
      const kept = Object.fromEntries(Object.entries(stored).filter(([name]) => !(name in fields)));
      const written = Object.fromEntries(Object.entries(tree.values).filter(([name]) => name !== 'm_Script'));
      write({ ...asset, fields: { ...written, ...kept } });
    },
  };
}

function componentTarget(object: GameObject, args: TargetArgs, where: string, scripts: ScriptCatalog, scope: ReferenceScope, tool: string, save: () => void): SerializedTarget {
  const types = object.components.map((c) => c.type);
  if (args.component === undefined) {
    const problem = `${where} is a GameObject: name one of its components (${types.join(', ')})`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: target.component: ${problem}. Its name, tag, layer and transform are also set by modify_gameobject.`, {
      tool,
      field: 'target.component',
      problem,
      components: types,
    });
  }
  const named = args.component;
  const matching = object.components.filter((c) => namesComponent(c.type, named));
  const component = matching[args.index];
  if (!component) throw componentNotFound(where, args.component, args.index, matching.length, types);
  const schema = componentSchema(component, scripts);
  const label = `${schema.type}${matching.length > 1 ? ` #${args.index}` : ''} on ${where}`;
  const tree = new PropertyTree(schema.fields, readComponent(object, component, schema), label);
  return {
    type: schema.type,
    label,
    tree,
    refs: referenceCodec(scope),
    ...(schema.note ? { note: schema.note } : {}),
    commit: () => {
      writeComponent(object, component as Component, schema, tree.values);
      save();
    },
  };
}

/** NOT_FOUND naming the GameObject's components, with the closest names when it has none of the type (remove_component's words). */
export function componentNotFound(where: string, type: string, index: number, count: number, components: string[]): TetherError {
  const suggestions = count > 0 ? [] : closestNames(type, components);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  const which = count > 0 ? `only ${count} ${type} (index ${index} asked)` : `no ${type}`;
  return new TetherError('NOT_FOUND', `${where} has ${which}.${hint} Its components: ${components.join(', ')}.`, { path: where, type, components, suggestions });
}

function normalizeAll(fields: FieldMap, stored: Record<string, unknown>): Record<string, unknown> {
  return Object.fromEntries(Object.entries(fields).map(([name, spec]: [string, FieldSpec]) => [name, normalize(spec, structuredClone(stored[name]))]));
}

/** A GameObject of a prefab by its path from the root ("/Enemy/Gun"); children are nested in "children". */
function findInPrefab(root: PrefabObject, path: string): PrefabObject | undefined {
  const names = (path.startsWith('/') ? path.slice(1) : path).split('/');
  if (names[0] !== root.name) return undefined;
  let current: PrefabObject | undefined = root;
  for (const name of names.slice(1)) {
    current = (current.children ?? []).find((child) => child.name === name);
    if (!current) return undefined;
  }
  return current;
}

function missingAsset(project: Project, path: string, extension: string): TetherError {
  const suggestions = closestNames(path, assetFilesEndingWith(project.root, extension));
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  return new TetherError('NOT_FOUND', `No asset at "${path}".${hint} Create it first (ScriptableObjects, materials and prefabs have their own tools).`, { path, suggestions });
}
