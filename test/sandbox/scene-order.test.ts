/**
 * What a sandbox scene shows in order and how it reports rotations, as the Unity package does:
 * find_gameobjects walks the hierarchy depth-first in sibling order (HierarchyPath.Walk), a path
 * means the first GameObject at it in that order (HierarchyPath.Find), a reparented GameObject
 * goes last among its new siblings (Undo.SetTransformParent) and undo puts it back where it was,
 * and rotations read back as localEulerAngles does (-90 is 270), the scene file holding the same.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, sceneText, type Workspace } from '../helpers/processes.js';
import { startToolSandbox, type ToolSession } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

interface Found {
  count: number;
  objects: Array<{ id: number; path: string; rotation: number[] }>;
}

interface Node {
  path: string;
  children?: Node[];
}

/** Every path find_gameobjects gives, in its order. */
async function foundPaths(mcp: ToolSession, args: Record<string, unknown> = {}): Promise<string[]> {
  return (await mcp.ok<Found>('find_gameobjects', args)).objects.map((o) => o.path);
}

/** get_hierarchy's roots and, under `parent`, its children, in order. */
async function hierarchy(mcp: ToolSession, parent: string): Promise<{ roots: string[]; children: string[] }> {
  const { objects } = await mcp.ok<{ objects: Node[] }>('get_hierarchy');
  return { roots: objects.map((n) => n.path), children: (objects.find((n) => n.path === parent)?.children ?? []).map((n) => n.path) };
}

function storedRotation(workspace: Workspace, name: string): number[] | undefined {
  const scene = JSON.parse(sceneText(workspace)) as { objects: Array<{ name: string; rotation: number[] }> };
  return scene.objects.find((o) => o.name === name)?.rotation;
}

describe('the order of GameObjects', () => {
  it('lists GameObjects depth-first in sibling order, as the Unity package walks the hierarchy; limit keeps the first of that order', async () => {
    const { mcp } = await startToolSandbox();
    // The scene file lists Player before Crate (Crate was made later, under Environment).
    const all = ['/Main Camera', '/Directional Light', '/Environment', '/Environment/Ground', '/Environment/Crate', '/Player'];
    expect(await foundPaths(mcp)).toEqual(all);
    expect(await foundPaths(mcp, { limit: 5 })).toEqual(all.slice(0, 5));
    expect(await foundPaths(mcp, { component: 'MeshRenderer', limit: 2 })).toEqual(['/Environment/Ground', '/Environment/Crate']);
    // New objects go last: a root after the roots, a child after its siblings, a copy after its parent's children.
    await mcp.ok('create_gameobject', { name: 'Lamp', parent: '/Environment' });
    await mcp.ok('duplicate_gameobject', { path: '/Environment/Ground' });
    await mcp.ok('create_gameobject', { name: 'Sky' });
    expect(await foundPaths(mcp)).toEqual([...all.slice(0, 5), '/Environment/Lamp', '/Environment/Ground (1)', '/Player', '/Sky']);
  });

  it('means by a path the first GameObject at it in hierarchy order, as delete_gameobject says, whatever order the file lists them in', async () => {
    const { mcp } = await startToolSandbox();
    const shelf = async (parent: string): Promise<number> => (await mcp.ok<{ created: { id: number } }>('create_gameobject', { name: 'Shelf', parent })).created.id;
    await mcp.ok('create_gameobject', { name: 'Rack' });
    await mcp.ok('create_gameobject', { name: 'Rack 2' });
    // The second rack's shelf is made first, so the scene file lists it first.
    const second = await shelf('/Rack 2');
    const first = await shelf('/Rack');
    await mcp.ok('modify_gameobject', { path: '/Rack 2', name: 'Rack' });
    // Both shelves are at "/Rack/Shelf"; in the hierarchy the first rack's comes first.
    expect((await mcp.ok<Found>('find_gameobjects', { name: 'Shelf' })).objects.map((o) => [o.path, o.id])).toEqual([
      ['/Rack/Shelf', first],
      ['/Rack/Shelf', second],
    ]);
    expect(await mcp.ok('modify_gameobject', { path: '/Rack/Shelf', tag: 'Player' })).toMatchObject({ modified: { id: first, tag: 'Player' } });
    expect(await mcp.ok('delete_gameobject', { path: '/Rack/Shelf' })).toMatchObject({ deleted: '/Rack/Shelf', objectsRemoved: 1 });
    expect((await mcp.ok<Found>('find_gameobjects', { name: 'Shelf' })).objects.map((o) => o.id)).toEqual([second]);
  });

  it('reparents a GameObject last among its new siblings (the roots too), and undo and redo put it back where it was and again last', async () => {
    const { mcp } = await startToolSandbox();
    const roots = ['/Main Camera', '/Directional Light', '/Environment', '/Player'];
    expect(await hierarchy(mcp, '/Environment')).toEqual({ roots, children: ['/Environment/Ground', '/Environment/Crate'] });

    await mcp.ok('reparent_gameobject', { path: '/Main Camera', parent: '/Environment' });
    expect(await hierarchy(mcp, '/Environment')).toEqual({
      roots: ['/Directional Light', '/Environment', '/Player'],
      children: ['/Environment/Ground', '/Environment/Crate', '/Environment/Main Camera'],
    });
    expect(await foundPaths(mcp, { path: '/Environment/*' })).toEqual(['/Environment/Ground', '/Environment/Crate', '/Environment/Main Camera']);

    await mcp.ok('reparent_gameobject', { path: '/Environment/Ground' });
    expect(await hierarchy(mcp, '/Environment')).toEqual({
      roots: ['/Directional Light', '/Environment', '/Player', '/Ground'],
      children: ['/Environment/Crate', '/Environment/Main Camera'],
    });

    expect(await mcp.ok('undo', { steps: 2 })).toEqual({ performed: 2, names: ['Reparent Ground', 'Reparent Main Camera'] });
    expect(await hierarchy(mcp, '/Environment')).toEqual({ roots, children: ['/Environment/Ground', '/Environment/Crate'] });
    await mcp.ok('redo');
    expect(await hierarchy(mcp, '/Environment')).toEqual({
      roots: ['/Directional Light', '/Environment', '/Player'],
      children: ['/Environment/Ground', '/Environment/Crate', '/Environment/Main Camera'],
    });
  });
});

