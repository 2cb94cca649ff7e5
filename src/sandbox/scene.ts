/**
 * The sandbox scene: GameObjects with a transform and components, persisted as JSON. A loaded
 * scene, as Unity's, has unsaved changes until it is saved: each edit is written at once to its
 * working copy under Library/ (scene-paths.ts workingCopyOf), so that it survives domain reloads
 * and a crash of the editor, and only a save writes the scene asset under Assets/.
 */
import { rmSync } from 'node:fs';
import { TetherError } from '../protocol/index.js';
import type { Project } from './project.js';
import { isSceneFile, sceneFileOf, sceneNameOf, workingCopyOf } from './scene-paths.js';
import type { Component, GameObject, HierarchyNode, SceneFile, Vector3 } from './game-object.js';
import { prefabStatus } from './prefabs/prefab-status.js';
import { remapReferences } from './serialized/stored-references.js';
import { findAtPath, inHierarchyOrder, moveToLastChild } from './hierarchy-order.js';
import { unityEuler } from './euler-angles.js';

export interface SceneOptions {
  /** The contents of a new scene; default: the working copy, when the scene has unsaved changes, else the asset. */
  data?: SceneFile;
  /** Hears of every change of the contents (the scene set counts them). */
  onChange?: () => void;
  /**
   * The file every edit is written to at once, project-relative. Default: the scene's working
   * copy in Library/, which a save removes. The prefab stage keeps its contents in a file of its
   * own (and never saves them as a scene).
   */
  workingFile?: string;
}

export class Scene {
  private data: SceneFile;
  private changes = 0;
  private dirty: boolean;
  private readonly workingFile: string | undefined;
  private readonly onChange: () => void;

  /** The scene saved at `path` ("Assets/Scenes/SampleScene.unity"), with its unsaved changes if it has any (options.data for a new one). */
  constructor(
    private readonly project: Project,
    private assetPath: string,
    options: SceneOptions = {},
  ) {
    this.workingFile = options.workingFile;
    this.onChange = options.onChange ?? (() => undefined);
    const working = options.data === undefined ? project.readJson<unknown>(this.workingPath, undefined) : undefined;
    const recovered = isSceneFile(working) ? (working as SceneFile) : undefined;
    this.dirty = recovered !== undefined && this.workingFile === undefined;
    this.data = options.data ?? recovered ?? project.readJson<SceneFile>(this.assetFile, { name: sceneNameOf(assetPath), nextId: 1, objects: [] });
  }

  /** Whether the scene has changes its asset does not (Unity's Scene.isDirty): since an edit, until a save. */
  get isDirty(): boolean {
    return this.dirty;
  }

  get name(): string {
    return this.data.name;
  }

  /** The scene's asset path, e.g. "Assets/Scenes/SampleScene.unity". */
  get path(): string {
    return this.assetPath;
  }

  /** A deep copy of the scene's contents (undo snapshots). */
  snapshot(): SceneFile {
    return structuredClone(this.data);
  }

  /** Replaces the contents (undo, redo, a tool that edits a copy): an edit. */
  replace(data: SceneFile): void {
    this.data = structuredClone(data);
    this.commit();
  }

  /**
   * Replaces the contents by what a change elsewhere made of them, which is no edit of the scene
   * (an asset it references moved, a prefab it instantiates changed): it stays as dirty or as
   * clean as it was, and its working copy, when it has one, follows.
   */
  follow(data: SceneFile): void {
    this.data = structuredClone(data);
    if (this.dirty) this.project.writeJson(this.workingPath, this.data);
    this.changed();
  }

  /** The objects as the scene file lists them (creation order); what an agent sees in order comes from walk(). */
  get objects(): readonly GameObject[] {
    return this.data.objects;
  }

  /** Every object in hierarchy order: roots in scene order, children in sibling order, depth-first. */
  walk(): GameObject[] {
    return inHierarchyOrder(this.data.objects);
  }

  /** Counts the changes of the contents: a different count means the hierarchy may have changed. */
  get revision(): number {
    return this.changes;
  }

  /**
   * Records an edit of the contents (every tool that edits calls it, or replace): written at once
   * to the working copy, and the scene has unsaved changes until it is saved.
   */
  commit(): void {
    this.project.writeJson(this.workingPath, this.data);
    this.dirty = true;
    this.changed();
  }

  /** Writes the contents to the scene asset (EditorSceneManager.SaveScene): no unsaved changes left. */
  saveAsset(): void {
    this.project.writeJson(this.assetFile, this.data);
    this.dropWorkingCopy();
  }

  /** Saves to another path, which becomes the scene's own (Unity's Save As); the old asset stays as it was last saved. */
  saveAs(path: string): void {
    this.dropWorkingCopy();
    this.assetPath = path;
    this.data.name = sceneNameOf(path);
    this.saveAsset();
  }

  /** Follows its asset moved to `path` (AssetDatabase.MoveAsset): the unsaved changes, if any, stay unsaved. */
  moveTo(path: string): void {
    const before = this.workingPath;
    this.assetPath = path;
    this.data.name = sceneNameOf(path);
    if (this.dirty) {
      this.project.writeJson(this.workingPath, this.data);
      rmSync(before, { force: true });
    }
    this.changed();
  }

  /** Forgets the unsaved changes, as the scene closes without saving. */
  discard(): void {
    this.dropWorkingCopy();
  }

  private get assetFile(): string {
    return this.project.resolveInside(sceneFileOf(this.assetPath));
  }

