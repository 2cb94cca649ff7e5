/**
 * find_assets, get_asset_info, create_folder, move_asset, rename_asset, delete_asset,
 * refresh_assets and reimport_asset through `tether call`: good input, each kind of bad input,
 * GUIDs that survive moves, references that follow them, and that none of it is an undo step.
 * One sandbox for the file; each test works on its own assets.
 */
import { existsSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sceneText } from '../helpers/processes.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { sharedSandbox } from '../helpers/tool-session.js';

interface Asset {
  path: string;
  guid: string;
  name: string;
  type: string;
  isFolder: boolean;
}
interface Found {
  count: number;
  total: number;
  assets: Asset[];
}
interface Details extends Asset {
  size: number;
  labels: string[];
  dependencies: string[];
}

const GROUND_GUID = '5b1c0d2e8f3a4b6c9d7e1f2a3b4c5d6e';
const CHECKER_GUID = '8e2f4a6b1c3d5e7f9a0b2c4d6e8f0a1b';

const { workspace } = sharedSandbox({ mcp: false });
const onDisk = (path: string): string => join(workspace.project, path);
const json = <T>(path: string): T => JSON.parse(readFileSync(onDisk(path), 'utf8')) as T;
const paths = (found: Found): string[] => found.assets.map((a) => a.path);

describe('find_assets and get_asset_info', () => {
  it('find by name words, types (with their bases), labels and folders, with a limit', async () => {
    const find = (args: Record<string, unknown>): Promise<Found> => callOk<Found>(workspace, 'find_assets', args);
    // Independent reads: run side by side (each `tether call` is a process of its own).
    const [materials, labelled, textures, scenes, folders, combined, scripts, elsewhere, limited] = await Promise.all([
      find({ filter: 't:Material' }),
      find({ filter: 'l:Environment' }),
      find({ filter: 't:Texture' }),
      find({ filter: 't:Scene' }),
      find({ filter: 't:Folder' }),
      find({ filter: 'GROUND l:environment t:Texture t:Material' }),
      find({ filter: 't:MonoScript settings' }),
      find({ filter: 'checker', folders: ['Assets/Materials'] }),
      find({ limit: 2 }),
    ]);
    expect(materials.assets).toContainEqual({ path: 'Assets/Materials/Ground.mat', guid: GROUND_GUID, name: 'Ground', type: 'Material', isFolder: false });
    expect(paths(labelled)).toEqual(['Assets/Materials/Ground.mat', 'Assets/Textures/Checker.png']);
    expect(paths(textures)).toEqual(['Assets/Textures/Checker.png']);
    expect(scenes.assets).toEqual([expect.objectContaining({ path: 'Assets/Scenes/SampleScene.unity', type: 'SceneAsset' })]);
    expect(paths(folders)).toEqual(expect.arrayContaining(['Assets/Materials', 'Assets/Scripts', 'Assets/Editor/Tools']));
    expect(paths(combined)).toEqual(['Assets/Materials/Ground.mat']);
    expect(paths(scripts)).toEqual(['Assets/Scripts/GameSettings.cs']);
    expect(elsewhere.total).toBe(0);
    expect(limited.count).toBe(2);
    expect(limited.total).toBeGreaterThan(8);
    // Unity gives every asset a .meta with its GUID on import; the sandbox on first sight.
    expect(json<{ guid: string }>('Assets/Scenes/SampleScene.unity.meta').guid).toMatch(/^[0-9a-f]{32}$/);

    const [noType, outside, library, zero, misspelled, missingFolder, notFolder] = await Promise.all([
      callFails(workspace, 'find_assets', { filter: 't: Material' }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'find_assets', { folders: ['../elsewhere'] }, 'PATH_OUTSIDE_PROJECT'),
      callFails(workspace, 'find_assets', { folders: ['Library'] }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'find_assets', { limit: 0 }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'find_assets', { filters: 't:Material' }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'find_assets', { folders: ['Assets/Materilas'] }, 'NOT_FOUND'),
      callFails(workspace, 'find_assets', { folders: ['Assets/Materials/Ground.mat'] }, 'INVALID_ARGUMENTS'),
    ]);
    expect(noType).toContain('names no type');
    expect(outside).toContain('outside the project');
    expect(library).toContain('not under Assets/');
    expect(zero).toContain('limit');
    expect(misspelled).toContain('did you mean "filter"');
    expect(missingFolder).toContain('Did you mean "Assets/Materials"');
    expect(notFolder).toContain('not a folder');
  });

  it('describes an asset by path or GUID: size, labels, direct dependencies', async () => {
    const ground = (await callOk<{ asset: Details }>(workspace, 'get_asset_info', { path: 'Assets/Materials/Ground.mat' })).asset;
    expect(ground).toMatchObject({ guid: GROUND_GUID, type: 'Material', labels: ['Environment'], dependencies: ['Assets/Textures/Checker.png'] });
    expect(ground.size).toBe(readFileSync(onDisk('Assets/Materials/Ground.mat')).length);
    expect((await callOk<{ asset: Details }>(workspace, 'get_asset_info', { guid: CHECKER_GUID.toUpperCase() })).asset).toMatchObject({
      path: 'Assets/Textures/Checker.png',
      type: 'Texture2D',
      isFolder: false,
    });
    const folder = (await callOk<{ asset: Details }>(workspace, 'get_asset_info', { path: join(workspace.project, 'Assets', 'Scripts') })).asset;
    expect(folder).toMatchObject({ path: 'Assets/Scripts', type: 'DefaultAsset', isFolder: true, dependencies: [] });
    expect(folder.size).toBeGreaterThan(500);

    const [typo, unknown, malformed, neither, both, outside] = await Promise.all([
      callFails(workspace, 'get_asset_info', { path: 'Assets/Materials/Grond.mat' }, 'NOT_FOUND'),
      callFails(workspace, 'get_asset_info', { guid: '0'.repeat(32) }, 'NOT_FOUND'),
      callFails(workspace, 'get_asset_info', { guid: 'xyz' }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'get_asset_info', {}, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'get_asset_info', { path: 'Assets/Materials/Ground.mat', guid: GROUND_GUID }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'get_asset_info', { path: '/etc/passwd' }, 'PATH_OUTSIDE_PROJECT'),
    ]);
    expect(typo).toContain('Did you mean "Assets/Materials/Ground.mat"?');
    expect(unknown).toContain('GUID');
    expect(malformed).toContain('guid');
    expect(neither).toContain('neither path nor guid');
    expect(both).toContain('both');
    expect(outside).toContain('outside the project');
  });
});

