/**
 * The names the sandbox's GameObject tools take, as the Unity package takes them
 * (SceneVocabulary, ComponentTypeResolver, GameObject.CreatePrimitive): component types and tags
 * checked before anything changes, a primitive's collider, and a component type by its short or
 * full name in every tool. Through an MCP client on a sandbox over the sample project.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherError } from '../../src/protocol/index.js';
import { Project } from '../../src/sandbox/project.js';
import { requireTag } from '../../src/sandbox/tags.js';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace, sceneText, type Workspace } from '../helpers/processes.js';
import { thrownBy } from '../helpers/thrown.js';
import { startToolSandbox } from '../helpers/tool-session.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

interface Described {
  path: string;
  tag: string;
  components: { type: string }[];
}

/** The sample project with a tag of its own, "Enemy", in its TagManager. */
function withEnemyTag(): Workspace {
  const workspace = createWorkspace();
  mkdirSync(join(workspace.project, 'ProjectSettings'), { recursive: true });
  writeFileSync(join(workspace.project, 'ProjectSettings', 'TagManager.json'), JSON.stringify({ tags: ['Enemy'], layers: [] }));
  return workspace;
}

const types = (described: Described): string[] => described.components.map((c) => c.type);

describe('create_gameobject and modify_gameobject check component types and tags first', () => {
  it('refuse an unknown component type or tag with the closest names, and change nothing', async () => {
    const { workspace, mcp } = await startToolSandbox({ workspace: withEnemyTag });
    const before = sceneText(workspace);
    expect(await mcp.fails('create_gameobject', { name: 'Bad', components: ['Rigidbdy'] }, 'INVALID_ARGUMENTS')).toContain(
      'Invalid arguments for create_gameobject: components: no component type named "Rigidbdy". Did you mean "Rigidbody", "Rigidbody2D"?',
    );
    expect(await mcp.fails('create_gameobject', { name: 'Bad', tag: 'NoSuchTag' }, 'INVALID_ARGUMENTS')).toContain(
      'Invalid arguments for create_gameobject: tag: the project defines no tag "NoSuchTag". Tags are: Untagged, Respawn, Finish, EditorOnly, MainCamera, Player, GameController, Enemy. Add new ones in Project Settings > Tags and Layers.',
    );
    // The components are checked before the tag, as in the Unity package.
    expect(await mcp.fails('create_gameobject', { name: 'Bad', tag: 'NoSuchTag', components: ['Lamp'] }, 'INVALID_ARGUMENTS')).toContain('components:');
    expect(await mcp.fails('modify_gameobject', { path: '/Player', name: 'Renamed', addComponents: ['BoxColider'] }, 'INVALID_ARGUMENTS')).toContain(
      'addComponents: no component type named "BoxColider". Did you mean "BoxCollider"',
    );
    expect(await mcp.fails('modify_gameobject', { path: '/Player', name: 'Renamed', tag: 'Enemi' }, 'INVALID_ARGUMENTS')).toContain(
      'Invalid arguments for modify_gameobject: tag: the project defines no tag "Enemi".',
    );
    expect(sceneText(workspace)).toBe(before);
    expect(await mcp.ok('undo')).toEqual({ performed: 0, names: [] });
  });

  it("names the closest tags in the error's data, as the Unity package does", () => {
    const project = new Project(withEnemyTag().project);
    const refusal = thrownBy(() => requireTag(project, 'Enemi', 'modify_gameobject'), TetherError);
    expect(refusal.code).toBe('INVALID_ARGUMENTS');
    expect(refusal.data).toEqual({ tool: 'modify_gameobject', field: 'tag', problem: 'the project defines no tag "Enemi"', suggestions: ['Enemy'] });
    expect(() => requireTag(project, 'GameController', 'modify_gameobject')).not.toThrow();
  });

  it("take the built-in tags and the project's own, and skip a type the GameObject has (its Transform too)", async () => {
    const { mcp } = await startToolSandbox({ workspace: withEnemyTag });
    const { created } = await mcp.ok<{ created: Described }>('create_gameobject', { name: 'Foe', tag: 'Enemy', components: ['Transform', 'Rigidbody', 'Rigidbody', 'BoxCollider', 'BoxCollider'] });
    expect(created.tag).toBe('Enemy');
    expect(types(created)).toEqual(['Transform', 'Rigidbody', 'BoxCollider']);
    const { modified } = await mcp.ok<{ modified: Described }>('modify_gameobject', { path: '/Foe', tag: 'Respawn', addComponents: ['Transform', 'Rigidbody', 'Light'] });
    expect(modified.tag).toBe('Respawn');
    expect(types(modified)).toEqual(['Transform', 'Rigidbody', 'BoxCollider', 'Light']);
  });
});

