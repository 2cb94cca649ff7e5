/**
 * The scenes the sandbox editor has loaded (Unity's SceneManager and EditorSceneManager): one
 * or more, one of them active (the one the GameObject tools read and edit, and where new
 * objects go), and the scene assets under Assets/. The setup (which are loaded, which is
 * active) survives domain reloads and restarts in Library/, as Unity reopens its scenes.
 *
 * The sandbox saves every edit at once, so its scenes are never dirty; Unity's are until saved.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { TetherError } from '../protocol/index.js';
import { closestNames } from '../schema/suggest.js';
import type { Project } from './project.js';
import type { GameObject, SceneFile } from './game-object.js';
import { Scene } from './scene.js';
import { isSceneFile, sceneFileOf, sceneNameOf, scenePathOfFile } from './scene-paths.js';
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
    this.loaded = paths.map((path) => this.load(path));
    this.activeIndex = Math.max(0, paths.indexOf(setup.active));
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
      isDirty: false,
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

  /** Opens a scene asset: alone (closing the others) or beside them. NOT_FOUND with the closest paths when there is none. */
  open(path: string, additive: boolean, tool: string): Scene {
    if (!this.assetExists(path)) {
      const assets = this.assets();
      const suggestions = closestNames(path, assets);
      const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
      throw new TetherError('NOT_FOUND', `${tool}: no scene at "${path}".${hint} list_scenes shows the project's scenes; create_scene makes a new one.`, { path, suggestions });
    }
    const already = this.find(path);
    if (additive) {
      if (already) return already;
      const scene = this.load(path);
      this.loaded.push(scene);
      this.setupChanged();
      return scene;
    }
    const scene = this.load(path);
    this.loaded = [scene];
    this.activeIndex = 0;
    this.setupChanged();
    return scene;
  }

  /** Creates and saves a new scene at `path`, then loads it (alone, and active; or beside the others). */
  create(path: string, additive: boolean, template: NewSceneTemplate, tool: string): Scene {
    if (this.assetExists(path)) {
      const problem = `a scene already exists at "${path}"`;
      throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem}. Open it with open_scene, or choose another path.`, { tool, field: 'path', problem });
    }
    const data: SceneFile = { name: sceneNameOf(path), nextId: 1, objects: [] };
    const scene = new Scene(this.project, path, data, () => this.changes++);
    if (template === 'default') {
      scene.create({ name: 'Main Camera', tag: 'MainCamera', position: [0, 1, -10], components: [{ type: 'Camera' }, { type: 'AudioListener' }] });
      scene.create({ name: 'Directional Light', position: [0, 3, 0], rotation: [50, -30, 0], components: [{ type: 'Light', properties: { type: 'Directional' } }] });
    }
    scene.save();
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
    scene.save();
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

  private load(path: string): Scene {
    return new Scene(this.project, path, undefined, () => this.changes++);
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
