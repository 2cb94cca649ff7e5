/**
 * The prefab tools (create_prefab, instantiate_prefab, apply_prefab_overrides,
 * revert_prefab_overrides, open_prefab, close_prefab) through `tether call` and an MCP
 * client: good input, each kind of bad input, undo and redo of each edit, prefab mode as the
 * scene the GameObject tools see, across a domain reload. The tools under test go through
 * `tether call` (exit codes, files on disk); setup and reads through one MCP client.
 */
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { cleanupProcesses, sceneText, type Workspace } from '../helpers/processes.js';
import { startToolSandbox, type ToolSession } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const PLAYER = 'Assets/Prefabs/Player.prefab';

interface Found {
  path: string;
  tag: string;
  scale: number[];
  components: Array<{ type: string }>;
  prefab?: { assetPath: string; instanceRoot: boolean; hasOverrides?: boolean };
}

/** A node of get_hierarchy. */
interface Node {
  path: string;
  prefab?: { assetPath: string; instanceRoot: boolean; hasOverrides?: boolean };
  children?: Node[];
}

interface Summary {
  propertyOverrides: Array<{ path: string; target: string }>;
  addedComponents: Array<{ path: string; type: string }>;
  removedComponents: Array<{ path: string; type: string }>;
  addedGameObjects: string[];
  removedGameObjects: string[];
}

function prefabText(workspace: Workspace, path: string): string {
  return readFileSync(join(workspace.project, path), 'utf8');
}

async function found(mcp: ToolSession, name: string): Promise<Found[]> {
  return (await mcp.ok<{ objects: Found[] }>('find_gameobjects', { name })).objects;
}

