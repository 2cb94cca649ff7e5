/**
 * duplicate_gameobject, reparent_gameobject, add_component and remove_component through
 * `tether call` and an MCP client: good input, each kind of bad input, undo and redo.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { cleanupProcesses, createWorkspace, sceneText, startSandbox, type Workspace } from '../helpers/processes.js';

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
    expect(objects(workspace).filter((o) => o.parentId === copy.id).map((o) => o.name).sort()).toEqual(['Crate', 'Ground']);
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

  it('adds and removes components by type name, with "did you mean", and undoes each', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const added = await callOk<{ added: { type: string; index: number }; gameObject: Described }>(workspace, 'add_component', { path: '/Player', type: 'BoxCollider' });
    expect(added.added).toEqual({ type: 'BoxCollider', index: 4 });
    await callOk(workspace, 'add_component', { path: '/Player', type: 'BoxCollider' });
    const removed = await callOk<{ removed: string; gameObject: Described }>(workspace, 'remove_component', { path: '/Player', type: 'BoxCollider', index: 1 });
    expect(removed.gameObject.components.filter((c) => c.type === 'BoxCollider')).toHaveLength(1);
    await callOk(workspace, 'remove_component', { path: '/Player', type: 'Rigidbody' });
    expect(objects(workspace).find((o) => o.name === 'Player')?.components.map((c) => c.type)).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'BoxCollider']);

    expect(await callFails(workspace, 'add_component', { path: '/Player', type: 'Rigidbdy' }, 'INVALID_ARGUMENTS')).toContain('Did you mean "Rigidbody"');
    expect(await callFails(workspace, 'add_component', { path: '/Player', type: 'MeshRenderer' }, 'INVALID_ARGUMENTS')).toContain('can have only one');
    expect(await callFails(workspace, 'add_component', { path: '/Nobody', type: 'Light' }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await callFails(workspace, 'add_component', { path: '/Player' }, 'INVALID_ARGUMENTS')).toContain('type');
    expect(await callFails(workspace, 'remove_component', { path: '/Player', type: 'Transform' }, 'INVALID_ARGUMENTS')).toContain('delete_gameobject');
    expect(await callFails(workspace, 'remove_component', { path: '/Player', type: 'BoxColider' }, 'NOT_FOUND')).toContain('Did you mean "BoxCollider"');
    expect(await callFails(workspace, 'remove_component', { path: '/Player', type: 'BoxCollider', index: 3 }, 'NOT_FOUND')).toContain('only 1 BoxCollider');
    expect(await callFails(workspace, 'remove_component', { path: '/Player', type: 'Light', index: -1 }, 'INVALID_ARGUMENTS')).toContain('index');

    expect(await callOk(workspace, 'undo', { steps: 4 })).toEqual({
      performed: 4,
      names: ['Remove Rigidbody from Player', 'Remove BoxCollider from Player', 'Add BoxCollider to Player', 'Add BoxCollider to Player'],
    });
    expect(objects(workspace).find((o) => o.name === 'Player')?.components.map((c) => c.type)).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'Rigidbody']);
  });
});

describe('GameObject tools through an MCP client', () => {
  it('answers with structured content matching the output schemas, and errors as isError', async () => {
    const workspace = createWorkspace();
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
  });
});