describe('rotations', () => {
  it('reports them as Unity reads localEulerAngles back from the quaternion, and the scene file holds the same', async () => {
    const { workspace, mcp } = await startToolSandbox();
    const created = await mcp.ok<{ created: { rotation: number[] } }>('create_gameobject', { name: 'Door', rotation: [0, -90, 0] });
    expect(created.created.rotation).toEqual([0, 270, 0]);
    expect(storedRotation(workspace, 'Door')).toEqual([0, 270, 0]);
    // In gimbal lock Unity puts the turn about the vertical in Z.
    expect(await mcp.ok('modify_gameobject', { path: '/Door', rotation: [90, 20, 0] })).toMatchObject({ modified: { rotation: [90, 0, 340] } });
    expect(storedRotation(workspace, 'Door')).toEqual([90, 0, 340]);
    expect(await mcp.ok('modify_gameobject', { path: '/Door', rotation: [-30, 400, -1e-7] })).toMatchObject({ modified: { rotation: [330, 40, 0] } });
    // The quaternion Unity keeps for the angles as they were given.
    await mcp.ok('modify_gameobject', { path: '/Door', rotation: [0, -90, 0] });
    const transform = await mcp.ok<{ properties: Array<{ path: string; value: unknown }> }>('get_serialized_properties', {
      target: { gameObject: '/Door', component: 'Transform' },
      path: 'm_LocalRotation',
    });
    expect(transform.properties[0]).toMatchObject({ path: 'm_LocalRotation', value: [0, -0.707107, 0, 0.707107] });
    // The default scene's light as Unity reads it back (made with -30). The Door was never saved: closing its scene drops it.
    await mcp.ok('create_scene', { path: 'Assets/Scenes/Lit.unity', unsavedChanges: 'discard' });
    expect((await mcp.ok<Found>('find_gameobjects', { name: 'Directional Light' })).objects[0]?.rotation).toEqual([50, 330, 0]);
  });
});