describe('prefab tools through tether call', () => {
  it('creates and instantiates a prefab, applies an instance (other instances follow) and undoes the apply with its asset', async () => {
    const { workspace, mcp } = await startToolSandbox();
    const created = await callOk<{ prefab: unknown; instance: { path: string; assetPath: string } }>(workspace, 'create_prefab', { path: '/Player', assetPath: PLAYER });
    expect(created).toMatchObject({ prefab: { assetPath: PLAYER, name: 'Player', objects: 1 }, instance: { path: '/Player', assetPath: PLAYER } });
    expect(JSON.parse(prefabText(workspace, PLAYER))).toMatchObject({ type: 'Prefab', root: { name: 'Player', tag: 'Player' } });

    const placed = await callOk<{ instance: { path: string; position: number[] } }>(workspace, 'instantiate_prefab', {
      assetPath: PLAYER,
      parent: '/Environment',
      name: 'Player 2',
      position: [3, 0, 3],
    });
    expect(placed.instance).toMatchObject({ path: '/Environment/Player 2', position: [3, 0, 3] });
    await mcp.ok('modify_gameobject', { path: '/Environment/Player 2', tag: 'Untagged', addComponents: ['BoxCollider'] });
    // In hierarchy order, as Unity walks it: Environment's child before the later root Player.
    expect((await found(mcp, 'Player')).map((o) => [o.path, o.prefab])).toEqual([
      ['/Environment/Player 2', { assetPath: PLAYER, instanceRoot: true, hasOverrides: true }],
      ['/Player', { assetPath: PLAYER, instanceRoot: true, hasOverrides: false }],
    ]);
    // get_hierarchy says it as find_gameobjects does, at every level.
    const tree = await callOk<{ objects: Node[] }>(workspace, 'get_hierarchy');
    expect(tree.objects.find((o) => o.path === '/Player')?.prefab).toEqual({ assetPath: PLAYER, instanceRoot: true, hasOverrides: false });
    const environment = tree.objects.find((o) => o.path === '/Environment');
    expect(environment).not.toHaveProperty('prefab');
    expect(environment?.children?.find((c) => c.path === '/Environment/Player 2')?.prefab).toEqual({ assetPath: PLAYER, instanceRoot: true, hasOverrides: true });

    const applied = await callOk<{ applied: Summary }>(workspace, 'apply_prefab_overrides', { path: '/Environment/Player 2' });
    expect(applied.applied).toEqual({
      propertyOverrides: [{ path: '/Environment/Player 2', target: 'GameObject' }],
      addedComponents: [{ path: '/Environment/Player 2', type: 'BoxCollider' }],
      removedComponents: [],
      addedGameObjects: [],
      removedGameObjects: [],
    });
    expect(prefabText(workspace, PLAYER)).toContain('BoxCollider');
    const player = (await found(mcp, 'Player')).find((o) => o.path === '/Player');
    expect(player).toMatchObject({ path: '/Player', tag: 'Untagged', prefab: { hasOverrides: false } });
    expect(player!.components.map((c) => c.type)).toContain('BoxCollider');

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Apply Prefab Player 2'] });
    expect(prefabText(workspace, PLAYER)).not.toContain('BoxCollider');
    expect((await found(mcp, 'Player')).find((o) => o.path === '/Player')).toMatchObject({ tag: 'Player' });
    await callOk(workspace, 'redo');
    expect(prefabText(workspace, PLAYER)).toContain('BoxCollider');
  });

  it('reverts an instance (added GameObjects deleted), undoes that, and undoes create_prefab to a plain GameObject, the asset kept', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_prefab', { path: '/Player', assetPath: PLAYER });
    await mcp.ok('modify_gameobject', { path: '/Player', scale: [2, 2, 2], removeComponents: ['Rigidbody'] });
    await mcp.ok('create_gameobject', { name: 'Hat', parent: '/Player' });
    const reverted = await callOk<{ instance: { path: string }; reverted: Summary }>(workspace, 'revert_prefab_overrides', { path: '/Player' });
    expect(reverted.reverted).toEqual({
      propertyOverrides: [{ path: '/Player', target: 'Transform' }],
      addedComponents: [],
      removedComponents: [{ path: '/Player', type: 'Rigidbody' }],
      addedGameObjects: ['/Player/Hat'],
      removedGameObjects: [],
    });
    expect((await found(mcp, 'Player'))[0]).toMatchObject({ scale: [1, 1, 1], prefab: { hasOverrides: false } });
    expect(await found(mcp, 'Hat')).toEqual([]);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Revert Prefab Player'] });
    expect((await found(mcp, 'Hat')).map((o) => o.path)).toEqual(['/Player/Hat']);

    expect(await callOk(workspace, 'undo', { steps: 3 })).toEqual({ performed: 3, names: ['Create Hat', 'Modify Player', 'Create Prefab Player'] });
    expect((await found(mcp, 'Player'))[0]!.prefab).toBeUndefined();
    expect(existsSync(join(workspace.project, PLAYER))).toBe(true);
  });

  it('refuses each kind of bad input, saying what to do, and changes nothing', async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_prefab', { path: '/Player', assetPath: PLAYER });
    const before = sceneText(workspace);

    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'create_prefab', { path: '/Environment', assetPath: PLAYER }, 'INVALID_ARGUMENTS')).resolves.toContain('already exists'),
      expect(callFails(workspace, 'create_prefab', { path: '/Environment', assetPath: '../Elsewhere.prefab' }, 'PATH_OUTSIDE_PROJECT')).resolves.toContain('outside the project'),
      expect(callFails(workspace, 'create_prefab', { path: '/Player', assetPath: 'Assets/P2.prefab' }, 'INVALID_ARGUMENTS')).resolves.toContain('nest prefabs'),
      expect(callFails(workspace, 'instantiate_prefab', { assetPath: 'Assets/Prefabs/Playr.prefab' }, 'NOT_FOUND')).resolves.toContain(`Did you mean "${PLAYER}"`),
      expect(callFails(workspace, 'apply_prefab_overrides', { path: '/Environment' }, 'INVALID_ARGUMENTS')).resolves.toContain('not part of a prefab instance'),
      expect(callFails(workspace, 'revert_prefab_overrides', { path: '/Nobody' }, 'NOT_FOUND')).resolves.toContain('/Nobody'),
    ]);

    expect(await mcp.fails('create_prefab', { path: '/Environment', assetPath: 'Assets/Prefabs/Env.asset' }, 'INVALID_ARGUMENTS')).toContain('Assets/Prefabs/Enemy.prefab');
    expect(await mcp.fails('create_prefab', { path: '/Environment', assetPath: 'Library/Env.prefab' }, 'INVALID_ARGUMENTS')).toContain('not under Assets/');
    expect(await mcp.fails('create_prefab', { path: '/Environment', assetPath: 'Packages/Env.prefab' }, 'INVALID_ARGUMENTS')).toContain('read-only');
    expect(await mcp.fails('create_prefab', { path: '/Nobody', assetPath: 'Assets/N.prefab' }, 'NOT_FOUND')).toContain('find_gameobjects');
    expect(await mcp.fails('create_prefab', { path: '/Environment' }, 'INVALID_ARGUMENTS')).toContain('assetPath');
    expect(await mcp.fails('instantiate_prefab', { assetPath: 'Assets/Scenes/SampleScene.unity' }, 'INVALID_ARGUMENTS')).toContain('not a prefab');
    expect(await mcp.fails('instantiate_prefab', { assetPath: PLAYER, name: 'a/b' }, 'INVALID_ARGUMENTS')).toContain('name');
    expect(await mcp.fails('instantiate_prefab', { assetPath: PLAYER, parent: '/Nobody' }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await mcp.fails('instantiate_prefab', { assetPath: PLAYER, position: [1, 2] }, 'INVALID_ARGUMENTS')).toContain('position');
    expect(await mcp.fails('instantiate_prefab', { assetPath: '/etc/passwd.prefab' }, 'PATH_OUTSIDE_PROJECT')).toContain('outside the project');
    expect(await mcp.fails('apply_prefab_overrides', { path: '/Nobody' }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await mcp.fails('revert_prefab_overrides', { path: '/Environment/Crate' }, 'INVALID_ARGUMENTS')).toContain('not part of a prefab instance');
    expect(await mcp.fails('revert_prefab_overrides', {}, 'INVALID_ARGUMENTS')).toContain('path');

    expect(sceneText(workspace)).toBe(before);
    expect(await mcp.ok('undo')).toEqual({ performed: 1, names: ['Create Prefab Player'] });
  });

  it('edits a prefab in prefab mode as the scene the GameObject tools see, across a domain reload, and saves it: instances follow', async () => {
    const { workspace, mcp, sandbox } = await startToolSandbox();
    await mcp.ok('create_prefab', { path: '/Environment', assetPath: 'Assets/Env.prefab' });

    expect(await callOk(workspace, 'open_prefab', { assetPath: 'Assets/Env.prefab' })).toEqual({ opened: { assetPath: 'Assets/Env.prefab', name: 'Env', root: '/Env', objects: 3 } });
    const tree = await mcp.ok<{ scene: string; objects: Array<{ path: string; children?: Array<{ path: string }> }> }>('get_hierarchy');
    expect(tree.scene).toBe('Env');
    expect(tree.objects.map((o) => o.path)).toEqual(['/Env']);
    expect(tree.objects[0]!.children!.map((c) => c.path)).toEqual(['/Env/Ground', '/Env/Crate']);
    expect((await mcp.ok<{ active: { path: string } }>('get_active_scene')).active.path).toBe('Assets/Scenes/SampleScene.unity');

    await mcp.ok('create_gameobject', { name: 'Lamp', parent: '/Env', components: ['Light'] });
    expect(await mcp.ok('undo')).toEqual({ performed: 1, names: ['Create Lamp'] });
    await mcp.ok('redo');
    expect(await mcp.fails('create_prefab', { path: '/Env/Lamp', assetPath: 'Assets/Lamp.prefab' }, 'INVALID_ARGUMENTS')).toContain('close_prefab');
    expect(await mcp.fails('instantiate_prefab', { assetPath: 'Assets/Env.prefab', parent: '/Env' }, 'INVALID_ARGUMENTS')).toContain('nested prefab');

    // Entering play mode reloads the domain: prefab mode stays, with its edits.
    await mcp.ok('play_mode', { action: 'enter' });
    await sandbox.ready(2);
    expect(await mcp.ok('get_editor_state')).toMatchObject({ playing: true, prefabStage: 'Assets/Env.prefab' });
    await mcp.ok('play_mode', { action: 'exit' });
    expect((await mcp.ok<{ count: number }>('find_gameobjects', { name: 'Lamp' })).count).toBe(1);

    expect(await callOk(workspace, 'close_prefab', { save: true })).toEqual({ closed: 'Assets/Env.prefab', saved: true, hadUnsavedChanges: true });
    expect(prefabText(workspace, 'Assets/Env.prefab')).toContain('Lamp');
    const lamps = await mcp.ok<{ objects: Array<{ path: string; prefab: { assetPath: string } }> }>('find_gameobjects', { name: 'Lamp' });
    expect(lamps.objects).toMatchObject([{ path: '/Environment/Lamp', prefab: { assetPath: 'Assets/Env.prefab' } }]);
    const [environment] = (await mcp.ok<{ objects: Node[] }>('get_hierarchy', { root: '/Environment' })).objects;
    expect(environment?.prefab).toEqual({ assetPath: 'Assets/Env.prefab', instanceRoot: true, hasOverrides: false });
    expect(environment?.children?.map((c) => [c.path, c.prefab])).toEqual([
      ['/Environment/Ground', { assetPath: 'Assets/Env.prefab', instanceRoot: false }],
      ['/Environment/Crate', { assetPath: 'Assets/Env.prefab', instanceRoot: false }],
      ['/Environment/Lamp', { assetPath: 'Assets/Env.prefab', instanceRoot: false }],
    ]);
    expect(await callFails(workspace, 'close_prefab', { save: true }, 'NOT_FOUND')).toContain('open_prefab');
  });

  it("discards prefab mode's edits, and refuses a second root, a dirty switch and bad paths", async () => {
    const { workspace, mcp } = await startToolSandbox();
    await mcp.ok('create_prefab', { path: '/Environment', assetPath: 'Assets/Env.prefab' });
    await mcp.ok('create_prefab', { path: '/Player', assetPath: PLAYER });
    const asset = prefabText(workspace, 'Assets/Env.prefab');

    await mcp.ok('open_prefab', { assetPath: 'Assets/Env.prefab' });
    await mcp.ok('delete_gameobject', { path: '/Env/Crate' });
    await mcp.ok('create_gameobject', { name: 'Stray' });
    expect(await callFails(workspace, 'open_prefab', { assetPath: PLAYER }, 'INVALID_ARGUMENTS')).toContain('unsaved changes');
    expect(await callFails(workspace, 'close_prefab', { save: true }, 'INVALID_ARGUMENTS')).toContain('exactly one');
    expect(await mcp.fails('close_prefab', {}, 'INVALID_ARGUMENTS')).toContain('save');
    expect(await mcp.fails('open_prefab', { assetPath: 'Assets/Env.prefab/../Other.prefab' }, 'NOT_FOUND')).toContain('create_prefab');
    expect(await mcp.fails('open_prefab', { assetPath: 'Assets/Scenes/SampleScene.unity' }, 'INVALID_ARGUMENTS')).toContain('not a prefab');
    expect(await mcp.fails('open_prefab', { assetPath: '../../x.prefab' }, 'PATH_OUTSIDE_PROJECT')).toContain('outside the project');

    expect(await callOk(workspace, 'close_prefab', { save: false })).toEqual({ closed: 'Assets/Env.prefab', saved: false, hadUnsavedChanges: true });
    expect(prefabText(workspace, 'Assets/Env.prefab')).toBe(asset);
    expect((await found(mcp, 'Crate')).map((o) => o.path)).toEqual(['/Environment/Crate']);
    expect(await found(mcp, 'Stray')).toEqual([]);
  });
});

