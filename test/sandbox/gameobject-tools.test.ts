/**
 * duplicate_gameobject, reparent_gameobject, add_component and remove_component through
 * `tether call` and an MCP client: good input, each kind of bad input, undo and redo.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { cleanupProcesses, createWorkspace, sceneText, startSandbox, type Workspace } from '../helpers/processes.js';
import { startToolSandbox } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

interface Described {
  name: string;
  path: string;
  position: number[];
  components: { type: string }[];
}

/** A MonoBehaviour of the project's, with references to GameObjects and components. */
const FOLLOWER = `using UnityEngine;

namespace MyGame
{
    public class Follower : MonoBehaviour
    {
        public GameObject target;
        public Light lamp;
        public Transform[] stops;
    }
}
`;

/** The sample project with the Follower script (the sandbox reads the project's scripts as they are on disk). */
function withFollower(): Workspace {
  const workspace = createWorkspace();
  writeFileSync(join(workspace.project, 'Assets', 'Scripts', 'Follower.cs'), FOLLOWER);
  return workspace;
}

function objects(workspace: Workspace): Array<{ id: number; name: string; parentId: number | null; components: { type: string }[] }> {
  return (JSON.parse(sceneText(workspace)) as { objects: Array<{ id: number; name: string; parentId: number | null; components: { type: string }[] }> }).objects;
}

