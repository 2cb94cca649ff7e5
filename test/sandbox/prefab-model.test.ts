/**
 * The sandbox's prefab model (src/sandbox/prefabs/) on scene data in memory: making a prefab
 * and its instance, overrides of each kind, apply and revert, a changed prefab reaching
 * another instance with its own overrides kept, references inside an instance, hand-written
 * prefab files.
 */
import { mkdtempSync, mkdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { byIdOf, instanceParts, instanceRootOf, pathIn } from '../../src/sandbox/prefabs/instance-parts.js';
import { applyInstance, connect, instantiate, propagate, rebuild } from '../../src/sandbox/prefabs/prefab-edits.js';
import { flatten, loadPrefab, type PrefabFile } from '../../src/sandbox/prefabs/prefab-file.js';
import { countOverrides, overridesOf, summarize } from '../../src/sandbox/prefabs/prefab-overrides.js';
import { Project } from '../../src/sandbox/project.js';
import type { GameObject, SceneFile } from '../../src/sandbox/game-object.js';

const ASSET = 'Assets/Prefabs/Enemy.prefab';

function object(id: number, name: string, parentId: number | null, extra: Partial<GameObject> = {}): GameObject {
  return { id, name, parentId, active: true, tag: 'Untagged', position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], components: [{ type: 'Transform' }], ...extra };
}

/** A scene with an enemy (body, gun aiming at the body) made a prefab, and a second instance of it. */
function sceneWithTwoInstances(): { data: SceneFile; file: PrefabFile; first: GameObject; second: GameObject } {
  const data: SceneFile = {
    name: 'Test',
    nextId: 5,
    objects: [
      object(1, 'World', null),
      object(2, 'Enemy', null, { position: [1, 0, 0], components: [{ type: 'Transform' }, { type: 'Rigidbody', properties: { m_Mass: 1, m_Drag: 0 } }] }),
      object(3, 'Body', 2, { components: [{ type: 'Transform' }, { type: 'MeshRenderer' }] }),
      object(4, 'Gun', 2, { components: [{ type: 'Transform' }, { type: 'Turret', properties: { target: { gameObjectId: 3 }, range: 5 } }] }),
    ],
  };
  const file = connect(data, 2, ASSET);
  const second = instantiate(data, file, ASSET, 1, { name: 'Enemy (1)', position: [5, 0, 0] });
  return { data, file, first: data.objects.find((o) => o.id === 2)!, second };
}

function find(data: SceneFile, path: string): GameObject {
  const byId = byIdOf(data.objects);
  const found = data.objects.find((o) => pathIn(byId, o) === path);
  if (!found) throw new Error(`no ${path} in ${data.objects.map((o) => pathIn(byId, o)).join(', ')}`);
  return found;
}

