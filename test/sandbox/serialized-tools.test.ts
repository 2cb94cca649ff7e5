/**
 * get_serialized_properties, set_serialized_properties and find_gameobjects (paths, layers)
 * through `tether call` and an MCP client, on a project given scripts, a ScriptableObject, a
 * material and a prefab as files: good input, each kind of bad input, and undo. One sandbox
 * per block; the tests of a block touch different objects.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { textOf } from '../helpers/mcp-client.js';
import { callFails, callOk } from '../helpers/tool-call.js';
import { createWorkspace, savedSceneText, sceneText, type Workspace } from '../helpers/processes.js';
import { sharedSandbox } from '../helpers/tool-session.js';

const HEALTH = `using System.Collections.Generic;
using UnityEngine;

namespace MyGame
{
    public enum Kind { Melee, Ranged = 4 }

    public class Health : MonoBehaviour
    {
        public int maxHealth = 100;
        [SerializeField] private float regen = 1.5f; // serialized though private
        [Tooltip("where; it goes")] public Vector3[] waypoints;
        public List<string> labels = new List<string> { "a", "b" };
        public Stats stats;
        public Kind kind = Kind.Ranged;
        public Transform target;
        public Rigidbody body;
        public Material skin;
        public Color tint = Color.red;
        private int hidden;
        public static int shared;
        [System.NonSerialized] public int skipped;
        public int Property { get; set; } = 3;
        void Update() { var x = "}"; }

        [System.Serializable]
        public class Stats
        {
            public float speed = 3f;
            public int armor;
        }
    }
}
`;

const ENEMY_STATS = `using UnityEngine;

[CreateAssetMenu]
public class EnemyStats : ScriptableObject
{
    public string displayName = "Goblin";
    public int hp = 10;
    public GameObject prefab;
    public EnemyStats next;
}
`;

const PREFAB = {
  type: 'Prefab',
  nextId: 3,
  root: {
    id: 1,
    name: 'Enemy',
    parentId: null,
    active: true,
    tag: 'Untagged',
    position: [0, 0, 0],
    rotation: [0, 0, 0],
    scale: [1, 1, 1],
    components: [{ type: 'Transform' }, { type: 'Rigidbody' }],
    children: [
      { id: 2, name: 'Gun', parentId: 1, active: true, tag: 'Untagged', position: [0, 1, 0], rotation: [0, 0, 0], scale: [1, 1, 1], components: [{ type: 'Transform' }, { type: 'BoxCollider' }] },
    ],
  },
};

function write(workspace: Workspace, path: string, content: string | object): void {
  const full = join(workspace.project, path);
  mkdirSync(dirname(full), { recursive: true });
  writeFileSync(full, typeof content === 'string' ? content : JSON.stringify(content, null, 2));
}

function readJson<T>(workspace: Workspace, path: string): T {
  return JSON.parse(readFileSync(join(workspace.project, path), 'utf8')) as T;
}

interface SceneObject {
  name: string;
  position: number[];
  rotation: number[];
  layer?: number;
  components: Array<{ type: string; properties?: Record<string, unknown> }>;
}

function sceneObject(workspace: Workspace, name: string): SceneObject {
  return (JSON.parse(sceneText(workspace)) as { objects: SceneObject[] }).objects.find((o) => o.name === name) as SceneObject;
}

/** The sample project with a script component on /Player, a layer on the Crate, and assets of each kind. */
function fixtureProject(): Workspace {
  const workspace = createWorkspace();
  write(workspace, 'Assets/Scripts/Health.cs', HEALTH);
  write(workspace, 'Assets/Scripts/EnemyStats.cs', ENEMY_STATS);
  write(workspace, 'Assets/Data/Goblin.asset', { type: 'EnemyStats', fields: { hp: 12, extra: 'kept' } });
  write(workspace, 'Assets/Materials/Red.mat', { type: 'Material', shader: 'Standard', properties: { _Color: [1, 0, 0, 1], _MainTex: null, _Glossiness: 0.5 } });
  write(workspace, 'Assets/Textures/Wood.png', 'not really a png');
  write(workspace, 'Assets/Prefabs/Enemy.prefab', PREFAB);
  write(workspace, 'ProjectSettings/TagManager.json', { layers: ['', '', '', '', '', '', '', '', 'Enemies'] });
  const scene = JSON.parse(savedSceneText(workspace)) as { objects: SceneObject[] };
  scene.objects.find((o) => o.name === 'Player')?.components.push({ type: 'MyGame.Health' });
  (scene.objects.find((o) => o.name === 'Crate') as SceneObject).layer = 8;
  write(workspace, 'Assets/Scenes/SampleScene.json', scene);
  return workspace;
}