describe('GameObject tools through tether call', () => {
  it('duplicates with children under a numbered name, and undoes and redoes it', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const first = await callOk<{ duplicated: Described }>(workspace, 'duplicate_gameobject', { path: '/Environment' });
    expect(first.duplicated).toMatchObject({ name: 'Environment (1)', path: '/Environment (1)' });
    const second = await callOk<{ duplicated: Described }>(workspace, 'duplicate_gameobject', { path: '/Environment' });
    expect(second.duplicated.name).toBe('Environment (2)');
    const copy = objects(workspace).find((o) => o.name === 'Environment (1)')!;
    expect(
      objects(workspace)
        .filter((o) => o.parentId === copy.id)
        .map((o) => o.name)
        .sort(),
    ).toEqual(['Crate', 'Ground']);
    const named = await callOk<{ duplicated: Described }>(workspace, 'duplicate_gameobject', { path: '/Environment/Crate', parent: '/Player', name: 'Carried' });
    expect(named.duplicated).toMatchObject({ path: '/Player/Carried', position: [2, 0.5, -1] });

    expect(await callOk(workspace, 'undo', { steps: 2 })).toEqual({ performed: 2, names: ['Duplicate Crate', 'Duplicate Environment'] });
    expect(objects(workspace).map((o) => o.name)).not.toContain('Carried');
    expect(objects(workspace).map((o) => o.name)).not.toContain('Environment (2)');
    await callOk(workspace, 'redo');
    expect(objects(workspace).map((o) => o.name)).toContain('Environment (2)');
  });

  it('reparents, keeping the local transform, and refuses a parent inside the object', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const moved = await callOk<{ reparented: Described; previousPath: string }>(workspace, 'reparent_gameobject', { path: '/Environment/Crate', parent: '/Player' });
    expect(moved).toMatchObject({ reparented: { path: '/Player/Crate', position: [2, 0.5, -1] }, previousPath: '/Environment/Crate' });
    expect((await callOk<{ reparented: Described }>(workspace, 'reparent_gameobject', { path: '/Player/Crate' })).reparented.path).toBe('/Crate');
    expect(await callFails(workspace, 'reparent_gameobject', { path: '/Environment', parent: '/Environment/Ground' }, 'INVALID_ARGUMENTS')).toContain('its own ancestor');
    expect(await callFails(workspace, 'reparent_gameobject', { path: '/Environment', parent: '/Nowhere' }, 'NOT_FOUND')).toContain('find_gameobjects');
    expect(await callOk(workspace, 'undo', { steps: 5 })).toEqual({ performed: 2, names: ['Reparent Crate', 'Reparent Crate'] });
    expect(objects(workspace).find((o) => o.name === 'Crate')?.parentId).toBe(3);
  });

  it("refuses to move a prefab instance's own child out of it, as Unity does, and moves the whole instance", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    await callOk(workspace, 'create_prefab', { path: '/Environment', assetPath: 'Assets/Prefabs/Environment.prefab' });
    // The Unity package refuses it in the same words (HierarchyRefusals.MoveInsideInstance).
    expect(await callFails(workspace, 'reparent_gameobject', { path: '/Environment/Ground' }, 'INVALID_ARGUMENTS')).toContain(
      'Invalid arguments for reparent_gameobject: path: "/Environment/Ground" is part of the prefab instance "/Environment", whose own children Unity does not move. Move the whole instance ("/Environment"), or change the prefab itself (open_prefab).',
    );
    expect(objects(workspace).find((o) => o.name === 'Ground')?.parentId).toBe(3);
    expect((await callOk<{ reparented: Described }>(workspace, 'reparent_gameobject', { path: '/Environment', parent: '/Player' })).reparented.path).toBe('/Player/Environment');
  });

  it('adds and removes components by type name, with "did you mean", and undoes each', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const added = await callOk<{ added: { type: string; index: number }; gameObject: Described }>(workspace, 'add_component', { path: '/Player', type: 'BoxCollider' });
    expect(added.added).toEqual({ type: 'BoxCollider', index: 4 });
    await callOk(workspace, 'add_component', { path: '/Player', type: 'BoxCollider' });
    const removed = await callOk<{ removed: string; gameObject: Described }>(workspace, 'remove_component', { path: '/Player', type: 'BoxCollider', index: 1 });
    expect(removed.gameObject.components.filter((c) => c.type === 'BoxCollider')).toHaveLength(1);
    await callOk(workspace, 'remove_component', { path: '/Player', type: 'Rigidbody' });
    expect(
      objects(workspace)
        .find((o) => o.name === 'Player')
        ?.components.map((c) => c.type),
    ).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'BoxCollider']);

    // Refusals change nothing, so they run side by side (each `tether call` is a process of its own).
    await Promise.all([
      expect(callFails(workspace, 'add_component', { path: '/Player', type: 'Rigidbdy' }, 'INVALID_ARGUMENTS')).resolves.toContain('Did you mean "Rigidbody"'),
      expect(callFails(workspace, 'add_component', { path: '/Player', type: 'MeshRenderer' }, 'INVALID_ARGUMENTS')).resolves.toContain('can have only one'),
      expect(callFails(workspace, 'add_component', { path: '/Nobody', type: 'Light' }, 'NOT_FOUND')).resolves.toContain('/Nobody'),
      expect(callFails(workspace, 'add_component', { path: '/Player' }, 'INVALID_ARGUMENTS')).resolves.toContain('type'),
      expect(callFails(workspace, 'remove_component', { path: '/Player', type: 'Transform' }, 'INVALID_ARGUMENTS')).resolves.toContain('delete_gameobject'),
      expect(callFails(workspace, 'remove_component', { path: '/Player', type: 'BoxColider' }, 'NOT_FOUND')).resolves.toContain('Did you mean "BoxCollider"'),
      expect(callFails(workspace, 'remove_component', { path: '/Player', type: 'BoxCollider', index: 3 }, 'NOT_FOUND')).resolves.toContain('only 1 BoxCollider'),
      expect(callFails(workspace, 'remove_component', { path: '/Player', type: 'Light', index: -1 }, 'INVALID_ARGUMENTS')).resolves.toContain('index'),
    ]);

    expect(await callOk(workspace, 'undo', { steps: 4 })).toEqual({
      performed: 4,
      names: ['Remove Rigidbody from Player', 'Remove BoxCollider from Player', 'Add BoxCollider to Player', 'Add BoxCollider to Player'],
    });
    expect(
      objects(workspace)
        .find((o) => o.name === 'Player')
        ?.components.map((c) => c.type),
    ).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'Rigidbody']);
  });

  it('adds the project\'s script components, with "did you mean" across them and the built-in types, and points a copy\'s references at the copies', async () => {
    // The tools under test through `tether call`; setup and reads through one MCP client.
    const { workspace, mcp } = await startToolSandbox({ workspace: withFollower });
    const added = await callOk<{ added: { type: string; index: number }; gameObject: Described }>(workspace, 'add_component', { path: '/Player', type: 'Follower' });
    expect(added.added).toEqual({ type: 'Follower', index: 4 });
    expect((await callOk<{ added: { type: string } }>(workspace, 'add_component', { path: '/Player', type: 'MyGame.Follower' })).added.type).toBe('Follower');
    await Promise.all([
      expect(callFails(workspace, 'add_component', { path: '/Player', type: 'Folower' }, 'INVALID_ARGUMENTS')).resolves.toContain('Did you mean "Follower"'),
      expect(callFails(workspace, 'add_component', { path: '/Player', type: 'Rigidbdy' }, 'INVALID_ARGUMENTS')).resolves.toContain('Did you mean "Rigidbody"'),
      // A ScriptableObject is no component.
      expect(callFails(workspace, 'add_component', { path: '/Player', type: 'GameSettings' }, 'INVALID_ARGUMENTS')).resolves.toContain('no component type named "GameSettings"'),
    ]);
    expect(await mcp.ok('undo', { steps: 2 })).toMatchObject({ performed: 2 });

    // A rig whose Follower points inside it (its Eye) and outside it (the light).
    await mcp.ok('create_gameobject', { name: 'Rig', components: ['Follower'] });
    await mcp.ok('create_gameobject', { name: 'Eye', parent: '/Rig' });
    const follower = { gameObject: '/Rig', component: 'Follower' };
    await mcp.ok('set_serialized_properties', {
      target: follower,
      properties: [
        { path: 'target', value: { gameObject: '/Rig/Eye' } },
        { path: 'lamp', value: { gameObject: '/Directional Light' } },
        { path: 'stops', value: [{ gameObject: '/Rig/Eye' }, { gameObject: '/Player' }] },
      ],
    });
    expect((await callOk<{ duplicated: Described }>(workspace, 'duplicate_gameobject', { path: '/Rig' })).duplicated.path).toBe('/Rig (1)');
    const references = async (target: Record<string, unknown>): Promise<Record<string, unknown>> => {
      const listing = await mcp.ok<{ properties: Array<{ path: string; value: unknown }> }>('get_serialized_properties', { target });
      return Object.fromEntries(listing.properties.filter((p) => ['target', 'lamp', 'stops'].includes(p.path)).map((p) => [p.path, p.value]));
    };
    expect(await references({ gameObject: '/Rig (1)', component: 'Follower' })).toEqual({
      target: { gameObject: '/Rig (1)/Eye' },
      lamp: { gameObject: '/Directional Light', component: 'Light' },
      stops: [
        { gameObject: '/Rig (1)/Eye', component: 'Transform' },
        { gameObject: '/Player', component: 'Transform' },
      ],
    });
    expect(await references(follower)).toEqual({
      target: { gameObject: '/Rig/Eye' },
      lamp: { gameObject: '/Directional Light', component: 'Light' },
      stops: [
        { gameObject: '/Rig/Eye', component: 'Transform' },
        { gameObject: '/Player', component: 'Transform' },
      ],
    });
  });
});