describe('create_folder, move_asset, rename_asset', () => {
  it('create folders with their parents, once', async () => {
    const made = await callOk<{ folder: Asset; created: string[] }>(workspace, 'create_folder', { path: 'Assets/Art/Props/' });
    expect(made).toMatchObject({ folder: { path: 'Assets/Art/Props', type: 'DefaultAsset', isFolder: true }, created: ['Assets/Art', 'Assets/Art/Props'] });
    expect(json<{ guid: string; folderAsset: boolean }>('Assets/Art.meta').folderAsset).toBe(true);
    expect((await callOk<{ created: string[] }>(workspace, 'create_folder', { path: 'Assets/Art/Props' })).created).toEqual([]);
    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'create_folder', { path: 'Packages/com.me.tools' }, 'INVALID_ARGUMENTS')).resolves.toContain('read-only'),
      expect(callFails(workspace, 'create_folder', { path: '../Outside' }, 'PATH_OUTSIDE_PROJECT')).resolves.toContain('outside the project'),
      expect(callFails(workspace, 'create_folder', { path: 'Assets/Materials/Ground.mat/Inner' }, 'INVALID_ARGUMENTS')).resolves.toContain('is a file'),
    ]);
  });

  it('move and rename keep the GUID, and references follow; nothing of it is an undo step', async () => {
    const before = await callOk<{ names: string[] }>(workspace, 'undo', { steps: 100 });
    const moved = await callOk<{ asset: Asset; previousPath: string }>(workspace, 'move_asset', { from: 'Assets/Textures/Checker.png', to: 'Assets/Art/Props/Checker.png' });
    expect(moved).toEqual({ asset: { path: 'Assets/Art/Props/Checker.png', guid: CHECKER_GUID, name: 'Checker', type: 'Texture2D', isFolder: false }, previousPath: 'Assets/Textures/Checker.png' });
    expect(existsSync(onDisk('Assets/Textures/Checker.png.meta'))).toBe(false);
    expect(json<{ properties: { _MainTex: unknown } }>('Assets/Materials/Ground.mat').properties._MainTex).toEqual({ asset: 'Assets/Art/Props/Checker.png' });

    const renamed = await callOk<{ asset: Asset }>(workspace, 'rename_asset', { path: 'Assets/Art', newName: 'Artwork' });
    expect(renamed.asset).toMatchObject({ path: 'Assets/Artwork', isFolder: true });
    expect((await callOk<{ asset: Details }>(workspace, 'get_asset_info', { guid: CHECKER_GUID })).asset.path).toBe('Assets/Artwork/Props/Checker.png');
    expect((await callOk<{ asset: Details }>(workspace, 'get_asset_info', { path: 'Assets/Materials/Ground.mat' })).asset.dependencies).toEqual(['Assets/Artwork/Props/Checker.png']);
    expect((await callOk<{ asset: Asset }>(workspace, 'rename_asset', { path: 'Assets/Artwork/Props/Checker.png', newName: 'Tiles' })).asset.path).toBe('Assets/Artwork/Props/Tiles.png');

    writeFileSync(onDisk('Assets/Artwork/Taken.png'), 'x');
    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'move_asset', { from: 'Assets/Artwork/Props/Tiles.png', to: 'Assets/Materials/Tiles.mat' }, 'INVALID_ARGUMENTS')).resolves.toContain('extension'),
      expect(callFails(workspace, 'move_asset', { from: 'Assets/Artwork/Props/Tiles.png', to: 'Assets/Artwork/Taken.png' }, 'INVALID_ARGUMENTS')).resolves.toContain('already exists'),
      expect(callFails(workspace, 'move_asset', { from: 'Assets/Artwork/Props/Tiles.png', to: 'Assets/Nowhere/Tiles.png' }, 'INVALID_ARGUMENTS')).resolves.toContain('create_folder'),
      expect(callFails(workspace, 'move_asset', { from: 'Assets/Artwork', to: 'Assets/Artwork/Props/Artwork' }, 'INVALID_ARGUMENTS')).resolves.toContain('into itself'),
      expect(callFails(workspace, 'move_asset', { from: 'Assets/Artwork/Props/Gone.png', to: 'Assets/Gone.png' }, 'NOT_FOUND')).resolves.toContain('Did you mean'),
      expect(callFails(workspace, 'move_asset', { from: 'Assets', to: 'Assets2' }, 'INVALID_ARGUMENTS')).resolves.toContain('Assets folder itself'),
      expect(callFails(workspace, 'rename_asset', { path: 'Assets/Artwork/Props/Tiles.png', newName: 'a/b' }, 'INVALID_ARGUMENTS')).resolves.toContain('newName'),
      expect(callFails(workspace, 'rename_asset', { path: 'Assets/Artwork/Props/Tiles.png', newName: 'Floor.png' }, 'INVALID_ARGUMENTS')).resolves.toContain('"Floor"'),
      expect(callFails(workspace, 'rename_asset', { path: 'Assets/Artwork/Props/Tiles.png', newName: 'Tiles' }, 'INVALID_ARGUMENTS')).resolves.toContain('already is'),
    ]);

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 0, names: [] });
    expect(before.names).toEqual([]);
  });

  it('moves the loaded scene, which stays loaded under its new path', async () => {
    await callOk(workspace, 'create_folder', { path: 'Assets/Levels' });
    const moved = await callOk<{ asset: Asset }>(workspace, 'move_asset', { from: 'Assets/Scenes/SampleScene.unity', to: 'Assets/Levels/Main.unity' });
    expect(moved.asset).toMatchObject({ path: 'Assets/Levels/Main.unity', name: 'Main', type: 'SceneAsset' });
    expect(existsSync(onDisk('Assets/Levels/Main.json')) && existsSync(onDisk('Assets/Levels/Main.unity.meta'))).toBe(true);
    expect(existsSync(onDisk('Assets/Scenes/SampleScene.json'))).toBe(false);
    const active = await callOk<{ active: { path: string; name: string; rootCount: number } }>(workspace, 'get_active_scene');
    expect(active.active).toMatchObject({ path: 'Assets/Levels/Main.unity', name: 'Main', rootCount: 4 });
    await callOk(workspace, 'create_gameobject', { name: 'AfterMove' });
    expect(sceneText(workspace, 'Assets/Levels/Main.unity')).toContain('AfterMove');
    await callOk(workspace, 'save_scene');
    expect(readFileSync(onDisk('Assets/Levels/Main.json'), 'utf8')).toContain('AfterMove');
    await callOk(workspace, 'move_asset', { from: 'Assets/Levels', to: 'Assets/Scenes/Levels' });
    expect((await callOk<{ active: { path: string } }>(workspace, 'get_active_scene')).active.path).toBe('Assets/Scenes/Levels/Main.unity');
  });
});

