/**
 * get_material, create_material, set_material and create_scriptable_object through `tether
 * call` (good input, each kind of bad input, undo of set_material, the files they write, a
 * ScriptableObject round-tripped through the serialized-property tools), and the asset tools
 * through an MCP client. One sandbox for the file; each test works on its own assets.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { sharedSandbox } from '../helpers/tool-session.js';

interface Property {
  name: string;
  type: string;
  range?: number[];
  hidden: boolean;
  value: unknown;
}
interface Material {
  path: string;
  guid: string;
  shader: string;
  properties: Property[];
}
interface MaterialFile {
  type: string;
  shader: string;
  properties: Record<string, unknown>;
}

const { workspace } = sharedSandbox({ mcp: false });
const json = <T>(path: string): T => JSON.parse(readFileSync(join(workspace.project, path), 'utf8')) as T;
const value = (material: Material, name: string): unknown => material.properties.find((p) => p.name === name)?.value;

describe('material tools', () => {
  it('create a material with checked values and read it back', async () => {
    const created = await callOk<{ material: Material }>(workspace, 'create_material', {
      path: 'Assets/Art/Red.mat',
      properties: { _Color: [1, 0, 0], _Glossiness: 0.9, _MainTex: 'Assets/Textures/Checker.png' },
    });
    expect(created.material).toMatchObject({ path: 'Assets/Art/Red.mat', shader: 'Standard' });
    expect(created.material.properties.find((p) => p.name === '_Glossiness')).toEqual({ name: '_Glossiness', type: 'Range', description: 'Smoothness', range: [0, 1], hidden: false, value: 0.9 });
    const file = json<MaterialFile>('Assets/Art/Red.mat');
    expect(file).toMatchObject({ type: 'Material', shader: 'Standard', properties: { _Color: [1, 0, 0, 1], _Glossiness: 0.9, _MainTex: { asset: 'Assets/Textures/Checker.png' }, _Metallic: 0 } });
    expect(json<{ guid: string }>('Assets/Art/Red.mat.meta').guid).toBe(created.material.guid);
    expect(json<{ folderAsset: boolean }>('Assets/Art.meta').folderAsset).toBe(true);

    const read = await callOk<{ material: Material }>(workspace, 'get_material', { path: 'Assets/Materials/Ground.mat' });
    expect(value(read.material, '_MainTex')).toEqual({ asset: 'Assets/Textures/Checker.png' });
    expect(read.material.properties.find((p) => p.name === '_Mode')).toMatchObject({ type: 'Float', hidden: true });
    const unlit = await callOk<{ material: Material }>(workspace, 'create_material', { path: 'Assets/Art/Flat.mat', shader: 'Unlit/Color', properties: { _Color: '#336699' } });
    expect(unlit.material.properties).toEqual([{ name: '_Color', type: 'Color', description: 'Main Color', hidden: false, value: [0.2, 0.4, 0.6, 1] }]);
  });

  it('refuse, before writing anything, what the shader or the project does not have', async () => {
    const fails = (args: Record<string, unknown>, code = 'INVALID_ARGUMENTS'): Promise<string> => callFails(workspace, 'create_material', { path: 'Assets/Art/Bad.mat', ...args }, code);
    // Independent refusals: run side by side (each `tether call` is a process of its own).
    const refusals = await Promise.all([
      fails({ shader: 'Standrad' }),
      fails({ properties: { _Colour: [1, 1, 1, 1] } }),
      fails({ properties: { _Glossiness: 1.5 } }),
      fails({ properties: { _Color: 'red' } }),
      fails({ properties: { _MainTex: 'Assets/Materials/Ground.mat' } }),
      fails({ properties: { _MainTex: 'Assets/Textures/Nothing.png' } }, 'NOT_FOUND'),
      fails({ properties: { _MainTex: '../../etc/passwd' } }, 'PATH_OUTSIDE_PROJECT'),
      fails({ path: 'Assets/Art/Bad.material' }),
      fails({ path: 'Assets/Materials/Ground.mat' }),
      fails({ properties: [1, 2] }),
      callFails(workspace, 'get_material', { path: 'Assets/Textures/Checker.png' }, 'INVALID_ARGUMENTS'),
      callFails(workspace, 'get_material', { path: 'Assets/Art/Missing.mat' }, 'NOT_FOUND'),
    ]);
    const expected = [
      'Did you mean "Standard"',
      'Did you mean "_Color"',
      'outside its range, 0 to 1',
      'a Color takes',
      'is a Material, not a Texture',
      'Did you mean "Assets/Textures/Checker.png"',
      'outside the project',
      '"Assets/Art/Bad.mat"',
      'already exists',
      'properties',
      'is a Texture2D, not a Material',
      'Did you mean',
    ];
    refusals.forEach((stderr, n) => expect(stderr).toContain(expected[n]));
    expect(existsSync(join(workspace.project, 'Assets/Art/Bad.mat'))).toBe(false);
  });

  it('set properties and the shader as one undo step each, keeping shared properties', async () => {
    await callOk(workspace, 'create_material', { path: 'Assets/Art/Swap.mat', properties: { _Color: [0, 0, 1, 1] } });
    const set = await callOk<{ material: Material; changed: string[] }>(workspace, 'set_material', { path: 'Assets/Art/Swap.mat', properties: { _Color: [0, 0, 1, 1], _Metallic: 0.5 } });
    expect(set.changed).toEqual(['_Metallic']);
    const swapped = await callOk<{ material: Material; changed: string[] }>(workspace, 'set_material', { path: 'Assets/Art/Swap.mat', shader: 'Unlit/Color' });
    expect(swapped.changed).toEqual(['shader']);
    expect(swapped.material.properties).toEqual([{ name: '_Color', type: 'Color', description: 'Main Color', hidden: false, value: [0, 0, 1, 1] }]);
    expect(json<MaterialFile>('Assets/Art/Swap.mat')).toMatchObject({ shader: 'Unlit/Color', properties: { _Metallic: 0.5 } });

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Set material Swap'] });
    expect(json<MaterialFile>('Assets/Art/Swap.mat').shader).toBe('Standard');
    await callOk(workspace, 'undo');
    expect(json<MaterialFile>('Assets/Art/Swap.mat').properties._Metallic).toBe(0);
    await callOk(workspace, 'redo', { steps: 2 });
    expect(json<MaterialFile>('Assets/Art/Swap.mat')).toMatchObject({ shader: 'Unlit/Color', properties: { _Metallic: 0.5 } });

    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'set_material', { path: 'Assets/Art/Swap.mat' }, 'INVALID_ARGUMENTS')).resolves.toContain('nothing to change'),
      expect(callFails(workspace, 'set_material', { path: 'Assets/Art/Swap.mat', properties: { _Glossiness: 0.1 } }, 'INVALID_ARGUMENTS')).resolves.toContain(
        '"Unlit/Color" has no property "_Glossiness"',
      ),
      expect(callFails(workspace, 'set_material', { path: 'Assets/Art/Swap.mat', shader: 'Standard', properties: { _Metallic: -1 } }, 'INVALID_ARGUMENTS')).resolves.toContain('outside its range'),
    ]);
    expect(json<MaterialFile>('Assets/Art/Swap.mat').shader).toBe('Unlit/Color');
    expect(await callFails(workspace, 'set_material', { path: 'Packages/x.mat', shader: 'Standard' }, 'INVALID_ARGUMENTS')).toContain('read-only');
  });
});

describe('create_scriptable_object', () => {
  it("creates an asset of a project class with its fields' defaults, found by its type", async () => {
    const created = await callOk<{ asset: { path: string; type: string; guid: string } }>(workspace, 'create_scriptable_object', { type: 'GameSettings', path: 'Assets/Settings/Game.asset' });
    expect(created.asset).toMatchObject({ path: 'Assets/Settings/Game.asset', type: 'GameSettings' });
    const file = json<{ type: string; fields: Record<string, unknown> }>('Assets/Settings/Game.asset');
    expect(file).toEqual({
      type: 'GameSettings',
      fields: {
        title: 'Sample Game',
        maxPlayers: 4,
        musicVolume: 0.8,
        showTutorial: true,
        skyColor: [0.5, 0.7, 1, 1],
        difficulty: 'Normal',
        groundMaterial: null,
        levels: ['Level1', 'Level2'],
        gravity: -9.81,
      },
    });
    const wave = await callOk<{ asset: { type: string } }>(workspace, 'create_scriptable_object', { type: 'Sample.EnemyWave', path: 'Assets/Settings/Wave1.asset' });
    expect(wave.asset.type).toBe('EnemyWave');
    expect(json<{ fields: unknown }>('Assets/Settings/Wave1.asset').fields).toEqual({ spawns: [], delay: 2.5 });
    const found = await callOk<{ assets: Array<{ path: string }> }>(workspace, 'find_assets', { filter: 't:ScriptableObject', folders: ['Assets/Settings'] });
    expect(found.assets.map((a) => a.path)).toEqual(['Assets/Settings/Game.asset', 'Assets/Settings/Wave1.asset']);
    expect((await callOk<{ total: number }>(workspace, 'find_assets', { filter: 't:GameSettings' })).total).toBe(1);

    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'create_scriptable_object', { type: 'GameSetings', path: 'Assets/Settings/X.asset' }, 'INVALID_ARGUMENTS')).resolves.toContain('Did you mean "GameSettings"'),
      expect(callFails(workspace, 'create_scriptable_object', { type: 'Rigidbody', path: 'Assets/Settings/X.asset' }, 'INVALID_ARGUMENTS')).resolves.toContain('EnemyWave, GameSettings'),
      expect(callFails(workspace, 'create_scriptable_object', { type: 'GameSettings', path: 'Assets/Settings/X.json' }, 'INVALID_ARGUMENTS')).resolves.toContain('"Assets/Settings/X.asset"'),
      expect(callFails(workspace, 'create_scriptable_object', { type: 'GameSettings', path: 'Assets/Settings/Game.asset' }, 'INVALID_ARGUMENTS')).resolves.toContain('already exists'),
      expect(callFails(workspace, 'create_scriptable_object', { type: 'GameSettings', path: 'C:/Game.asset' }, 'INVALID_ARGUMENTS')).resolves.toContain('not under Assets/'),
    ]);
  });

  it('round-trips through get_serialized_properties and set_serialized_properties, with undo', async () => {
    await callOk(workspace, 'create_scriptable_object', { type: 'GameSettings', path: 'Assets/Settings/RoundTrip.asset' });
    const target = { asset: 'Assets/Settings/RoundTrip.asset' };
    const read = await callOk<{ properties: Array<{ path: string; value: unknown }> }>(workspace, 'get_serialized_properties', { target });
    expect(read.properties.find((p) => p.path === 'maxPlayers')?.value).toBe(4);
    await callOk(workspace, 'set_serialized_properties', {
      target,
      properties: [
        { path: 'maxPlayers', value: 8 },
        { path: 'levels[1]', value: 'Boss' },
      ],
    });
    expect(json<{ fields: Record<string, unknown> }>('Assets/Settings/RoundTrip.asset').fields).toMatchObject({ maxPlayers: 8, levels: ['Level1', 'Boss'] });
    await callOk(workspace, 'undo');
    expect(json<{ fields: Record<string, unknown> }>('Assets/Settings/RoundTrip.asset').fields).toMatchObject({ maxPlayers: 4, levels: ['Level1', 'Level2'] });
  });
});

describe('asset tools through an MCP client', () => {
  it('declare output schemas and honest annotations, answer with structured content, and fail as isError', async () => {
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    const names = [
      'find_assets',
      'get_asset_info',
      'create_folder',
      'move_asset',
      'rename_asset',
      'delete_asset',
      'refresh_assets',
      'reimport_asset',
      'get_material',
      'create_material',
      'set_material',
      'create_scriptable_object',
    ];
    for (const name of names) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    const annotations = (name: string): unknown => tools.find((t) => t.name === name)?.annotations;
    expect(annotations('find_assets')).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(annotations('delete_asset')).toMatchObject({ readOnlyHint: false, destructiveHint: true, idempotentHint: false });
    expect(annotations('set_material')).toMatchObject({ destructiveHint: false, idempotentHint: true });
    expect(annotations('create_material')).toMatchObject({ destructiveHint: false, idempotentHint: false });

    const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    };
    expect((await call<{ total: number }>('find_assets', { filter: 'Ground t:Material' })).total).toBe(1);
    expect((await call<{ material: Material }>('create_material', { path: 'Assets/Mcp/Blue.mat', properties: { _Color: [0, 0, 1, 1] } })).material.shader).toBe('Standard');
    expect((await call<{ changed: string[] }>('set_material', { path: 'Assets/Mcp/Blue.mat', properties: { _Glossiness: 0.1 } })).changed).toEqual(['_Glossiness']);
    expect((await call<{ asset: { path: string } }>('rename_asset', { path: 'Assets/Mcp/Blue.mat', newName: 'Navy' })).asset.path).toBe('Assets/Mcp/Navy.mat');
    expect((await call<{ trashed: boolean }>('delete_asset', { path: 'Assets/Mcp' })).trashed).toBe(true);

    const wrong = await client.callTool({ name: 'create_material', arguments: { path: 'Assets/Mcp/X.mat', shader: 'Unlit/Colour' } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('Did you mean "Unlit/Color"');
    const outside = await client.callTool({ name: 'move_asset', arguments: { from: 'Assets/Materials/Ground.mat', to: '/tmp/Ground.mat' } });
    expect(outside.isError).toBe(true);
    expect(textOf(outside)).toContain('outside the project');
  });
});
