/**
 * The sandbox's AssetDatabase: the project's assets with their GUIDs, types and labels, found
 * by path, GUID or FindAssets filter, and the folders and files the asset tools create. As
 * Unity's, its changes are not undo steps. Each call looks at the disk afresh, so assets
 * other tools write (scenes, scripts, prefabs) are seen at once, as after Unity's auto-refresh.
 */
import { mkdirSync, readdirSync, rmSync, statSync } from 'node:fs';
import { posix } from 'node:path';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import type { Project } from '../project.js';
import type { SceneSet } from '../scenes.js';
import { isWithin, nameOf, parentOf } from './asset-paths.js';
import { AssetFiles, type AssetEntry } from './asset-files.js';
import { referencedAssets } from './asset-references.js';
import { parseFilter, passes } from './asset-search.js';
import { FOLDER_TYPE, typeByExtension, typeMatches } from './asset-types.js';
import { ScriptCatalog } from '../serialized/script-fields.js';

/** An asset as the asset tools describe it (the same shape in Unity). */
export interface AssetSummary extends Record<string, unknown> {
  path: string;
  guid: string;
  name: string;
  type: string;
  isFolder: boolean;
}

export interface AssetDetails extends AssetSummary {
  size: number;
  labels: string[];
  dependencies: string[];
}

interface Known extends AssetEntry {
  guid: string;
  labels: string[];
}

export class AssetDatabase {
  readonly files: AssetFiles;
  private catalog: ScriptCatalog | undefined;

  constructor(
    readonly project: Project,
    readonly scenes: SceneSet,
  ) {
    this.files = new AssetFiles(project);
  }

  /** The project's script classes (the serialized-field tools' catalog), read once per database (one tool call). */
  get scripts(): ScriptCatalog {
    this.catalog ??= new ScriptCatalog(this.project);
    return this.catalog;
  }

  /** The asset at `path`, or NOT_FOUND with the closest paths. */
  require(path: string, tool: string, field = 'path'): AssetEntry {
    const found = this.files.entry(path);
    if (found) return found;
    // Not the folders the path goes through: they exist, so they are not what was mistyped.
    const suggestions = closestNames(
      path,
      this.files
        .walk()
        .map((e) => e.path)
        .filter((candidate) => !isWithin(path, candidate)),
    );
    const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
    throw new TetherError('NOT_FOUND', `${tool}: no asset at "${path}" (${field}).${hint} find_assets lists the project's assets.`, { tool, field, path, suggestions });
  }

  /** The folder at `path` (Packages/ taken as is: the sandbox has no packages), or NOT_FOUND / INVALID_ARGUMENTS. */
  requireFolder(path: string, tool: string, field: string): string {
    if (isWithin(path, 'Packages')) return path;
    if (this.require(path, tool, field).isFolder) return path;
    const problem = `"${path}" is a file, not a folder`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. Give a folder, e.g. "${parentOf(path)}".`, { tool, field, problem });
  }

  /** The asset whose GUID is `guid`, or NOT_FOUND. */
  requireGuid(guid: string, tool: string): AssetEntry {
    const found = this.files.walk().find((entry) => this.files.hasMeta(entry.path) && this.files.meta(entry).guid === guid.toLowerCase());
    if (found) return found;
    throw new TetherError('NOT_FOUND', `${tool}: no asset has the GUID "${guid}". It may have been deleted; find_assets lists the project's assets.`, { tool, guid });
  }

  describe(entry: AssetEntry): AssetSummary {
    // A folder's name is all of it ("Art.v2"); a file's has no extension.
    return { path: entry.path, guid: this.files.meta(entry).guid, name: entry.isFolder ? posix.basename(entry.path) : nameOf(entry.path), type: this.typeOf(entry), isFolder: entry.isFolder };
  }

  details(entry: AssetEntry): AssetDetails {
    return { ...this.describe(entry), size: this.sizeOf(entry), labels: this.files.meta(entry).labels ?? [], dependencies: this.dependenciesOf(entry) };
  }

  /** Unity's main asset type (a ScriptableObject asset's is its class). */
  typeOf(entry: AssetEntry): string {
    if (entry.isFolder) return FOLDER_TYPE;
    if (entry.path.endsWith('.asset')) {
      const data = this.files.readJson(entry.file) as { type?: unknown } | undefined;
      return typeof data?.type === 'string' ? data.type : 'ScriptableObject';
    }
    return typeByExtension(entry.path);
  }