interface Entry {
  path: string;
  type: string;
  value: unknown;
  isArray?: boolean;
  arraySize?: number;
  enumNames?: string[];
  objectType?: string;
}

interface Listing {
  type: string;
  properties: Entry[];
  truncated: boolean;
  note?: string;
}

interface Written {
  type: string;
  properties: Array<{ path: string; type: string; previous: unknown; value: unknown }>;
}

const byPath = (listing: Listing): Record<string, Entry> => Object.fromEntries(listing.properties.map((p) => [p.path, p]));
const PLAYER_BODY = { gameObject: '/Player', component: 'Rigidbody' };
const HEALTH_TARGET = { gameObject: '/Player', component: 'Health' };

describe('serialized properties through tether call', () => {
  const { workspace } = sharedSandbox({ workspace: fixtureProject, mcp: false });

  it('reads and writes a built-in component\'s fields, all or nothing, with "did you mean", and undoes the write', async () => {
    const listing = await callOk<Listing>(workspace, 'get_serialized_properties', { target: PLAYER_BODY });
    expect(listing.type).toBe('Rigidbody');
    expect(byPath(listing)).toMatchObject({
      m_Mass: { type: 'Float', value: 1 },
      m_UseGravity: { type: 'Boolean', value: true },
      m_Interpolate: { type: 'Enum', value: 'None', enumNames: ['None', 'Interpolate', 'Extrapolate'] },
    });

    const written = await callOk<Written>(workspace, 'set_serialized_properties', {
      target: PLAYER_BODY,
      properties: [
        { path: 'm_Mass', value: 5 },
        { path: 'm_UseGravity', value: false },
        { path: 'm_Interpolate', value: 'Interpolate' },
      ],
    });
    expect(written.properties).toEqual([
      { path: 'm_Mass', type: 'Float', previous: 1, value: 5 },
      { path: 'm_UseGravity', type: 'Boolean', previous: true, value: false },
      { path: 'm_Interpolate', type: 'Enum', previous: 'None', value: 'Interpolate' },
    ]);
    expect(sceneObject(workspace, 'Player').components.find((c) => c.type === 'Rigidbody')?.properties).toEqual({ m_Mass: 5, m_UseGravity: false, m_Interpolate: 'Interpolate' });

    // A wrong value anywhere: nothing is written, and the error says what the field takes.
    const wrongType = await callFails(
      workspace,
      'set_serialized_properties',
      {
        target: PLAYER_BODY,
        properties: [
          { path: 'm_Drag', value: 2 },
          { path: 'm_Mass', value: 'heavy' },
        ],
      },
      'INVALID_ARGUMENTS',
    );
    expect(wrongType).toContain('properties[1].value: m_Mass is a Float, not the string "heavy". Give a number');
    expect(await callFails(workspace, 'set_serialized_properties', { target: PLAYER_BODY, properties: [{ path: 'm_Mas', value: 1 }] }, 'NOT_FOUND')).toContain('Did you mean "m_Mass"');
    expect(sceneObject(workspace, 'Player').components.find((c) => c.type === 'Rigidbody')?.properties).toEqual({ m_Mass: 5, m_UseGravity: false, m_Interpolate: 'Interpolate' });

    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Set 3 properties of Rigidbody on "/Player"'] });
    expect(sceneObject(workspace, 'Player').components.find((c) => c.type === 'Rigidbody')?.properties).toBeUndefined();
  });

  it('refuses a target that names nothing, no component, or a path outside the project', async () => {
    expect(await callFails(workspace, 'get_serialized_properties', { target: {} }, 'INVALID_ARGUMENTS')).toContain('Give gameObject and component');
    expect(await callFails(workspace, 'get_serialized_properties', { target: { gameObject: '/Player' } }, 'INVALID_ARGUMENTS')).toContain('name one of its components (Transform, MeshFilter');
    expect(await callFails(workspace, 'set_serialized_properties', { target: { asset: '../outside.asset' }, properties: [{ path: 'a', value: 1 }] }, 'PATH_OUTSIDE_PROJECT')).toContain(
      'outside the project',
    );
    expect(await callFails(workspace, 'get_serialized_properties', { target: { gameObject: '/Player', component: 'Rigidbody', extra: 1 } }, 'INVALID_ARGUMENTS')).toContain('extra');
  });

  it('finds GameObjects by path glob and by layer, and sets a layer by name', async () => {
    const names = async (args: Record<string, unknown>): Promise<string[]> => (await callOk<{ objects: Array<{ path: string }> }>(workspace, 'find_gameobjects', args)).objects.map((o) => o.path);
    expect(await names({ path: '/Environment/*' })).toEqual(['/Environment/Ground', '/Environment/Crate']);
    expect(await names({ layer: 'Enemies' })).toEqual(['/Environment/Crate']);
    expect(await callFails(workspace, 'find_gameobjects', { layer: 'Enemes' }, 'INVALID_ARGUMENTS')).toContain('Did you mean "Enemies"?');
    const created = await callOk<{ created: { layer: number } }>(workspace, 'create_gameobject', { name: 'Pond', primitive: 'Plane', layer: 'Water' });
    expect(created.created.layer).toBe(4);
    expect(await callOk(workspace, 'undo')).toEqual({ performed: 1, names: ['Create Pond'] });
  });
});