describe('prefab tools through an MCP client', () => {
  it('declare output schemas and true annotations, answer with structured content, and errors as isError', async () => {
    const { mcp } = await startToolSandbox();
    const { tools } = await mcp.client.listTools();
    const names = ['create_prefab', 'instantiate_prefab', 'apply_prefab_overrides', 'revert_prefab_overrides', 'open_prefab', 'close_prefab'];
    for (const name of names) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    expect(tools.find((t) => t.name === 'instantiate_prefab')?.annotations).toMatchObject({ readOnlyHint: false, idempotentHint: false });
    expect(tools.find((t) => t.name === 'apply_prefab_overrides')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: true });
    expect(tools.find((t) => t.name === 'close_prefab')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });

    await mcp.ok('create_prefab', { path: '/Environment/Crate', assetPath: 'Assets/Crate.prefab' });
    expect((await mcp.ok<{ instance: { path: string } }>('instantiate_prefab', { assetPath: 'Assets/Crate.prefab', rotation: [0, 90, 0] })).instance.path).toBe('/Crate');
    await mcp.ok('modify_gameobject', { path: '/Crate', active: false });
    expect((await mcp.ok<{ applied: Summary }>('apply_prefab_overrides', { path: '/Crate' })).applied.propertyOverrides).toEqual([{ path: '/Crate', target: 'GameObject' }]);
    expect((await mcp.ok<{ reverted: Summary }>('revert_prefab_overrides', { path: '/Environment/Crate' })).reverted.propertyOverrides).toEqual([]);
    expect((await mcp.ok<{ opened: { root: string } }>('open_prefab', { assetPath: 'Assets/Crate.prefab' })).opened.root).toBe('/Crate');
    expect(await mcp.ok('close_prefab', { save: false })).toEqual({ closed: 'Assets/Crate.prefab', saved: false, hadUnsavedChanges: false });
    expect(await mcp.fails('instantiate_prefab', { assetPath: 'Assets/Crat.prefab' }, 'NOT_FOUND')).toContain('Did you mean "Assets/Crate.prefab"');
  });
});
