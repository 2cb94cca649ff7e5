/**
 * Prefab tools: make a prefab from a GameObject, instantiate one, and apply an instance's
 * overrides to its prefab or revert them (PrefabUtility's SaveAsPrefabAssetAndConnect,
 * InstantiatePrefab, ApplyPrefabInstance, RevertPrefabInstance, with InteractionMode.UserAction:
 * each call one undo step; a prefab asset once created stays after an undo, as in Unity).
 * Prefab mode (open_prefab, close_prefab) is in prefab-stage-tools.ts.
 */
import { existsSync } from 'node:fs';
import { posix } from 'node:path';
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { assetPath, assetTaken } from '../assets/asset-paths.js';
import { unityEuler } from '../euler-angles.js';
import { byIdOf, holdsInstance, instanceRootOf } from '../prefabs/instance-parts.js';
import { applyInstance, connect, instantiate, rebuild } from '../prefabs/prefab-edits.js';
import { describePrefab, loadPrefab, PREFAB_EXTENSION, readPrefab, writePrefab, type PrefabFile } from '../prefabs/prefab-file.js';
import { overridesOf, summarize, type OverridesSummary } from '../prefabs/prefab-overrides.js';
import { currentStage } from '../prefabs/prefab-stage.js';
import { syncInstances } from '../prefabs/prefab-sync.js';
import type { Project } from '../project.js';
import type { GameObject } from '../game-object.js';
import type { Scene } from '../scene.js';
import type { SceneSet } from '../scenes.js';
import { objectName, vector3 } from './gameobject-schemas.js';
import { noteEdit } from './play-mode-tool.js';
import { prefabStageTools } from './prefab-stage-tools.js';
import { defineTool } from './tool.js';

/** A prefab instance's root as these tools describe it. */
const instanceInfo = z.object({
  id: z.number().int(),
  name: z.string(),
  path: z.string(),
  assetPath: z.string().describe('The prefab it is an instance of.'),
  position: z.array(z.number()),
  rotation: z.array(z.number()),
  scale: z.array(z.number()),
});

const overridesSummary = z.object({
  propertyOverrides: z.array(z.object({ path: z.string(), target: z.string().describe('"GameObject", "Transform" or the component type.') })),
  addedComponents: z.array(z.object({ path: z.string(), type: z.string() })),
  removedComponents: z.array(z.object({ path: z.string(), type: z.string() })),
  addedGameObjects: z.array(z.string()),
  removedGameObjects: z.array(z.string()),
});

const instancePath = z.string().describe('A GameObject of the prefab instance, e.g. "/Enemy" (its outermost instance root is used).');

function describeInstance(scene: Scene, object: GameObject): z.infer<typeof instanceInfo> {
  return { id: object.id, name: object.name, path: scene.pathOf(object), assetPath: object.prefab!.asset, position: object.position, rotation: unityEuler(object.rotation), scale: object.scale };
}

/** Nested prefabs are not modelled: no prefab is made or placed inside the prefab open in prefab mode. */
function refuseInStage(scenes: SceneSet, tool: string): void {
  const stage = currentStage(scenes);
  if (!stage) return;
  const problem = `"${stage.assetPath}" is open in prefab mode, and placing a prefab inside another makes a nested prefab, which these tools do not make`;
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${problem}. Close it first (close_prefab).`, { tool, field: '', problem });
}

/** The new prefab's path: under Assets/, ending in .prefab, not taken. */
function newPrefabPath(project: Project, input: string, tool: string): string {
  const path = assetPath(project, input, tool, 'assetPath');
  if (posix.extname(path) !== PREFAB_EXTENSION || posix.basename(path) === PREFAB_EXTENSION) {
    const problem = `"${input}" is not a prefab file name (${PREFAB_EXTENSION})`;
    throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: assetPath: ${problem}. Give the file's path with its extension, e.g. "Assets/Prefabs/Enemy.prefab".`, { tool, field: 'assetPath', problem });
  }
  if (existsSync(project.resolveInside(path))) throw assetTaken(tool, 'assetPath', path, 'Choose another path; create_prefab never overwrites an asset (apply_prefab_overrides updates a prefab).');
  return path;
}

