/**
 * Undo for edits of asset files (a material's shader and properties), as Unity's
 * Undo.RecordObject makes them undoable: a tool records the file before its undo group, and
 * from then on the editor's undo groups also snapshot that file's text (one of the scene
 * set's undoExtras). Creating, moving and deleting assets are not undo steps (in Unity
 * neither), so undo never brings back a file that is no longer there.
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../project.js';
import type { SceneSet } from '../scenes.js';
import type { UndoTarget } from '../undo.js';

const KEY = 'asset-files';

/** The files recorded so far, per scene set (one per main thread, so per domain). */
const recorded = new WeakMap<SceneSet, Set<string>>();

/**
 * Makes undo groups cover the recorded asset files: called once per scene set, as the main
 * thread starts, so that groups recorded before a domain reload are still undone after it.
 */
export function attachAssetUndo(scenes: SceneSet, project: Project): void {
  recorded.set(scenes, new Set());
  scenes.undoExtras.set(KEY, filesUndo(scenes, project) as UndoTarget<unknown>);
}

/** Makes the project-relative file `path` part of every undo group from now on (Undo.RecordObject). */
export function recordAssetForUndo(scenes: SceneSet, project: Project, path: string): void {
  if (!scenes.undoExtras.has(KEY)) attachAssetUndo(scenes, project);
  recorded.get(scenes)?.add(path);
}

function filesUndo(scenes: SceneSet, project: Project): UndoTarget<Record<string, string>> {
  return {
    capture: () => {
      const texts: Record<string, string> = {};
      for (const path of recorded.get(scenes) ?? []) {
        const full = join(project.root, path);
        if (existsSync(full)) texts[path] = readFileSync(full, 'utf8');
      }
      return texts;
    },
    restore: (state) => {
      for (const [path, text] of Object.entries(state)) {
        const full = join(project.root, path);
        // A file moved or deleted since is not brought back: asset operations are not undone.
        if (existsSync(full) && readFileSync(full, 'utf8') !== text) writeFileSync(full, text);
      }
    },
  };
}
