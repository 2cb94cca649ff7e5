/**
 * Moving, renaming and deleting assets in the sandbox, as AssetDatabase.MoveAsset and
 * MoveAssetToTrash do in Unity: the ".meta" (so the GUID) goes along, a loaded scene that
 * moves keeps being the loaded scene at its new path, and what referenced the asset still
 * does (asset-references.ts). Deleting moves the asset into Library/Trash/, the sandbox's
 * trash, where it can be recovered by hand. None of this is an undo step, in Unity either.
 */
import { existsSync, mkdirSync, readdirSync, renameSync, rmdirSync } from 'node:fs';
import { join, posix } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import { SCENE_EXTENSION, scenePathOfFile } from '../scene-paths.js';
import type { AssetDatabase } from './asset-database.js';
import type { AssetEntry } from './asset-files.js';
import { assetTaken, isWithin, parentOf } from './asset-paths.js';
import { retargeted } from './asset-references.js';

function refuse(tool: string, field: string, problem: string, hint: string): never {
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem });
}

/** Checks a move of `from` to `to` before anything changes (MoveAsset's own refusals, said plainly). */
export function checkMove(db: AssetDatabase, from: AssetEntry, to: string, tool: string, field: string): void {
  if (to === from.path) refuse(tool, field, `"${to}" is where the asset already is`, 'Give another path.');
  if (db.files.entry(to) || existsSync(db.files.full(db.files.fileOf(to))))
    throw assetTaken(tool, field, to, 'Move or delete that asset first, or choose another path; an asset is never overwritten.');
  if (from.isFolder && isWithin(to, from.path)) refuse(tool, field, `"${to}" is inside "${from.path}"`, 'A folder cannot be moved into itself.');
  if (!from.isFolder && posix.extname(to).toLowerCase() !== posix.extname(from.path).toLowerCase()) {
    refuse(tool, field, `"${to}" changes the extension of "${from.path}"`, `Keep "${posix.extname(from.path)}": the extension decides how the asset is imported.`);
  }
  const folder = db.files.entry(parentOf(to));
  if (!folder?.isFolder) refuse(tool, field, `the folder "${parentOf(to)}" does not exist`, 'Create it first with create_folder.');
}

/** Moves (or renames) an asset; returns it at its new path. */
export function moveAsset(db: AssetDatabase, from: AssetEntry, to: string): AssetEntry {
  // Every asset moving gets its GUID now, so that it keeps it.
  db.files.meta(from);
  if (from.isFolder) for (const inner of db.files.walk(from.path)) db.files.meta(inner);
  if (from.isFolder) {
    moveFolderContents(db, from.path, to);
  } else {
    moveFile(db, from.file, db.files.fileOf(to));
  }
  renameSync(db.files.full(db.files.metaPathOf(from.path)), db.files.full(db.files.metaPathOf(to)));
  retargetReferences(db, from.path, to);
  return db.files.entry(to) as AssetEntry;
}

/** Moves an asset (with its meta) into Library/Trash/; returns where it went, project-relative. */
export function trashAsset(db: AssetDatabase, entry: AssetEntry, tool: string): string {
  const loaded = db.scenes.all.filter((scene) => isWithin(scene.path, entry.path)).map((scene) => scene.path);
  if (loaded.length > 0) {
    refuse(tool, 'path', `${loaded.map((p) => `"${p}"`).join(', ')} ${loaded.length === 1 ? 'is' : 'are'} loaded`, 'Open another scene first (open_scene), then delete it.');
  }
  db.files.meta(entry);
  const stamp = new Date().toISOString().replace(/[:.]/g, '-');
  let bin = join('Library', 'Trash', stamp);
  for (let n = 1; existsSync(join(db.project.root, bin)); n++) bin = join('Library', 'Trash', `${stamp}-${n}`);
  const target = posix.join(bin.replaceAll('\\', '/'), entry.file);
  mkdirSync(join(db.project.root, parentOf(target)), { recursive: true });
  renameSync(db.files.full(entry.file), join(db.project.root, target));
  renameSync(db.files.full(db.files.metaPathOf(entry.path)), join(db.project.root, `${posix.join(bin.replaceAll('\\', '/'), entry.path)}.meta`));
  return target;
}

/** Moves one file; a loaded scene's through the scene set, so that it stays loaded under its new path, its unsaved changes unsaved. */
function moveFile(db: AssetDatabase, file: string, target: string): void {
  const scene = file.endsWith('.json') ? db.scenes.find(scenePathOfFile(file)) : undefined;
  if (scene) {
    db.scenes.move(scene, scenePathOfFile(target));
    return;
  }
  renameSync(db.files.full(file), db.files.full(target));
}

/** Moves a folder's files one by one (metas and files Unity ignores too), then removes the emptied folders. */
function moveFolderContents(db: AssetDatabase, from: string, to: string): void {
  mkdirSync(db.files.full(to));
  for (const item of readdirSync(db.files.full(from), { withFileTypes: true })) {
    const source = `${from}/${item.name}`;
    const target = `${to}/${item.name}`;
    if (item.isDirectory()) moveFolderContents(db, source, target);
    else moveFile(db, source, target);
  }
  rmdirSync(db.files.full(from));
}

/**
 * Points every reference to `from` (or inside it) at `to`: in loaded scenes, then in the asset
 * files (the loaded scenes' too, as last saved). Unity's references are GUIDs, which a move
 * leaves alone, so this is no edit of a loaded scene: it stays as dirty or clean as it was.
 */
function retargetReferences(db: AssetDatabase, from: string, to: string): void {
  for (const scene of db.scenes.all) {
    const changed = retargeted(scene.snapshot(), from, to);
    if (changed) scene.follow(changed);
  }
  for (const entry of db.files.walk()) {
    if (entry.isFolder) continue;
    if (!/\.(mat|asset|prefab)$/.test(entry.path) && !entry.path.endsWith(SCENE_EXTENSION)) continue;
    const changed = retargeted(db.files.readJson(entry.file), from, to);
    if (changed !== undefined) db.project.writeJson(db.files.full(entry.file), changed);
  }
}