/** The root of the instance the object at `path` is part of, or INVALID_ARGUMENTS. */
function requireInstanceRoot(scene: Scene, path: string, tool: string): GameObject {
  const object = scene.require(path);
  const root = instanceRootOf(byIdOf(scene.objects), object);
  if (root) return root;
  const problem = `"${scene.pathOf(object)}" is not part of a prefab instance`;
  throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem} (a GameObject added to an instance is not either). Name a GameObject of an instance; find_gameobjects shows which are.`, {
    tool,
    field: 'path',
    problem,
  });
}

/** The instance the object at `path` is part of, its prefab, and its overrides by path (before apply or revert changes them). */
function instanceOverrides(project: Project, scene: Scene, path: string, tool: string): { root: GameObject; file: PrefabFile; summary: OverridesSummary } {
  const root = requireInstanceRoot(scene, path, tool);
  const asset = root.prefab!.asset;
  const file = loadPrefab(project, asset);
  if (!file) throw new TetherError('NOT_FOUND', `${tool}: the prefab "${asset}" of the instance is missing. Restore the asset, or delete the instance.`, { path: asset });
  return { root, file, summary: summarize(scene.objects, root, file, overridesOf(scene.objects, root, file)) };
}

export const prefabTools = [
  defineTool({
    name: 'create_prefab',
    title: 'Create prefab',
    description:
      'Saves a GameObject (with its children) as a new prefab asset, and makes the GameObject an instance of it. Undo makes it a plain GameObject again; the asset stays, as in Unity. Refuses a GameObject that is or holds a prefab instance (that would nest prefabs).',
    input: z.object({
      path: z.string().describe('The GameObject, e.g. "/Enemy".'),
      assetPath: z.string().describe('Where to save the prefab, e.g. "Assets/Prefabs/Enemy.prefab". Must not exist yet.'),
    }),
    output: z.object({ prefab: z.object({ assetPath: z.string(), name: z.string(), objects: z.number().int().describe('GameObjects in the prefab.') }), instance: instanceInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ path, assetPath: input }, { project, scene, scenes, undo, console }) => {
      const tool = 'create_prefab';
      refuseInStage(scenes, tool);
      const object = scene.require(path);
      const asset = newPrefabPath(project, input, tool);
      const inside = holdsInstance(scene.objects, object.id);
      if (inside) {
        const problem = `"${scene.pathOf(inside)}" is part of an instance of "${inside.prefab!.asset}"`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: path: ${problem}, and a prefab made from it would nest prefabs. Apply or revert that instance instead, or choose a GameObject without instances.`, {
          tool,
          field: 'path',
          problem,
        });
      }
      const file = undo.group(`Create Prefab ${object.name}`, () => {
        const data = scene.snapshot();
        const made = connect(data, object.id, asset);
        writePrefab(project, asset, made);
        scene.replace(data);
        return made;
      });
      console.write('log', `Created prefab ${asset} from ${path}`);
      return { prefab: describePrefab(asset, file), instance: describeInstance(scene, scene.byId(object.id)!) };
    },
  }),

  defineTool({
    name: 'instantiate_prefab',
    title: 'Instantiate prefab',
    description: 'Places an instance of a prefab in the active scene, under a parent or at the root, optionally named and placed. Not idempotent: each call places one more.',
    input: z.object({
      assetPath: z.string().describe('The prefab, e.g. "Assets/Prefabs/Enemy.prefab".'),
      parent: z.string().optional().describe('Path of the parent, e.g. "/Enemies". Default: the scene root.'),
      name: objectName.optional().describe('The instance\'s name. Default: the prefab\'s.'),
      position: vector3.optional(),
      rotation: vector3.optional(),
    }),
    output: z.object({ instance: instanceInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ assetPath: input, parent, name, position, rotation }, context) => {
      const { project, scene, scenes, undo, console } = context;
      const tool = 'instantiate_prefab';
      refuseInStage(scenes, tool);
      const { path, file } = readPrefab(project, input, tool);
      const parentId = parent === undefined ? null : scene.require(parent).id;
      const id = undo.group(`Instantiate ${name ?? file.root.name}`, () => {
        const data = scene.snapshot();
        const root = instantiate(data, file, path, parentId, { ...(name === undefined ? {} : { name }), ...(position ? { position } : {}), ...(rotation ? { rotation } : {}) });
        scene.replace(data);
        return root.id;
      });
      const root = scene.byId(id)!;
      console.write('log', `Instantiated ${path} as ${scene.pathOf(root)}`);
      return noteEdit(context, { instance: describeInstance(scene, root) });
    },
  }),

  defineTool({
    name: 'apply_prefab_overrides',
    title: 'Apply prefab overrides',
    description:
      'Applies all overrides of a prefab instance to its prefab asset (Apply All): changed properties, added and removed components, added GameObjects. Every other instance of the prefab then has them too, except where it overrides them itself. The root\'s name, position and rotation are not applied. One undo step, the asset included.',
    input: z.object({ path: instancePath }),
    output: z.object({ instance: instanceInfo, applied: overridesSummary }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: ({ path }, { project, scene, scenes, undo, console }) => {
      const { root, file, summary: applied } = instanceOverrides(project, scene, path, 'apply_prefab_overrides');
      const asset = root.prefab!.asset;
      undo.group(`Apply Prefab ${root.name}`, () => {
        const data = scene.snapshot();
        const next = applyInstance(data, data.objects.find((o) => o.id === root.id)!, file);
        writePrefab(project, asset, next);
        scene.replace(data);
        syncInstances(project, scenes, asset, file, next, { scene, id: root.id });
      });
      console.write('log', `Applied ${scene.pathOf(scene.byId(root.id)!)} to ${asset}`);
      return { instance: describeInstance(scene, scene.byId(root.id)!), applied };
    },
  }),

  defineTool({
    name: 'revert_prefab_overrides',
    title: 'Revert prefab overrides',
    description:
      'Reverts all overrides of a prefab instance (Revert All): its properties, components and GameObjects become the prefab\'s again; GameObjects added to it are deleted. The root\'s name, position and rotation stay. One undo step.',
    input: z.object({ path: instancePath }),
    output: z.object({ instance: instanceInfo, reverted: overridesSummary }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: true },
    run: ({ path }, context) => {
      const { project, scene, undo, console } = context;
      const { root, file, summary: reverted } = instanceOverrides(project, scene, path, 'revert_prefab_overrides');
      undo.group(`Revert Prefab ${root.name}`, () => {
        const data = scene.snapshot();
        rebuild(data, data.objects.find((o) => o.id === root.id)!, undefined, file, 'revert');
        scene.replace(data);
      });
      console.write('log', `Reverted ${scene.pathOf(scene.byId(root.id)!)} to ${root.prefab!.asset}`);
      return noteEdit(context, { instance: describeInstance(scene, scene.byId(root.id)!), reverted });
    },
  }),

  ...prefabStageTools,
];
