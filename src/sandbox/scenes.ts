/**
 * The scenes the sandbox editor has loaded (Unity's SceneManager and EditorSceneManager): one
 * or more, one of them active (the one the GameObject tools read and edit, and where new
 * objects go), and the scene assets under Assets/. The setup (which are loaded, which is
 * active) survives domain reloads and restarts in Library/, as Unity reopens its scenes.
 *
 * As in Unity, an edit leaves its scene with unsaved changes (dirty) until save_scene writes
 * the asset; opening or creating a scene alone closes the loaded ones, which is refused while
 * any has unsaved changes unless the caller says to save or to discard them. The unsaved
 * changes live in each scene's working copy under Library/Tether/scenes/ (scene.ts), so they
 * survive domain reloads, as Unity keeps its scenes in native memory across them, and also a
 * crash or restart of the editor (where Unity has at most its scene backup): what a finished
 * call did to a scene is never lost, and tests can count it after a kill.
 */
import { readdirSync, readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { TetherError } from '../protocol/index.js';
import { closestNames } from '../schema/suggest.js';
import type { Project } from './project.js';
import type { GameObject, SceneFile } from './game-object.js';
import { Scene } from './scene.js';
import { isSceneFile, sceneFileOf, sceneNameOf, scenePathOfFile, WORKING_COPIES, workingCopyOf } from './scene-paths.js';
import type { UndoTarget } from './undo.js';

export const DEFAULT_SCENE = 'Assets/Scenes/SampleScene.unity';

/** A scene as the scene tools describe it (the same shape in Unity). */
export interface SceneInfo extends Record<string, unknown> {
  name: string;
  path: string;
  isLoaded: boolean;
  isActive: boolean;
  isDirty: boolean;
  rootCount: number;
}

/** Every loaded scene's contents, by path: what one undo group restores. */
export type ScenesSnapshot = Record<string, SceneFile>;

interface SceneSetup {
  loaded: string[];
  active: string;
}

export type NewSceneTemplate = 'empty' | 'default';

/** What open_scene and create_scene do with loaded scenes that have unsaved changes when they close them. */
export type UnsavedChanges = 'refuse' | 'save' | 'discard';

export class SceneSet {
  private loaded: Scene[];
  private activeIndex: number;
  private changes = 0;
  /** The prefab open in prefab mode (prefabs/prefab-stage.ts): the GameObject tools edit it instead of the active scene. */
  stage: Scene | undefined;
  /** What one undo group covers besides the loaded scenes (the prefab stage, prefab assets, asset files: editor-scenes.ts attaches them), each under a key no scene path has. */
  readonly undoExtras = new Map<string, UndoTarget<unknown>>();

  constructor(private readonly project: Project) {
    const setup = project.readJson<SceneSetup>(this.setupPath, { loaded: [DEFAULT_SCENE], active: DEFAULT_SCENE });
    const paths = setup.loaded.length > 0 ? setup.loaded : [DEFAULT_SCENE];
    // Their unsaved changes too: what a domain reload or a crash interrupted.
    this.loaded = paths.map((path) => this.load(path));
    this.activeIndex = Math.max(0, paths.indexOf(setup.active));
    this.dropStrayWorkingCopies();
  }

  private get setupPath(): string {
    return join(this.project.library, 'Tether', 'scene-setup.json');
  }

  /** The scene the GameObject tools act on. */
  get active(): Scene {
    return this.loaded[this.activeIndex] as Scene;
  }

  get all(): readonly Scene[] {
    return this.loaded;
  }

  /** Changes with every edit of a loaded scene and every change of the setup. */
  get revision(): number {
    return this.changes;
  }

  /** A loaded scene by path. */
  find(path: string): Scene | undefined {
    return this.loaded.find((scene) => scene.path === path);
  }

  /** The loaded scene at `path`, or NOT_FOUND naming the loaded ones. */
  requireLoaded(path: string): Scene {
    const found = this.find(path);
    if (found) return found;
    const loaded = this.loaded.map((scene) => scene.path);
    throw new TetherError('NOT_FOUND', `No loaded scene at "${path}". Loaded: ${loaded.join(', ')}. Open it first with open_scene.`, { path, loaded });
  }

  /** The scene assets under Assets/, sorted. */
  assets(): string[] {
    const found: string[] = [];
    const walk = (relative: string): void => {
      let entries;
      try {
        entries = readdirSync(join(this.project.root, relative), { withFileTypes: true });
      } catch {
        return;
      }
      for (const entry of entries) {
        const child = `${relative}/${entry.name}`;
        if (entry.isDirectory()) walk(child);
        else if (entry.name.endsWith('.json') && this.holdsScene(child)) found.push(scenePathOfFile(child));
      }
    };
    walk('Assets');
    for (const scene of this.loaded) if (!found.includes(scene.path)) found.push(scene.path);
    return found.sort();
  }

  info(scene: Scene): SceneInfo {
    return {
      name: scene.name,
      path: scene.path,
      isLoaded: this.loaded.includes(scene),
      isActive: scene === this.active,
      isDirty: scene.isDirty,
      rootCount: scene.children(null).length,
    };
  }

  /** Describes a scene asset, loaded or not. */
  assetInfo(path: string): SceneInfo {
    const scene = this.find(path);
    if (scene) return this.info(scene);
    const data = this.project.readJson<SceneFile>(this.project.resolveInside(sceneFileOf(path)), { name: sceneNameOf(path), nextId: 1, objects: [] });
    return { name: sceneNameOf(path), path, isLoaded: false, isActive: false, isDirty: false, rootCount: data.objects.filter((o) => o.parentId === null).length };
  }

  /**
   * Opens a scene asset as last saved: alone (closing the loaded scenes, `unsaved` saying what
   * to do with their unsaved changes; the scene itself, when loaded, is reopened from its asset)
   * or beside them. NOT_FOUND with the closest paths when there is none.
   */
  open(path: string, additive: boolean, unsaved: UnsavedChanges, tool: string): Scene {
    if (!this.assetExists(path)) {
      const assets = this.assets();
      const suggestions = closestNames(path, assets);
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
      throw new TetherError('NOT_FOUND', `${tool}: no scene at "${path}".${hint} list_scenes shows the project's scenes; create_scene makes a new one.`, { path, suggestions });
    }
    const already = this.find(path);
    if (additive) {
      if (already) return already;
      const scene = this.loadSaved(path);
      this.loaded.push(scene);
      this.setupChanged();
      return scene;
    }
    this.closeAll(unsaved, tool);
    const scene = this.loadSaved(path);
    this.loaded = [scene];
    this.activeIndex = 0;
    this.setupChanged();
    return scene;
  }

  /** Creates and saves a new scene at `path`, then loads it (alone, and active, closing the others as open does; or beside them). */
  create(path: string, additive: boolean, template: NewSceneTemplate, unsaved: UnsavedChanges, tool: string): Scene {
    if (this.assetExists(path)) {
      const problem = `a scene already exists at "${path}"`;
      throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem}. Open it with open_scene, or choose another path.`, { tool, field: 'path', problem });
    }
    if (!additive) this.closeAll(unsaved, tool);
    const data: SceneFile = { name: sceneNameOf(path), nextId: 1, objects: [] };
    const scene = new Scene(this.project, path, { data, onChange: () => this.changes++ });
    if (template === 'default') {
      scene.create({ name: 'Main Camera', tag: 'MainCamera', position: [0, 1, -10], components: [{ type: 'Camera' }, { type: 'AudioListener' }] });
      scene.create({ name: 'Directional Light', position: [0, 3, 0], rotation: [50, -30, 0], components: [{ type: 'Light', properties: { type: 'Directional' } }] });
    }
    scene.saveAsset();
    if (additive) {
      this.loaded.push(scene);
    } else {
      this.loaded = [scene];
      this.activeIndex = 0;
    }
    this.setupChanged();
    return scene;
  }

  /** Makes a loaded scene the active one. */
  setActive(scene: Scene): void {
    const index = this.loaded.indexOf(scene);
    if (index < 0 || index === this.activeIndex) return;
    this.activeIndex = index;
    this.setupChanged();
  }

  /** Saves a loaded scene, in place or as another asset (which it becomes). */
  save(scene: Scene, saveAs: string | undefined, tool: string): void {
    if (saveAs !== undefined && saveAs !== scene.path) {
      if (this.assetExists(saveAs)) {
        const problem = `a scene already exists at "${saveAs}"`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: saveAs: ${problem}. Choose another path; save_scene never overwrites another scene.`, {
          tool,
          field: 'saveAs',
          problem,
        });
      }
      if (this.find(saveAs)) throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: saveAs: "${saveAs}" is loaded.`, { tool, field: 'saveAs' });
      scene.saveAs(saveAs);
      this.setupChanged();
      return;
    }
    scene.saveAsset();
  }

  /**
   * A loaded scene's asset moved to `to` (move_asset, rename_asset): the asset file goes there as
   * it was last saved, and the scene stays loaded under its new path with its unsaved changes.
   */
  move(scene: Scene, to: string): void {
    const from = this.project.resolveInside(sceneFileOf(scene.path));
    const saved = this.project.readJson<SceneFile>(from, scene.snapshot());
    this.project.writeJson(this.project.resolveInside(sceneFileOf(to)), { ...saved, name: sceneNameOf(to) });
    rmSync(from, { force: true });
    scene.moveTo(to);
    this.setupChanged();
  }

  /**
   * Closes every loaded scene, as opening or creating one alone does, after dealing with their
   * unsaved changes as the Unity package's SceneFileTools.HandleUnsaved does: "refuse" fails with
   * INVALID_ARGUMENTS naming them (ScenePaths.UnsavedToHandle, word for word) and changes nothing;
   * "save" saves them first; "discard" drops them.
   */
  private closeAll(unsaved: UnsavedChanges, tool: string): void {
    this.dealWithUnsaved(unsaved, tool, ' would be lost. Save them first (save_scene), or call again with unsavedChanges "save" or "discard".');
  }

  /**
   * Before a test run, as the Unity package's TestRunRules.ScenesToSave: Unity's Test Runner
   * would first ask in a modal dialog about loaded scenes with unsaved changes. "refuse" fails
   * with INVALID_ARGUMENTS naming them, word for word; "save" saves them. (No sandbox scene is
   * untitled, so none lacks a path to save to.)
   */
  saveBeforeTests(unsaved: 'refuse' | 'save'): void {
    this.dealWithUnsaved(
      unsaved,
      'run_tests',
      ': Unity\'s Test Runner would first ask in a dialog whether to save them, holding the editor until someone answers. Save them (save_scene), or call again with unsavedChanges "save".',
    );
  }

  /** The loaded scenes' unsaved changes: refused (`rest` says why and what to do), saved, or discarded. */
  private dealWithUnsaved(unsaved: UnsavedChanges, tool: string, rest: string): void {
    const dirty = this.loaded.filter((scene) => scene.isDirty);
    if (dirty.length > 0 && unsaved === 'refuse') {
      const scenes = dirty.map((scene) => scene.path);
      const problem = `unsaved changes in ${scenes.map((s) => `"${s}"`).join(', ')}`;
      throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: unsavedChanges: ${problem}${rest}`, { tool, field: 'unsavedChanges', problem, scenes });
    }
    for (const scene of dirty) {
      if (unsaved === 'save') scene.saveAsset();
      else scene.discard();
    }
  }

  /** What undo snapshots: the loaded scenes' contents; restoring touches only scenes still loaded. */
  get undoTarget(): UndoTarget<ScenesSnapshot> {
    return {
      capture: () =>
        ({
          ...Object.fromEntries(this.loaded.map((scene) => [scene.path, scene.snapshot()])),
          ...Object.fromEntries([...this.undoExtras].map(([key, target]) => [key, target.capture()])),
        }) as ScenesSnapshot,
      restore: (state) => {
        for (const scene of this.loaded) {
          const data = state[scene.path];
          if (data && JSON.stringify(data) !== JSON.stringify(scene.snapshot())) scene.replace(data);
        }
        for (const [key, target] of this.undoExtras) if (key in state) target.restore(state[key]);
      },
    };
  }

  /** Every loaded scene's objects with the scene they belong to. */
  objects(): Array<{ scene: Scene; object: GameObject }> {
    return this.loaded.flatMap((scene) => scene.objects.map((object) => ({ scene, object })));
  }

  /** The scene at `path` as the editor left it, with its unsaved changes (a reload's, a crash's). */
  private load(path: string): Scene {
    return new Scene(this.project, path, { onChange: () => this.changes++ });
  }

  /** The scene at `path` as its asset has it: opening a scene reads it from disk. */
  private loadSaved(path: string): Scene {
    rmSync(this.project.resolveInside(workingCopyOf(path)), { force: true });
    return this.load(path);
  }

  /** Removes the working copies of scenes that are not loaded (left by an editor that stopped between writing one and closing its scene). */
  private dropStrayWorkingCopies(): void {
    const folder = this.project.resolveInside(WORKING_COPIES);
    let files: string[];
    try {
      files = readdirSync(folder, { recursive: true, encoding: 'utf8' });
    } catch {
      return;
    }
    // Compared without case: on Windows and macOS a scene opened as "assets/scenes/a.unity" has
    // its working copy in the "Assets/Scenes/" folder already there, and a case-sensitive match
    // would take it for a stray and delete its unsaved changes. Keeping a real stray that differs
    // from a loaded scene by case only costs nothing.
    const kept = new Set(this.loaded.map((scene) => workingCopyOf(scene.path).toLowerCase()));
    for (const file of files) {
      const relative = `${WORKING_COPIES}/${file.replaceAll('\\', '/')}`;
      if (relative.endsWith('.unity.json') && !kept.has(relative.toLowerCase())) rmSync(join(folder, file), { force: true });
    }
  }

  private assetExists(path: string): boolean {
    return this.holdsScene(sceneFileOf(path));
  }

  private holdsScene(file: string): boolean {
    try {
      return isSceneFile(JSON.parse(readFileSync(this.project.resolveInside(file), 'utf8')));
    } catch {
      return false;
    }
  }

  private setupChanged(): void {
    this.changes++;
    this.project.writeJson(this.setupPath, { loaded: this.loaded.map((scene) => scene.path), active: this.active.path } satisfies SceneSetup);
  }
}