describe('delete_asset, refresh_assets, reimport_asset', () => {
  it('delete to Library/Trash with the meta; refuse a loaded scene and the Assets folder', async () => {
    await callOk(workspace, 'create_folder', { path: 'Assets/Old' });
    writeFileSync(onDisk('Assets/Old/Notes.txt'), 'old notes');
    const info = (await callOk<{ asset: Details }>(workspace, 'get_asset_info', { path: 'Assets/Old/Notes.txt' })).asset;
    const deleted = await callOk<{ deleted: string; guid: string; trashed: boolean; trashPath: string }>(workspace, 'delete_asset', { path: 'Assets/Old' });
    expect(deleted).toMatchObject({ deleted: 'Assets/Old', trashed: true });
    expect(deleted.trashPath).toMatch(/^Library\/Trash\/[^/]+\/Assets\/Old$/);
    expect(readFileSync(onDisk(`${deleted.trashPath}/Notes.txt`), 'utf8')).toBe('old notes');
    expect(json<{ guid: string }>(`${deleted.trashPath}/Notes.txt.meta`).guid).toBe(info.guid);
    expect(existsSync(onDisk('Assets/Old')) || existsSync(onDisk('Assets/Old.meta'))).toBe(false);
    expect(await callFails(workspace, 'get_asset_info', { guid: info.guid }, 'NOT_FOUND')).toContain('deleted');

    const scene = (await callOk<{ active: { path: string } }>(workspace, 'get_active_scene')).active.path;
    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'delete_asset', { path: scene }, 'INVALID_ARGUMENTS')).resolves.toContain('open_scene'),
      expect(callFails(workspace, 'delete_asset', { path: 'Assets' }, 'INVALID_ARGUMENTS')).resolves.toContain('Assets folder itself'),
      expect(callFails(workspace, 'delete_asset', { path: 'Assets/Old' }, 'NOT_FOUND')).resolves.toContain('find_assets'),
    ]);
  });

  it('refresh imports new files and forgets gone ones; reimport takes an asset or folder', async () => {
    await callOk(workspace, 'refresh_assets');
    writeFileSync(onDisk('Assets/Readme.txt'), 'hello');
    rmSync(onDisk('Assets/Scripts/EnemyWave.cs'));
    const refreshed = await callOk<{ imported: string[]; removed: string[] }>(workspace, 'refresh_assets');
    expect(refreshed).toEqual({ imported: ['Assets/Readme.txt'], removed: ['Assets/Scripts/EnemyWave.cs'] });
    expect(existsSync(onDisk('Assets/Scripts/EnemyWave.cs.meta'))).toBe(false);
    expect(await callOk(workspace, 'refresh_assets')).toEqual({ imported: [], removed: [] });
    expect(await callOk(workspace, 'reimport_asset', { path: 'Assets/Readme.txt' })).toMatchObject({ asset: { path: 'Assets/Readme.txt', type: 'TextAsset' } });
    expect(await callOk(workspace, 'reimport_asset', { path: 'Assets/Scripts' })).toMatchObject({ asset: { isFolder: true } });
    expect(await callFails(workspace, 'reimport_asset', { path: 'Assets/Scripts/EnemyWave.cs' }, 'NOT_FOUND')).toContain('Assets/Scripts/EnemyWave.cs');
    expect(await callFails(workspace, 'refresh_assets', { force: true }, 'INVALID_ARGUMENTS')).toContain('force');
  });
});
