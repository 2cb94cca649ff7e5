/**
 * The sandbox project's assets as files: which files and folders under Assets/ are assets
 * (Unity skips names starting with "." or ending with "~", and ".meta" files), where each
 * one's content lives (a scene "X.unity" in "X.json", scene-paths.ts), and its ".meta"
 * sidecar: JSON beside it, "X.mat.meta", holding its GUID (and labels), as Unity's does. The
 * GUID is given once and moves with the asset, so what names an asset by GUID survives a move.
 */
import { randomBytes } from 'node:crypto';
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import type { Project } from '../project.js';
import { isSceneFile, SCENE_EXTENSION, sceneFileOf, scenePathOfFile } from '../scene-paths.js';

export interface AssetMeta {
  guid: string;
  labels?: string[];
  folderAsset?: boolean;
}

/** An asset as found on disk. */
export interface AssetEntry {
  /** As Unity names it: "Assets/Scenes/Level1.unity". */
  path: string;
  /** The file or folder holding it, project-relative: "Assets/Scenes/Level1.json". */
  file: string;
  isFolder: boolean;
}

/** Names Unity does not import. */
export function isIgnored(name: string): boolean {
  return name.startsWith('.') || name.endsWith('~') || name.endsWith('.meta') || name.endsWith('.tmp');
}

export class AssetFiles {
  constructor(readonly project: Project) {}

  full(relative: string): string {
    return join(this.project.root, relative);
  }

  /** The file or folder holding the asset at `path` (a scene's JSON for ".unity"). */
  fileOf(path: string): string {
    return path.endsWith(SCENE_EXTENSION) ? sceneFileOf(path) : path;
  }

  metaPathOf(path: string): string {
    return `${path}.meta`;
  }

  /** The asset at `path`, if there is one. */
  entry(path: string): AssetEntry | undefined {
    if (path === 'Assets') return { path, file: path, isFolder: true };
    const file = this.fileOf(path);
    if (path.split('/').some(isIgnored)) return undefined;
    let stats;
    try {
      stats = statSync(this.full(file));
    } catch {
      return undefined;
    }
    if (path.endsWith(SCENE_EXTENSION) && !this.holdsScene(file)) return undefined;
    // A scene's JSON is how the sandbox stores the ".unity" asset, not an asset of its own.
    if (path.endsWith('.json') && this.holdsScene(path)) return undefined;
    return { path, file, isFolder: stats.isDirectory() };
  }

  /** Every asset under `folder` (itself not included), folders before their contents, in name order. */
  walk(folder = 'Assets'): AssetEntry[] {
    const found: AssetEntry[] = [];
    const visit = (relative: string): void => {
      let entries;
      try {
        entries = readdirSync(this.full(relative), { withFileTypes: true }).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
      } catch {
        return;
      }
      for (const item of entries) {
        if (isIgnored(item.name)) continue;
        const child = `${relative}/${item.name}`;
        if (item.isDirectory()) {
          found.push({ path: child, file: child, isFolder: true });
          visit(child);
        } else if (item.name.endsWith('.json') && this.holdsScene(child)) {
          found.push({ path: scenePathOfFile(child), file: child, isFolder: false });
        } else {
          found.push({ path: child, file: child, isFolder: false });
        }
      }
    };
    visit(folder);
    return found;
  }

  /** Reads an asset's meta, creating it (with a new GUID) when it has none, as Unity does on import. */
  meta(entry: AssetEntry): AssetMeta {
    const path = this.full(this.metaPathOf(entry.path));
    const meta = this.project.readJson<AssetMeta | undefined>(path, undefined);
    if (meta && typeof meta.guid === 'string' && /^[0-9a-f]{32}$/.test(meta.guid)) return meta;
    const created: AssetMeta = { guid: randomBytes(16).toString('hex'), ...(entry.isFolder ? { folderAsset: true } : {}) };
    this.project.writeJson(path, created);
    return created;
  }

  hasMeta(path: string): boolean {
    return existsSync(this.full(this.metaPathOf(path)));
  }

  /** The JSON content of a file (materials, ScriptableObjects, prefabs, scenes), or undefined. */
  readJson(file: string): unknown {
    try {
      return JSON.parse(readFileSync(this.full(file), 'utf8')) as unknown;
    } catch {
      return undefined;
    }
  }

  private holdsScene(file: string): boolean {
    return file.endsWith('.json') && isSceneFile(this.readJson(file));
  }
}
