/**
 * Asset tools (Unity's AssetDatabase): find by FindAssets filter, describe one asset, create
 * folders, move, rename, delete to the trash, refresh and reimport. Paths are project-relative,
 * under Assets/ (Packages/ may be read). None of these is an undo step: Unity's Undo records
 * changes to objects, never the AssetDatabase's operations on files.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { AssetDatabase } from '../assets/asset-database.js';
import { checkMove, moveAsset, trashAsset } from '../assets/asset-moves.js';
import { assetPath, changeableAssetPath, parentOf } from '../assets/asset-paths.js';
import { assetDetails, assetSummary } from '../assets/asset-schemas.js';
import { materialTools } from './material-tools.js';
import { scriptableObjectTools } from './scriptable-object-tools.js';
import { defineTool } from './tool.js';

const moved = z.object({ asset: assetSummary, previousPath: z.string() });

const NOT_UNDOABLE = 'Not an undo step (AssetDatabase operations never are).';

/** The asset tools, then the material and ScriptableObject tools (one list for editor-tool-set.ts). */
export const assetTools = [
  defineTool({
    name: 'find_assets',
    title: 'Find assets',
    description:
      'Finds assets with an AssetDatabase.FindAssets filter: name words (each must be in the name, any case), "t:Type" (t:Material, t:Texture, t:Prefab, t:Scene, t:Folder, a ScriptableObject class; several types are alternatives) and "l:Label". An empty filter lists everything under the folders.',
    input: z.object({
      filter: z.string().max(1000).default('').describe('e.g. "t:Material red", "t:GameSettings", "l:Environment t:Prefab".'),
      folders: z.array(z.string()).min(1).max(50).default(['Assets']).describe('Search only in these folders and below, e.g. ["Assets/Art"]. Add "Packages" to search the packages too.'),
      limit: z.number().int().min(1).max(1000).default(100).describe('Return at most this many; total says how many matched.'),
    }),
    output: z.object({ count: z.number().int(), total: z.number().int(), assets: z.array(assetSummary) }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ filter, folders, limit }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const within = folders.map((folder, i) => db.requireFolder(assetPath(project, folder, 'find_assets', `folders[${i}]`, 'read'), 'find_assets', `folders[${i}]`));
      const found = db.find(filter, within, 'find_assets');
      const assets = found.slice(0, limit);
      return { count: assets.length, total: found.length, assets };
    },
  }),

  defineTool({
    name: 'get_asset_info',
    title: 'Get asset info',
    description: 'Describes one asset, by path or by GUID: its GUID, type, size, labels and the assets it references.',
    input: z.object({
      path: z.string().optional().describe('e.g. "Assets/Materials/Red.mat". Give this or guid.'),
      guid: z
        .string()
        .regex(/^[0-9a-fA-F]{32}$/, 'must be 32 hexadecimal digits')
        .optional()
        .describe('The asset\'s GUID, as find_assets gives it. Give this or path.'),
    }),
    output: z.object({ asset: assetDetails }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ path, guid }, { project, scenes }) => {
      if ((path === undefined) === (guid === undefined)) {
        const problem = path === undefined ? 'neither path nor guid was given' : 'both path and guid were given';
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for get_asset_info: path: ${problem}. Give one of them.`, { tool: 'get_asset_info', field: 'path', problem });
      }
      const db = new AssetDatabase(project, scenes);
      const entry = path !== undefined ? db.require(assetPath(project, path, 'get_asset_info', 'path', 'read'), 'get_asset_info') : db.requireGuid(guid as string, 'get_asset_info');
      return { asset: db.details(entry) };
    },
  }),

  defineTool({
    name: 'create_folder',
    title: 'Create folder',
    description: `Creates a folder under Assets/, with any missing folders above it. A folder that exists already is left as it is. ${NOT_UNDOABLE}`,
    input: z.object({ path: z.string().describe('e.g. "Assets/Art/Materials".') }),
    output: z.object({ folder: assetSummary, created: z.array(z.string()).describe('The folders created, outermost first; empty when it existed.') }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ path }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const folder = assetPath(project, path, 'create_folder');
      const created = db.createFolder(folder);
      return { folder: db.describe(db.require(folder, 'create_folder')), created };
    },
  }),

  defineTool({
    name: 'move_asset',
    title: 'Move asset',
    description: `Moves an asset or folder to a new path (its folder must exist), keeping its GUID, so references to it still hold. Never overwrites an asset; the extension stays. ${NOT_UNDOABLE}`,
    input: z.object({
      from: z.string().describe('e.g. "Assets/Red.mat".'),
      to: z.string().describe('The full new path, e.g. "Assets/Materials/Red.mat".'),
    }),
    output: moved,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ from, to }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const entry = db.require(changeableAssetPath(project, from, 'move_asset', 'from'), 'move_asset', 'from');
      const target = changeableAssetPath(project, to, 'move_asset', 'to');
      checkMove(db, entry, target, 'move_asset', 'to');
      return { asset: db.describe(moveAsset(db, entry, target)), previousPath: entry.path };
    },
  }),

  defineTool({
    name: 'rename_asset',
    title: 'Rename asset',
    description: `Renames an asset or folder in its folder, keeping its extension and GUID. Never overwrites an asset. ${NOT_UNDOABLE}`,
    input: z.object({
      path: z.string().describe('e.g. "Assets/Materials/Red.mat".'),
      newName: z
        .string()
        .min(1)
        .max(200)
        .regex(/^[^/\\]*$/, 'must not contain "/" or "\\"; use move_asset to change folders')
        .describe('The new name without the extension, e.g. "Crimson".'),
    }),
    output: moved,
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ path, newName }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const entry = db.require(changeableAssetPath(project, path, 'rename_asset'), 'rename_asset');
      const extension = entry.isFolder ? '' : (/\.[^./]*$/.exec(entry.path)?.[0] ?? '');
      if (extension !== '' && newName.toLowerCase().endsWith(extension.toLowerCase())) {
        const problem = `"${newName}" ends with the extension "${extension}"`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for rename_asset: newName: ${problem}. Give the name alone, e.g. "${newName.slice(0, -extension.length)}"; the extension stays.`, {
          tool: 'rename_asset',
          field: 'newName',
          problem,
        });
      }
      const target = `${parentOf(entry.path)}/${newName}${extension}`;
      checkMove(db, entry, target, 'rename_asset', 'newName');
      return { asset: db.describe(moveAsset(db, entry, target)), previousPath: entry.path };
    },
  }),

  defineTool({
    name: 'delete_asset',
    title: 'Delete asset',
    description:
      'Deletes an asset or folder (with everything in it) by moving it to the trash (AssetDatabase.MoveAssetToTrash; the sandbox\'s trash is Library/Trash/), from where it can be restored by hand. Where the platform has no trash the call fails unless allowPermanent is true. A loaded scene is refused. Not an undo step: undo does not bring it back.',
    input: z.object({
      path: z.string().describe('e.g. "Assets/Materials/Old.mat".'),
      allowPermanent: z.boolean().default(false).describe('Where there is no trash, delete it for good instead of failing.'),
    }),
    output: z.object({
      deleted: z.string().describe('The path it had.'),
      guid: z.string(),
      trashed: z.boolean().describe('It went to the trash (false: deleted for good, as allowPermanent allowed).'),
      trashPath: z.string().optional().describe('Where it is now, when the editor knows (the sandbox: under Library/Trash/).'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ path }, { project, scenes, console }) => {
      const db = new AssetDatabase(project, scenes);
      const entry = db.require(changeableAssetPath(project, path, 'delete_asset'), 'delete_asset');
      const { guid } = db.describe(entry);
      const trashPath = trashAsset(db, entry, 'delete_asset');
      console.write('log', `Moved ${entry.path} to the trash (${trashPath})`);
      return { deleted: entry.path, guid, trashed: true, trashPath };
    },
  }),

  defineTool({
    name: 'refresh_assets',
    title: 'Refresh assets',
    description:
      'Imports what changed on disk and forgets assets whose files are gone (AssetDatabase.Refresh), as the editor does when it regains focus. Scripts that changed are then compiled; compile_scripts waits for that and reports errors.',
    input: z.object({}),
    output: z.object({
      imported: z.array(z.string()).optional().describe('Assets seen for the first time, when the editor can tell (Unity\'s API does not say).'),
      removed: z.array(z.string()).optional().describe('Assets forgotten because their files are gone, when the editor can tell.'),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: (_args, { project, scenes }) => new AssetDatabase(project, scenes).refresh(),
  }),

  defineTool({
    name: 'reimport_asset',
    title: 'Reimport asset',
    description: 'Imports one asset again (AssetDatabase.ImportAsset with ForceUpdate), or a folder with everything in it.',
    input: z.object({ path: z.string().describe('e.g. "Assets/Textures/Wood.png".') }),
    output: z.object({ asset: assetSummary }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ path }, { project, scenes }) => {
      const db = new AssetDatabase(project, scenes);
      const entry = db.require(assetPath(project, path, 'reimport_asset'), 'reimport_asset');
      // The sandbox's import is giving each asset its meta; its content is read when used.
      if (entry.isFolder) for (const inner of db.files.walk(entry.path)) db.files.meta(inner);
      return { asset: db.describe(entry) };
    },
  }),
  ...materialTools,
  ...scriptableObjectTools,
];