describe('serialized properties through an MCP client', () => {
  const { workspace, mcp: session } = sharedSandbox({ workspace: fixtureProject });
  const call = async <T>(name: string, args: Record<string, unknown>): Promise<T> => {
    const result = await session.client.callTool({ name, arguments: args });
    expect(result.isError, `${name}: ${textOf(result)}`).toBeFalsy();
    return result.structuredContent as T;
  };
  const fails = async (name: string, args: Record<string, unknown>, code = 'INVALID_ARGUMENTS'): Promise<string> => {
    const result = await session.client.callTool({ name, arguments: args });
    expect(result.isError, JSON.stringify(result.structuredContent)).toBe(true);
    expect((result._meta as Record<string, { code: string }> | undefined)?.['tether/error']?.code, textOf(result)).toBe(code);
    return textOf(result);
  };
  const set = (target: Record<string, unknown>, properties: Array<{ path: string; value: unknown }>): Promise<Written> => call<Written>('set_serialized_properties', { target, properties });

  it('declares both tools with output schemas and truthful annotations', async () => {
    const { tools } = await session.client.listTools();
    const get = tools.find((t) => t.name === 'get_serialized_properties');
    const put = tools.find((t) => t.name === 'set_serialized_properties');
    expect(get?.outputSchema).toBeDefined();
    expect(put?.outputSchema).toBeDefined();
    expect(get?.annotations).toMatchObject({ readOnlyHint: true, idempotentHint: true });
    expect(put?.annotations).toMatchObject({ readOnlyHint: false, destructiveHint: false, idempotentHint: true });
    expect(tools.find((t) => t.name === 'find_gameobjects')?.inputSchema.properties).toHaveProperty('layer');
  });

  it('says what is wrong with a value, a path or a target, and writes nothing then', async () => {
    expect(await fails('set_serialized_properties', { target: PLAYER_BODY, properties: [{ path: 'm_Interpolate', value: 'Interpolat' }] })).toContain('did you mean "Interpolate"');
    expect(await fails('get_serialized_properties', { target: PLAYER_BODY, path: 'm_Mass.x' }, 'NOT_FOUND')).toContain('"m_Mass" is a Float and has no fields');
    expect(await fails('get_serialized_properties', { target: PLAYER_BODY, path: 'm_Mass[' })).toContain('without its "]"');
    expect(await fails('set_serialized_properties', { target: PLAYER_BODY, properties: [] })).toContain('properties');
    expect(await fails('get_serialized_properties', { target: { gameObject: '/Player', component: 'Rigidbdy' } }, 'NOT_FOUND')).toContain('Did you mean "Rigidbody"?');
    expect(await fails('get_serialized_properties', { target: { gameObject: '/Nobody', component: 'Light' } }, 'NOT_FOUND')).toContain('/Nobody');
    expect(await fails('get_serialized_properties', { target: { gameObject: '/Player', component: 'Rigidbody', index: 1 } }, 'NOT_FOUND')).toContain('only 1 Rigidbody');
    expect(await fails('get_serialized_properties', { target: { asset: 'Assets/Data/Gobblin.asset' } }, 'NOT_FOUND')).toContain('Did you mean "Assets/Data/Goblin.asset"?');
    expect(await fails('get_serialized_properties', { target: { asset: 'Assets/Textures/Wood.png' } })).toContain('not a ScriptableObject (.asset)');
    expect(await fails('get_serialized_properties', { target: { asset: 'Assets/Data/Goblin.asset', component: 'Rigidbody' } })).toContain('is an asset');
    expect(await fails('get_serialized_properties', { target: { asset: 'ProjectSettings/TagManager.json' } })).toContain('not under Assets/');
    expect(sceneObject(workspace, 'Player').components.find((c) => c.type === 'Rigidbody')?.properties).toBeUndefined();
  });

  it('finds by every kind of path glob and by layer index, and sets layers by index', async () => {
    const names = async (args: Record<string, unknown>): Promise<string[]> => (await call<{ objects: Array<{ path: string }> }>('find_gameobjects', args)).objects.map((o) => o.path);
    expect(await names({ path: '**/Cr?te' })).toEqual(['/Environment/Crate']);
    expect(await names({ path: '/Environment/**' })).toEqual(['/Environment', '/Environment/Ground', '/Environment/Crate']);
    expect(await names({ path: 'Player' })).toEqual(['/Player']);
    expect(await names({ path: '/*' })).toEqual(['/Main Camera', '/Directional Light', '/Environment', '/Player']);
    expect(await names({ layer: '8', name: 'crate' })).toEqual(['/Environment/Crate']);
    expect(await names({ layer: 'Enemies', path: '/Player' })).toEqual([]);
    expect(await names({ layer: 'Default', component: 'Rigidbody' })).toEqual(['/Player']);
    expect(await names({ component: 'Health' })).toEqual(['/Player']);
    expect(await names({ component: 'MyGame.Health' })).toEqual(['/Player']);
    expect(await fails('find_gameobjects', { layer: '32' })).toContain('index from 0 to 31');
    await call('create_gameobject', { name: 'Pond', layer: '4' });
    expect(await names({ layer: 'Water' })).toEqual(['/Pond']);
    expect((await call<{ modified: { layer: number } }>('modify_gameobject', { path: '/Pond', layer: 'Enemies' })).modified.layer).toBe(8);
    expect(sceneObject(workspace, 'Pond').layer).toBe(8);
    expect(await fails('modify_gameobject', { path: '/Pond', layer: 'Lava' })).toContain('no layer "Lava"');
    expect((await call<{ names: string[] }>('undo', { steps: 2 })).names).toEqual(['Modify Pond', 'Create Pond']);
  });

  it("reads a script's fields (private [SerializeField] ones, structs, arrays, enums) and writes arrays and structs", async () => {
    const listing = await call<Listing>('get_serialized_properties', { target: HEALTH_TARGET, depth: 2 });
    expect(listing.type).toBe('Health');
    const entries = byPath(listing);
    expect(Object.keys(entries).filter((path) => !path.includes('.'))).toEqual(['m_Script', 'maxHealth', 'regen', 'waypoints', 'labels', 'stats', 'kind', 'target', 'body', 'skin', 'tint']);
    expect(entries).toMatchObject({
      m_Script: { type: 'ObjectReference', value: { asset: 'Assets/Scripts/Health.cs' }, objectType: 'MonoScript' },
      maxHealth: { type: 'Integer', value: 100 },
      regen: { type: 'Float', value: 1.5 },
      waypoints: { type: 'Generic', isArray: true, arraySize: 0, value: [] },
      'waypoints.Array.size': { type: 'ArraySize', value: 0 },
      labels: { value: ['a', 'b'], arraySize: 2 },
      'labels.Array.data[1]': { type: 'String', value: 'b' },
      stats: { type: 'Generic', value: { speed: 3, armor: 0 } },
      'stats.speed': { type: 'Float', value: 3 },
      kind: { type: 'Enum', value: 'Ranged', enumNames: ['Melee', 'Ranged'] },
      target: { type: 'ObjectReference', value: null, objectType: 'Transform' },
      tint: { type: 'Color', value: [1, 0, 0, 1] },
    });

    // The size first, then an element it made room for; a struct in part keeps its other fields.
    const written = await set(HEALTH_TARGET, [
      { path: 'waypoints.Array.size', value: 2 },
      { path: 'waypoints[1]', value: [1, 2, 3] },
      { path: 'stats', value: { armor: 4 } },
      { path: 'stats.speed', value: 5.5 },
      { path: 'labels.Array.data[0]', value: 'z' },
      { path: 'kind', value: 0 },
      { path: 'tint.a', value: 0.5 },
    ]);
    expect(written.properties.map((p) => [p.path, p.value])).toEqual([
      ['waypoints.Array.size', 2],
      ['waypoints.Array.data[1]', [1, 2, 3]],
      ['stats', { speed: 3, armor: 4 }],
      ['stats.speed', 5.5],
      ['labels.Array.data[0]', 'z'],
      ['kind', 'Melee'],
      ['tint.a', 0.5],
    ]);
    const stored = sceneObject(workspace, 'Player').components.find((c) => c.type === 'MyGame.Health')?.properties;
    expect(stored).toEqual({
      waypoints: [
        [0, 0, 0],
        [1, 2, 3],
      ],
      stats: { speed: 5.5, armor: 4 },
      labels: ['z', 'b'],
      kind: 'Melee',
      tint: [1, 0, 0, 0.5],
    });

    // A bigger size copies the last element, as Unity's arraySize does; a whole array replaces it.
    expect((await set(HEALTH_TARGET, [{ path: 'labels.Array.size', value: 3 }])).properties[0]?.previous).toBe(2);
    expect((await call<Listing>('get_serialized_properties', { target: HEALTH_TARGET, path: 'labels' })).properties).toEqual([
      { path: 'labels', type: 'Generic', value: ['z', 'b', 'b'], isArray: true, arraySize: 3 },
    ]);
    await set(HEALTH_TARGET, [{ path: 'waypoints', value: [[9, 9, 9]] }]);

    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'waypoints[5]', value: [0, 0, 0] }] }, 'NOT_FOUND')).toContain('Set "waypoints.Array.size" first');
    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'waypoints', value: [[1, 2]] }] })).toContain('waypoints[0] is a Vector3, not an array of 2');
    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'stats', value: { speeed: 1 } }] })).toContain('Did you mean "speed"?');
    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'maxHealth', value: 1.5 }] })).toContain('maxHealth is an Integer');
    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'waypoints.Array.size', value: -1 }] })).toContain("array's size");
    expect(await fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path: 'm_Script', value: null }] })).toContain('read-only');
    expect(await fails('get_serialized_properties', { target: HEALTH_TARGET, path: 'maxHelth' }, 'NOT_FOUND')).toContain('Did you mean "maxHealth"?');
  });

  it("writes references to scene objects (kept across a rename) and to assets, of the field's type only", async () => {
    const values = await set(HEALTH_TARGET, [
      { path: 'target', value: { gameObject: '/Environment/Crate' } },
      { path: 'body', value: { gameObject: '/Player' } },
      { path: 'skin', value: { asset: 'Assets/Materials/Red.mat' } },
    ]);
    expect(values.properties.map((p) => p.value)).toEqual([
      { gameObject: '/Environment/Crate', component: 'Transform' },
      { gameObject: '/Player', component: 'Rigidbody' },
      { asset: 'Assets/Materials/Red.mat' },
    ]);
    await call('modify_gameobject', { path: '/Environment/Crate', name: 'Box' });
    expect(byPath(await call<Listing>('get_serialized_properties', { target: HEALTH_TARGET, path: 'target' })).target?.value).toEqual({ gameObject: '/Environment/Box', component: 'Transform' });
    await call('modify_gameobject', { path: '/Environment/Box', name: 'Crate' });

    const refused = async (path: string, value: unknown): Promise<string> => fails('set_serialized_properties', { target: HEALTH_TARGET, properties: [{ path, value }] });
    expect(await refused('skin', { asset: 'Assets/Textures/Wood.png' })).toContain('skin takes a Material, and "Assets/Textures/Wood.png" is a Texture2D');
    expect(await refused('skin', { asset: 'Assets/Materials/Blue.mat' })).toContain('there is no asset at "Assets/Materials/Blue.mat"');
    expect(await refused('body', { gameObject: '/Environment/Crate' })).toContain('has no component that is one');
    expect(await refused('target', { gameObject: '/Player', component: 'Rigidbody' })).toContain('a Rigidbody is no Transform');
    expect(await refused('target', { gameObject: '/Nowhere' })).toContain('no GameObject at "/Nowhere"');
    expect(await refused('skin', 'Assets/Materials/Red.mat')).toContain('is no reference');

    // The built-in resources, by name: a primitive's mesh and material.
    await call('create_gameobject', { name: 'Ball', primitive: 'Sphere' });
    const ball = byPath(await call<Listing>('get_serialized_properties', { target: { gameObject: '/Ball', component: 'MeshRenderer' } }));
    expect(ball.m_Materials?.value).toEqual([{ asset: 'Resources/unity_builtin_extra', name: 'Default-Material' }]);
    await set({ gameObject: '/Ball', component: 'MeshFilter' }, [{ path: 'm_Mesh', value: { asset: 'Library/unity default resources', name: 'Cube' } }]);
    expect(sceneObject(workspace, 'Ball').components.find((c) => c.type === 'MeshFilter')?.properties).toEqual({ mesh: 'Cube' });
    await set({ gameObject: '/Ball', component: 'MeshRenderer' }, [{ path: 'm_Materials.Array.data[0]', value: { asset: 'Assets/Materials/Red.mat' } }]);
  });

  it("binds the Transform to the GameObject, and reads legacy keys (a Light's type) under Unity's names", async () => {
    const transform = { gameObject: '/Environment/Ground', component: 'Transform' };
    await set(transform, [
      { path: 'm_LocalPosition.y', value: 2 },
      { path: 'm_LocalRotation', value: [0, 0.7071068, 0, 0.7071068] },
    ]);
    expect(sceneObject(workspace, 'Ground')).toMatchObject({ position: [0, 2, 0], rotation: [0, 90, 0], scale: [8, 1, 8] });
    expect(byPath(await call<Listing>('get_serialized_properties', { target: transform })).m_LocalRotation?.value).toEqual([0, 0.707107, 0, 0.707107]);

    const light = { gameObject: '/Directional Light', component: 'Light' };
    const entries = byPath(await call<Listing>('get_serialized_properties', { target: light, depth: 2 }));
    expect(entries).toMatchObject({ m_Type: { value: 'Directional' }, 'm_Shadows.m_Strength': { type: 'Float', value: 1 } });
    await set(light, [
      { path: 'm_Type', value: 'Spot' },
      { path: 'm_Shadows.m_Type', value: 'Soft' },
    ]);
    expect(sceneObject(workspace, 'Directional Light').components.find((c) => c.type === 'Light')?.properties).toEqual({ type: 'Spot', m_Shadows: expect.objectContaining({ m_Type: 'Soft' }) });
    expect((await call<{ performed: number }>('undo', { steps: 2 })).performed).toBe(2);
    expect(sceneObject(workspace, 'Ground')).toMatchObject({ position: [0, 0, 0], rotation: [0, 0, 0] });
  });

  it('reads and writes a ScriptableObject asset, a material and a prefab, each write one undo step', async () => {
    const goblin = { asset: 'Assets/Data/Goblin.asset' };
    expect(byPath(await call<Listing>('get_serialized_properties', { target: goblin }))).toMatchObject({
      displayName: { value: 'Goblin' },
      hp: { type: 'Integer', value: 12 },
      prefab: { objectType: 'GameObject', value: null },
    });
    await set(goblin, [
      { path: 'hp', value: 20 },
      { path: 'prefab', value: { asset: 'Assets/Prefabs/Enemy.prefab' } },
      { path: 'next', value: goblin },
    ]);
    expect(readJson(workspace, 'Assets/Data/Goblin.asset')).toEqual({
      type: 'EnemyStats',
      fields: { displayName: 'Goblin', hp: 20, prefab: { asset: 'Assets/Prefabs/Enemy.prefab' }, next: { asset: 'Assets/Data/Goblin.asset' }, extra: 'kept' },
    });
    expect(await fails('set_serialized_properties', { target: goblin, properties: [{ path: 'prefab', value: { gameObject: '/Player' } }] })).toContain('an asset cannot reference a scene object');
    expect(await fails('set_serialized_properties', { target: goblin, properties: [{ path: 'next', value: { asset: 'Assets/Materials/Red.mat' } }] })).toContain('is a Material');

    const red = { asset: 'Assets/Materials/Red.mat' };
    const material = byPath(await call<Listing>('get_serialized_properties', { target: red, depth: 5 }));
    expect(material).toMatchObject({
      m_Shader: { value: { asset: 'Resources/unity_builtin_extra', name: 'Standard' } },
      'm_SavedProperties.m_Colors.Array.data[0].first': { value: '_Color' },
      'm_SavedProperties.m_Floats.Array.data[0].second': { value: 0.5 },
      'm_SavedProperties.m_TexEnvs.Array.data[0].second.m_Texture': { value: null, objectType: 'Texture' },
    });
    await set(red, [
      { path: 'm_SavedProperties.m_Colors.Array.data[0].second', value: [0, 1, 0, 1] },
      { path: 'm_SavedProperties.m_TexEnvs.Array.data[0].second.m_Texture', value: { asset: 'Assets/Textures/Wood.png' } },
    ]);
    expect(readJson(workspace, 'Assets/Materials/Red.mat')).toEqual({
      type: 'Material',
      shader: 'Standard',
      properties: { _Color: [0, 1, 0, 1], _MainTex: { asset: 'Assets/Textures/Wood.png' }, _Glossiness: 0.5 },
    });

    await set({ asset: 'Assets/Prefabs/Enemy.prefab', component: 'Rigidbody' }, [{ path: 'm_Mass', value: 3 }]);
    await set({ asset: 'Assets/Prefabs/Enemy.prefab', gameObject: '/Enemy/Gun', component: 'BoxCollider' }, [{ path: 'm_Size', value: [1, 2, 1] }]);
    const prefab = readJson<typeof PREFAB & { root: { components: SceneObject['components']; children: SceneObject[] } }>(workspace, 'Assets/Prefabs/Enemy.prefab');
    expect(prefab.root.components[1]).toEqual({ type: 'Rigidbody', properties: { m_Mass: 3 } });
    expect(prefab.root.children[0]?.components[1]).toEqual({ type: 'BoxCollider', properties: { m_Size: [1, 2, 1] } });
    expect(await fails('get_serialized_properties', { target: { asset: 'Assets/Prefabs/Enemy.prefab', gameObject: '/Enemy/Sword', component: 'BoxCollider' } }, 'NOT_FOUND')).toContain(
      'no GameObject at "/Enemy/Sword"',
    );

    const undone = await call<{ names: string[] }>('undo', { steps: 4 });
    expect(undone.names).toEqual([
      'Set m_Size of BoxCollider on "/Enemy/Gun" in "Assets/Prefabs/Enemy.prefab"',
      'Set m_Mass of Rigidbody on "/Enemy" in "Assets/Prefabs/Enemy.prefab"',
      'Set 2 properties of "Assets/Materials/Red.mat"',
      'Set 3 properties of "Assets/Data/Goblin.asset"',
    ]);
    expect(readJson(workspace, 'Assets/Prefabs/Enemy.prefab')).toMatchObject({ root: { components: [{ type: 'Transform' }, { type: 'Rigidbody' }] } });
    expect(readJson(workspace, 'Assets/Materials/Red.mat')).toMatchObject({ properties: { _Color: [1, 0, 0, 1], _MainTex: null } });
    expect(readJson(workspace, 'Assets/Data/Goblin.asset')).toEqual({ type: 'EnemyStats', fields: { hp: 12, extra: 'kept' } });
  });

  it('guesses the fields of a class no script declares, and says so', async () => {
    write(workspace, 'Assets/Data/Loose.asset', { type: 'LooseData', fields: { speed: 2, name: 'x', list: [1, 2] } });
    const listing = await call<Listing>('get_serialized_properties', { target: { asset: 'Assets/Data/Loose.asset' } });
    expect(listing.note).toContain('No script under Assets/ declares the class LooseData');
    expect(byPath(listing)).toMatchObject({ speed: { type: 'Float', value: 2 }, list: { isArray: true, arraySize: 2 } });
  });
});
