/**
 * Prefab mode: one prefab open for editing (Unity's PrefabStage). Its contents are a scene of
 * their own, and while it is open that scene is the one the GameObject tools see (the tool
 * context's `scene`), its root at "/<prefab name>"; the loaded scenes stay loaded, and the
 * active scene stays active (SceneManager.GetActiveScene does not return a prefab stage in
 * Unity either). Edits in it are undo steps like any; opening, saving and closing are not.
 *
 * The contents live in Library/Tether/PrefabStage/ so they survive domain reloads, as Unity
 * keeps prefab mode open across them; an editor started anew does not reopen it.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { canonicalJson } from '../../protocol/canonical-json.js';
import { TetherError } from '../../protocol/index.js';
import { nameOf } from '../assets/asset-paths.js';
import type { Project } from '../project.js';
import type { SceneFile } from '../game-object.js';
import { Scene } from '../scene.js';
import { sceneFileOf } from '../scene-paths.js';
import type { SceneSet } from '../scenes.js';
import type { UndoTarget } from '../undo.js';
import { subtree } from './instance-parts.js';
import { flatten, loadPrefab, nest, type PrefabFile } from './prefab-file.js';
import { prefabAssetsUndo } from './prefab-sync.js';

const STAGE_FOLDER = 'Library/Tether/PrefabStage';
/** The stage's contents, as a scene of their own ("X.unity", kept in "X.json"), every edit written to that file at once. */
const CONTENTS = `${STAGE_FOLDER}/contents.unity`;
const CONTENTS_FILE = sceneFileOf(CONTENTS);

interface StageRecord {
  assetPath: string;
  pid: number;
}

/** The open prefab: its asset and the scene holding its contents. */
export interface PrefabStage {
  assetPath: string;
  scene: Scene;
}

/** The stage of each scene set (one per main thread). */
const stages = new WeakMap<SceneSet, PrefabStage>();

function recordPath(project: Project): string {
  return join(project.root, STAGE_FOLDER, 'stage.json');
}

/** The prefab open in prefab mode, if any. */
export function currentStage(scenes: SceneSet): PrefabStage | undefined {
  return stages.get(scenes);
}

/** Opens `assetPath` in prefab mode (its contents, with the prefab's own ids). */
export function openStage(project: Project, scenes: SceneSet, assetPath: string, file: PrefabFile): PrefabStage {
  const data: SceneFile = { name: nameOf(assetPath), nextId: file.nextId, objects: flatten(file) };
  const stage: PrefabStage = { assetPath, scene: new Scene(project, CONTENTS, { data, workingFile: CONTENTS_FILE }) };
  stage.scene.commit();
  project.writeJson(recordPath(project), { assetPath, pid: process.pid } satisfies StageRecord);
  setStage(scenes, stage);
  return stage;
}

/** Leaves prefab mode, dropping the stage's contents. */
export function closeStage(project: Project, scenes: SceneSet): void {
  setStage(scenes, undefined);
  rmSync(join(project.root, STAGE_FOLDER), { recursive: true, force: true });
}

/** The prefab the stage's contents make, or INVALID_ARGUMENTS when they are not one (a prefab has one root). */
export function stageContents(stage: PrefabStage, tool: string): PrefabFile {
  const roots = stage.scene.children(null);
  if (roots.length !== 1) {
    const problem = `the prefab's contents have ${roots.length} root GameObjects (${roots.map((r) => `"/${r.name}"`).join(', ')}), and a prefab has exactly one`;
    throw new TetherError(
      'INVALID_ARGUMENTS',
      `Invalid arguments for ${tool}: save: ${problem}. Move the others under the root (reparent_gameobject) or delete them, then save; or close without saving.`,
      {
        tool,
        field: 'save',
        problem,
      },
    );
  }
  const data = stage.scene.snapshot();
  const objects = subtree(data.objects, roots[0]!.id).map(({ prefab: _link, ...o }) => o);
  const file = nest(objects, data.nextId);
  file.root.name = nameOf(stage.assetPath);
  return file;
}

/** Whether the stage's contents differ from the prefab asset on disk. */
export function stageIsDirty(project: Project, stage: PrefabStage): boolean {
  const onDisk = loadPrefab(project, stage.assetPath);
  if (!onDisk) return true;
  const data = stage.scene.snapshot();
  return canonicalJson(data.objects) !== canonicalJson(flatten(onDisk));
}

function setStage(scenes: SceneSet, stage: PrefabStage | undefined): void {
  if (stage) stages.set(scenes, stage);
  else stages.delete(scenes);
  scenes.stage = stage?.scene;
}

/**
 * Called once per scene set, as the main thread starts: reopens the prefab mode a domain
 * reload interrupted (not one an earlier editor process left), and makes undo groups cover
 * the stage's contents and the prefab assets instances come from.
 */
export function attachPrefabs(scenes: SceneSet, project: Project): void {
  const record = project.readJson<StageRecord | undefined>(recordPath(project), undefined);
  if (record && record.pid === process.pid) {
    setStage(scenes, { assetPath: record.assetPath, scene: new Scene(project, CONTENTS, { workingFile: CONTENTS_FILE }) });
  } else if (record) {
    rmSync(join(project.root, STAGE_FOLDER), { recursive: true, force: true });
  }
  scenes.undoExtras.set('prefab-stage', stageUndo(scenes) as UndoTarget<unknown>);
  scenes.undoExtras.set('prefab-assets', prefabAssetsUndo(project, scenes) as UndoTarget<unknown>);
}

/** The open stage's contents, restored only into the same prefab's stage (opening and closing are not undone). */
function stageUndo(scenes: SceneSet): UndoTarget<{ assetPath: string; data: SceneFile } | null> {
  return {
    capture: () => {
      const stage = currentStage(scenes);
      return stage ? { assetPath: stage.assetPath, data: stage.scene.snapshot() } : null;
    },
    restore: (state) => {
      const stage = currentStage(scenes);
      if (!state || !stage || stage.assetPath !== state.assetPath) return;
      if (canonicalJson(stage.scene.snapshot()) !== canonicalJson(state.data)) stage.scene.replace(state.data);
    },
  };
}