describe('a primitive has the collider GameObject.CreatePrimitive gives it', () => {
  it('a Box, Sphere or Capsule collider, or a MeshCollider of its mesh, and no second one when asked for it', async () => {
    const { mcp } = await startToolSandbox();
    const colliders: Record<string, string> = { Cube: 'BoxCollider', Sphere: 'SphereCollider', Capsule: 'CapsuleCollider', Cylinder: 'CapsuleCollider', Plane: 'MeshCollider', Quad: 'MeshCollider' };
    for (const [primitive, collider] of Object.entries(colliders)) {
      const { created } = await mcp.ok<{ created: Described }>('create_gameobject', { name: primitive, primitive });
      expect(types(created), primitive).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', collider]);
    }
    const mesh = await mcp.ok<{ properties: Array<{ path: string; value: unknown }> }>('get_serialized_properties', { target: { gameObject: '/Plane', component: 'MeshCollider' }, path: 'm_Mesh' });
    expect(mesh.properties[0]?.value).toEqual({ asset: 'Library/unity default resources', name: 'Plane' });

    // As in the Unity package, a type the primitive has already is skipped, not added twice.
    const { created } = await mcp.ok<{ created: Described }>('create_gameobject', { name: 'Crate', primitive: 'Cube', components: ['BoxCollider', 'Rigidbody'] });
    expect(types(created)).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'BoxCollider', 'Rigidbody']);
  });
});

describe('a component type by its short or full name', () => {
  it('in find_gameobjects, add_component, remove_component, modify_gameobject and references', async () => {
    const { workspace, mcp } = await startToolSandbox();
    const found = await mcp.ok<{ objects: Described[] }>('find_gameobjects', { component: 'UnityEngine.Light' });
    expect(found.objects.map((o) => o.path)).toEqual(['/Directional Light']);

    const added = await mcp.ok<{ added: { type: string } }>('add_component', { path: '/Player', type: 'UnityEngine.BoxCollider' });
    expect(added.added.type).toBe('BoxCollider');
    expect((await mcp.ok<{ added: { type: string } }>('add_component', { path: '/Player', type: 'UnityEngine.AI.NavMeshAgent' })).added.type).toBe('NavMeshAgent');
    expect(await mcp.fails('add_component', { path: '/Player', type: 'UnityEngine.Rigidbody' }, 'INVALID_ARGUMENTS')).toContain('already has a Rigidbody');
    expect(await mcp.fails('add_component', { path: '/Player', type: 'MyGame.BoxCollider' }, 'INVALID_ARGUMENTS')).toContain('no component type named "MyGame.BoxCollider"');

    const removed = await mcp.ok<{ removed: string; gameObject: Described }>('remove_component', { path: '/Player', type: 'UnityEngine.BoxCollider' });
    expect(types(removed.gameObject)).not.toContain('BoxCollider');
    expect(await mcp.fails('remove_component', { path: '/Player', type: 'UnityEngine.Transform' }, 'INVALID_ARGUMENTS')).toContain('cannot lose its Transform');

    // The Unity package refuses "Transform" alone there, and leaves the Transform of any other name.
    const { modified } = await mcp.ok<{ modified: Described }>('modify_gameobject', { path: '/Player', removeComponents: ['UnityEngine.Rigidbody', 'UnityEngine.Transform'] });
    expect(types(modified)).toEqual(['Transform', 'MeshFilter', 'MeshRenderer', 'NavMeshAgent']);

    await mcp.ok('add_component', { path: '/Player', type: 'Canvas' });
    const set = await mcp.ok<{ properties: Array<{ value: unknown }> }>('set_serialized_properties', {
      target: { gameObject: '/Player', component: 'UnityEngine.Canvas' },
      properties: [{ path: 'm_Camera', value: { gameObject: '/Main Camera', component: 'UnityEngine.Camera' } }],
    });
    expect(set.properties[0]?.value).toEqual({ gameObject: '/Main Camera', component: 'Camera' });
    expect(sceneText(workspace)).not.toContain('UnityEngine.');
  });
});