describe('prefab model', () => {
  it('makes a prefab of a subtree, named after its asset, and links the subtree as its instance', () => {
    const { data, file, first } = sceneWithTwoInstances();
    expect(file.root.name).toBe('Enemy');
    expect(flatten(file).map((o) => [o.id, o.name, o.parentId])).toEqual([
      [1, 'Enemy', null],
      [2, 'Body', 1],
      [3, 'Gun', 1],
    ]);
    // A reference inside the subtree now names the prefab's own object.
    expect(flatten(file)[2]!.components[1]!.properties).toEqual({ target: { gameObjectId: 2 }, range: 5 });
    expect(first.prefab).toEqual({ asset: ASSET, source: 1, root: true });
    expect(find(data, '/Enemy/Gun').prefab).toEqual({ asset: ASSET, source: 3 });
    expect(instanceRootOf(byIdOf(data.objects), find(data, '/Enemy/Gun'))).toBe(first);
    expect(countOverrides(overridesOf(data.objects, first, file))).toBe(0);
  });

  it('instantiates with new ids and the references inside it pointing at its own objects', () => {
    const { data, file, second } = sceneWithTwoInstances();
    expect(find(data, '/World/Enemy (1)')).toBe(second);
    const gun = find(data, '/World/Enemy (1)/Gun');
    const body = find(data, '/World/Enemy (1)/Body');
    expect(gun.components[1]!.properties).toEqual({ target: { gameObjectId: body.id }, range: 5 });
    // Its own name, position and rotation are default overrides: not counted.
    expect(countOverrides(overridesOf(data.objects, second, file))).toBe(0);
  });

  it('finds each kind of override, by path', () => {
    const { data, file, second } = sceneWithTwoInstances();
    second.scale = [2, 2, 2];
    const gun = find(data, '/World/Enemy (1)/Gun');
    gun.components[1]!.properties!.range = 9;
    gun.components.push({ type: 'AudioSource' });
    second.components = second.components.filter((c) => c.type !== 'Rigidbody');
    data.objects.push(object(data.nextId++, 'Hat', second.id));
    data.objects = data.objects.filter((o) => o.id !== find(data, '/World/Enemy (1)/Body').id);
    const summary = summarize(data.objects, second, file, overridesOf(data.objects, second, file));
    expect(summary).toEqual({
      propertyOverrides: [
        { path: '/World/Enemy (1)', target: 'Transform' },
        { path: '/World/Enemy (1)/Gun', target: 'Turret' },
      ],
      addedComponents: [{ path: '/World/Enemy (1)/Gun', type: 'AudioSource' }],
      removedComponents: [{ path: '/World/Enemy (1)', type: 'Rigidbody' }],
      addedGameObjects: ['/World/Enemy (1)/Hat'],
      removedGameObjects: ['/World/Enemy (1)/Body'],
    });
  });

  it('compares nested fields one by one: an override of one field leaves the others to the prefab', () => {
    const { data, file, first, second } = sceneWithTwoInstances();
    second.components[1]!.properties!.m_Drag = 3;
    // The prefab's mass changes (applied from the first instance): the second keeps its drag and takes the mass.
    first.components[1]!.properties!.m_Mass = 10;
    const next = applyInstance(data, first, file);
    propagate(data, ASSET, file, next, first.id);
    expect(find(data, '/World/Enemy (1)').components[1]!.properties).toEqual({ m_Mass: 10, m_Drag: 3 });
  });

  it('applies an instance: the prefab takes its overrides and added GameObjects, not its name or place; other instances follow', () => {
    const { data, file, second, first } = sceneWithTwoInstances();
    second.tag = 'Enemy';
    data.objects.push(object(data.nextId++, 'Hat', second.id, { components: [{ type: 'Transform' }, { type: 'MeshRenderer' }] }));
    const next = applyInstance(data, second, file);
    expect(next.root).toMatchObject({ name: 'Enemy', tag: 'Enemy', position: [1, 0, 0] });
    expect(flatten(next).map((o) => o.name)).toEqual(['Enemy', 'Body', 'Gun', 'Hat']);
    expect(find(data, '/World/Enemy (1)/Hat').prefab).toEqual({ asset: ASSET, source: 4 });
    expect(countOverrides(overridesOf(data.objects, second, next))).toBe(0);

    const firstId = first.id;
    expect(propagate(data, ASSET, file, next, second.id)).toBe(1);
    const updated = find(data, '/Enemy');
    expect(updated.id).toBe(firstId);
    expect(updated.tag).toBe('Enemy');
    expect(find(data, '/Enemy/Hat').prefab).toEqual({ asset: ASSET, source: 4 });
    expect(countOverrides(overridesOf(data.objects, updated, next))).toBe(0);
  });

  it('reverts an instance to its prefab, deleting added GameObjects and keeping its ids, name and place', () => {
    const { data, file, second } = sceneWithTwoInstances();
    const gunId = find(data, '/World/Enemy (1)/Gun').id;
    second.scale = [3, 3, 3];
    data.objects.push(object(data.nextId++, 'Hat', second.id));
    find(data, '/World/Enemy (1)/Gun').components.pop();
    rebuild(data, second, undefined, file, 'revert');
    const reverted = find(data, '/World/Enemy (1)');
    expect(reverted).toMatchObject({ id: second.id, position: [5, 0, 0], scale: [1, 1, 1] });
    expect(find(data, '/World/Enemy (1)/Gun')).toMatchObject({ id: gunId, components: [{ type: 'Transform' }, { type: 'Turret' }] });
    expect(() => find(data, '/World/Enemy (1)/Hat')).toThrow();
    expect(instanceParts(data.objects, reverted).added).toEqual([]);
  });

  it('keeps a GameObject added under an object the prefab no longer has, under the instance root', () => {
    const { data, file, first, second } = sceneWithTwoInstances();
    data.objects.push(object(data.nextId++, 'Scope', find(data, '/World/Enemy (1)/Gun').id));
    data.objects = data.objects.filter((o) => o.id !== find(data, '/Enemy/Gun').id);
    const next = applyInstance(data, first, file);
    propagate(data, ASSET, file, next, first.id);
    expect(() => find(data, '/World/Enemy (1)/Gun')).toThrow();
    expect(find(data, '/World/Enemy (1)/Scope').prefab).toBeUndefined();
    expect(second.parentId).toBe(1);
  });
});

describe('prefab files', () => {
  const root = mkdtempSync(join(tmpdir(), 'tether-prefab-'));
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  it('reads a hand-written prefab, filling in what a new GameObject has and the ids', () => {
    mkdirSync(join(root, 'Assets'), { recursive: true });
    writeFileSync(join(root, 'Assets', 'Crate.prefab'), JSON.stringify({ type: 'Prefab', root: { name: 'Crate', children: [{ name: 'Lid', id: 7 }] } }));
    const file = loadPrefab(new Project(root), 'Assets/Crate.prefab')!;
    expect(flatten(file)).toEqual([
      { id: 8, name: 'Crate', parentId: null, active: true, tag: 'Untagged', position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], components: [{ type: 'Transform' }] },
      { id: 7, name: 'Lid', parentId: 8, active: true, tag: 'Untagged', position: [0, 0, 0], rotation: [0, 0, 0], scale: [1, 1, 1], components: [{ type: 'Transform' }] },
    ]);
    expect(file.nextId).toBe(9);
    writeFileSync(join(root, 'Assets', 'Broken.prefab'), '{"type":"Material"}');
    expect(loadPrefab(new Project(root), 'Assets/Broken.prefab')).toBeUndefined();
  });
});