  private get workingPath(): string {
    return this.project.resolveInside(this.workingFile ?? workingCopyOf(this.assetPath));
  }

  private dropWorkingCopy(): void {
    if (this.workingFile === undefined) rmSync(this.workingPath, { force: true });
    this.dirty = false;
  }

  private changed(): void {
    this.changes++;
    this.onChange();
  }

  pathOf(object: GameObject): string {
    const parts: string[] = [];
    let current: GameObject | undefined = object;
    while (current) {
      parts.unshift(current.name);
      current = current.parentId === null ? undefined : this.byId(current.parentId);
    }
    return `/${parts.join('/')}`;
  }

  byId(id: number): GameObject | undefined {
    return this.data.objects.find((o) => o.id === id);
  }

  /** Finds by path ("/Root/Child"); names may repeat in Unity: the first in hierarchy order wins, as there. */
  find(path: string): GameObject | undefined {
    return findAtPath(this.data.objects, path);
  }

  require(path: string): GameObject {
    const found = this.find(path);
    if (found) return found;
    throw new TetherError('NOT_FOUND', `No GameObject at "${path}". Use get_hierarchy or find_gameobjects to see what exists.`, { path });
  }

  create(init: { name: string; parent?: string; position?: Vector3; rotation?: Vector3; scale?: Vector3; components?: Component[]; tag?: string; layer?: number }): GameObject {
    const parent = init.parent ? this.require(init.parent) : undefined;
    const object: GameObject = {
      id: this.data.nextId++,
      name: init.name,
      parentId: parent?.id ?? null,
      active: true,
      tag: init.tag ?? 'Untagged',
      position: init.position ?? [0, 0, 0],
      // As Unity keeps it: the rotation it reads back from the quaternion (-90 is 270).
      rotation: unityEuler(init.rotation ?? [0, 0, 0]),
      scale: init.scale ?? [1, 1, 1],
      components: [{ type: 'Transform' }, ...(init.components ?? [])],
      ...(init.layer ? { layer: init.layer } : {}),
    };
    this.data.objects.push(object);
    this.commit();
    return object;
  }

  /** Deletes an object and its children; returns how many objects went. */
  delete(path: string): number {
    const root = this.require(path);
    const doomed = new Set<number>([root.id]);
    let grew = true;
    while (grew) {
      grew = false;
      for (const o of this.data.objects) {
        if (o.parentId !== null && doomed.has(o.parentId) && !doomed.has(o.id)) {
          doomed.add(o.id);
          grew = true;
        }
      }
    }
    this.data.objects = this.data.objects.filter((o) => !doomed.has(o.id));
    this.commit();
    return doomed.size;
  }

  /** Moves an object (with its children) under `parentId` (null: the scene root), last among its new siblings. */
  reparent(object: GameObject, parentId: number | null): void {
    moveToLastChild(this.data.objects, object, parentId);
    this.commit();
  }

  /** Copies an object and its children under `parentId` (null: the scene root), named `name`; returns the copy. */
  duplicate(original: GameObject, parentId: number | null, name: string): GameObject {
    const copies = new Map<number, GameObject>();
    const copyOf = (o: GameObject, parent: number | null): void => {
      const copy: GameObject = { ...structuredClone(o), id: this.data.nextId++, parentId: parent };
      copies.set(o.id, copy);
      this.data.objects.push(copy);
      for (const child of this.children(o.id)) if (!copies.has(child.id)) copyOf(child, copy.id);
    };
    copyOf(original, parentId);
    // As Unity's Instantiate does: references inside the copied hierarchy point at the copies;
    // those to objects outside it still point where they did.
    const copyIdOf = (id: number): number => copies.get(id)?.id ?? id;
    for (const copy of copies.values()) copy.components = remapReferences(copy.components, copyIdOf) as Component[];
    const root = copies.get(original.id) as GameObject;
    root.name = name;
    this.commit();
    return root;
  }

  /** Whether `object` is `ancestor` or below it. */
  isWithin(object: GameObject, ancestor: GameObject): boolean {
    for (let current: GameObject | undefined = object; current; current = current.parentId === null ? undefined : this.byId(current.parentId)) {
      if (current.id === ancestor.id) return true;
    }
    return false;
  }

  children(id: number | null): GameObject[] {
    return this.data.objects.filter((o) => o.parentId === id);
  }

  hierarchy(rootPath?: string, depth = Infinity): HierarchyNode[] {
    const roots = rootPath ? [this.require(rootPath)] : this.children(null);
    const build = (o: GameObject, level: number): HierarchyNode => {
      const kids = this.children(o.id);
      return {
        name: o.name,
        path: this.pathOf(o),
        active: o.active,
        components: o.components.map((c) => c.type),
        ...prefabStatus(this.project, this.data.objects, o),
        ...(kids.length > 0 && level < depth ? { children: kids.map((k) => build(k, level + 1)) } : {}),
      };
    };
    return roots.map((r) => build(r, 1));
  }

  describe(o: GameObject): Record<string, unknown> {
    return {
      id: o.id,
      name: o.name,
      path: this.pathOf(o),
      active: o.active,
      tag: o.tag,
      position: o.position,
      // What Unity's localEulerAngles reads back, whatever form the file holds (a hand-written -90).
      rotation: unityEuler(o.rotation),
      scale: o.scale,
      layer: o.layer ?? 0,
      components: o.components.map((c) => ({ type: c.type })),
      ...prefabStatus(this.project, this.data.objects, o),
    };
  }
}