describe('GameObject tools through an MCP client', () => {
  it('answers with structured content matching the output schemas, and errors as isError', async () => {
    const workspace = withFollower();
    await startSandbox(workspace);
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    for (const name of ['duplicate_gameobject', 'reparent_gameobject', 'add_component', 'remove_component']) expect(tools.find((t) => t.name === name)?.outputSchema, name).toBeDefined();
    expect(tools.find((t) => t.name === 'remove_component')?.annotations).toMatchObject({ destructiveHint: true, idempotentHint: false });
    expect(tools.find((t) => t.name === 'reparent_gameobject')?.annotations).toMatchObject({ destructiveHint: false, idempotentHint: true });

    const structured = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
      const result = await client.callTool({ name, arguments: args });
      expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
      return result.structuredContent as T;
    };
    expect((await structured<{ duplicated: Described }>('duplicate_gameobject', { path: '/Player' })).duplicated.name).toBe('Player (1)');
    expect((await structured<{ reparented: Described }>('reparent_gameobject', { path: '/Player (1)', parent: '/Environment' })).reparented.path).toBe('/Environment/Player (1)');
    expect((await structured<{ added: { type: string } }>('add_component', { path: '/Environment/Player (1)', type: 'Light' })).added.type).toBe('Light');
    expect((await structured<{ removed: string }>('remove_component', { path: '/Environment/Player (1)', type: 'Light' })).removed).toBe('Light');
    expect((await structured<{ performed: number }>('undo', { steps: 4 })).performed).toBe(4);
    expect(objects(workspace).map((o) => o.name)).not.toContain('Player (1)');

    const wrong = await client.callTool({ name: 'add_component', arguments: { path: '/Player', type: 'Lihgt' } });
    expect(wrong.isError).toBe(true);
    expect(textOf(wrong)).toContain('Did you mean "Light"');
    const extra = await client.callTool({ name: 'duplicate_gameobject', arguments: { path: '/Player', name: 'a/b' } });
    expect(extra.isError).toBe(true);

    // find_gameobjects says each object's layer and prefab status, as its output schema declares.
    const found = tools.find((t) => t.name === 'find_gameobjects')?.outputSchema as { properties: { objects: { items: { properties: Record<string, unknown>; required: string[] } } } } | undefined;
    expect(Object.keys(found?.properties.objects.items.properties ?? {})).toEqual(expect.arrayContaining(['layer', 'prefab', 'components']));
    expect(found?.properties.objects.items.required).toContain('layer');
    await structured('create_prefab', { path: '/Environment/Crate', assetPath: 'Assets/Crate.prefab' });
    const crates = await structured<{ count: number; objects: Array<Described & { layer: number; prefab?: unknown }> }>('find_gameobjects', { name: 'Crate' });
    expect(crates.objects).toMatchObject([{ path: '/Environment/Crate', layer: 0, prefab: { assetPath: 'Assets/Crate.prefab', instanceRoot: true, hasOverrides: false } }]);
    expect((await structured<{ objects: Array<{ prefab?: unknown }> }>('find_gameobjects', { name: 'Ground' })).objects[0]).not.toHaveProperty('prefab');

    // The project's scripts are component types too.
    expect((await structured<{ added: { type: string } }>('add_component', { path: '/Player', type: 'Follower' })).added.type).toBe('Follower');
    const misspelt = await client.callTool({ name: 'add_component', arguments: { path: '/Player', type: 'Followr' } });
    expect(misspelt.isError).toBe(true);
    expect(textOf(misspelt)).toContain('Did you mean "Follower"');
  });
});