  /** FindAssets: the assets under `folders` that pass `filter`, in path order. */
  find(filter: string, folders: readonly string[], tool: string): AssetSummary[] {
    const parsed = parseFilter(filter, tool);
    const within = (path: string): boolean => folders.some((folder) => isWithin(path, folder) && path !== folder);
    const matches: AssetSummary[] = [];
    for (const entry of this.files.walk()) {
      if (!within(entry.path)) continue;
      const known = this.known(entry);
      const type = this.typeOf(entry);
      const bases = type === FOLDER_TYPE || !entry.path.endsWith('.asset') ? [] : this.basesOfAsset(type);
      // A folder is found by its name or "t:Folder", never by another type, as in Unity.
      if (passes(parsed, { name: nameOf(entry.path), labels: known.labels }, (wanted) => typeMatches(type, wanted, bases))) matches.push(this.describe(entry));
    }
    // Ordinal, as the Unity package sorts them (localeCompare would put "b" before "C").
    return matches.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0));
  }

  /** Gives every asset a meta (a GUID) and removes the metas of assets gone: what Unity's Refresh does. */
  refresh(): { imported: string[]; removed: string[] } {
    const imported: string[] = [];
    for (const entry of this.files.walk()) {
      if (this.files.hasMeta(entry.path)) continue;
      this.files.meta(entry);
      imported.push(entry.path);
    }
    const removed: string[] = [];
    const sweep = (folder: string): void => {
      for (const item of readdirSync(this.files.full(folder), { withFileTypes: true })) {
        const child = `${folder}/${item.name}`;
        if (item.isDirectory() && !item.name.startsWith('.') && !item.name.endsWith('~')) sweep(child);
        else if (item.name.endsWith('.meta') && !this.files.entry(child.slice(0, -'.meta'.length))) {
          rmSync(this.files.full(child));
          removed.push(child.slice(0, -'.meta'.length));
        }
      }
    };
    sweep('Assets');
    return { imported, removed };
  }

  /** Creates `path` and any missing folders above it; returns those created, outermost first. */
  createFolder(path: string, tool = 'create_folder'): string[] {
    const created: string[] = [];
    const parts = path.split('/');
    for (let i = 2; i <= parts.length; i++) {
      const folder = parts.slice(0, i).join('/');
      const existing = this.files.entry(folder);
      if (existing?.isFolder) continue;
      if (existing) {
        const problem = `"${folder}" is a file, not a folder`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem}. Choose another path.`, { tool, field: 'path', problem });
      }
      mkdirSync(this.files.full(folder));
      this.files.meta({ path: folder, file: folder, isFolder: true });
      created.push(folder);
    }
    return created;
  }

  /** Writes a new asset's JSON at `path` (its folder created if missing) and gives it a meta. */
  createJsonAsset(path: string, content: unknown, tool: string): AssetEntry {
    this.createFolder(parentOf(path), tool);
    this.project.writeJson(this.files.full(path), content);
    const entry: AssetEntry = { path, file: path, isFolder: false };
    this.files.meta(entry);
    return entry;
  }

  private known(entry: AssetEntry): Known {
    const meta = this.files.meta(entry);
    return { ...entry, guid: meta.guid, labels: meta.labels ?? [] };
  }

  /** A ScriptableObject asset's class's bases, nearest first (a class the scripts no longer declare: ScriptableObject). */
  private basesOfAsset(type: string): string[] {
    const bases: string[] = [];
    for (let base = this.scripts.bases.get(type); base !== undefined && !bases.includes(base); base = this.scripts.bases.get(base)) bases.push(base);
    return bases.length > 0 ? bases : ['ScriptableObject'];
  }

  private sizeOf(entry: AssetEntry): number {
    if (!entry.isFolder) return statSync(this.files.full(entry.file)).size;
    return this.files.walk(entry.path).reduce((sum, child) => sum + (child.isFolder ? 0 : statSync(this.files.full(child.file)).size), 0);
  }

  /** The assets this one references directly (GetDependencies(path, false)). */
  private dependenciesOf(entry: AssetEntry): string[] {
    if (entry.isFolder) return [];
    const loaded = this.scenes.find(entry.path);
    const data = loaded ? loaded.snapshot() : /\.(mat|asset|prefab|unity)$/.test(entry.path) ? this.files.readJson(entry.file) : undefined;
    return referencedAssets(data).filter((path) => path !== entry.path);
  }
}
