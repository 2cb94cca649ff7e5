/**
 * GameObject tools beyond create/modify/delete: duplicate, reparent, and add or remove one
 * component by type name. Each edit is one undo step; names are checked before anything changes.
 * In play mode each result says the edit lasts only until play mode exits (noteEdit).
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import { namesComponent } from '../component-names.js';
import { uniqueSiblingName } from '../component-types.js';
import type { GameObject } from '../game-object.js';
import { byIdOf, instanceRootOf } from '../prefabs/instance-parts.js';
import type { Scene } from '../scene.js';
import { componentTypes } from './component-choice.js';
import { describeGameObject, gameObjectInfo, objectName } from './gameobject-schemas.js';
import { noteEdit } from './play-mode-tool.js';
import { defineTool } from './tool.js';

function siblingNames(scene: Scene, parentId: number | null, except?: GameObject): string[] {
  return scene.children(parentId).filter((o) => o !== except).map((o) => o.name);
}

export const gameObjectTools = [
  defineTool({
    name: 'duplicate_gameobject',
    title: 'Duplicate GameObject',
    description:
      'Copies a GameObject with its children and components, as the last child of the same parent (or of another). The copy is named like Edit > Duplicate does ("Crate (1)") unless given a name. Not idempotent: each call makes one more copy.',
    input: z.object({
      path: z.string().describe('The GameObject to copy, e.g. "/Environment/Crate".'),
      name: objectName.optional().describe('The copy\'s name. Default: the original\'s, numbered so that siblings differ ("Crate (1)").'),
      parent: z.string().optional().describe('Path of the copy\'s parent. Default: the original\'s parent.'),
    }),
    output: z.object({ duplicated: gameObjectInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ path, name, parent }, context) => {
      const { scene, undo } = context;
      const original = scene.require(path);
      const parentId = parent === undefined ? original.parentId : scene.require(parent).id;
      const copyName = name ?? uniqueSiblingName(original.name, siblingNames(scene, parentId));
      const copy = undo.group(`Duplicate ${original.name}`, () => scene.duplicate(original, parentId, copyName));
      return noteEdit(context, { duplicated: describeGameObject(scene, copy) });
    },
  }),

  defineTool({
    name: 'reparent_gameobject',
    title: 'Reparent GameObject',
    description:
      'Moves a GameObject (with its children) under another parent, or to the scene root. It keeps its local position, rotation and scale, now relative to the new parent.',
    input: z.object({
      path: z.string().describe('The GameObject to move, e.g. "/Crate".'),
      parent: z.string().optional().describe('Path of the new parent, e.g. "/Environment". Omit to move it to the scene root.'),
    }),
    output: z.object({ reparented: gameObjectInfo, previousPath: z.string() }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ path, parent }, context) => {
      const { scene, undo } = context;
      const object = scene.require(path);
      const previousPath = scene.pathOf(object);
      const target = parent === undefined ? undefined : scene.require(parent);
      // Unity keeps an instance's hierarchy as its prefab's: it moves no child of one out of it.
      const instanceRoot = instanceRootOf(byIdOf(scene.objects), object);
      if (instanceRoot && instanceRoot !== object) {
        const rootPath = scene.pathOf(instanceRoot);
        const problem = `"${previousPath}" is part of the prefab instance "${rootPath}", whose own children Unity does not move`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for reparent_gameobject: path: ${problem}. Move the whole instance ("${rootPath}"), or change the prefab itself (open_prefab).`, {
          tool: 'reparent_gameobject',
          field: 'path',
          problem,
          instanceRoot: rootPath,
        });
      }
      if (target && scene.isWithin(target, object)) {
        const problem = `"${scene.pathOf(target)}" is "${previousPath}" or one of its children`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for reparent_gameobject: parent: ${problem}, and a GameObject cannot be its own ancestor. Choose a parent outside it.`, {
          tool: 'reparent_gameobject',
          field: 'parent',
          problem,
        });
      }
      // Last among its new siblings, as Undo.SetTransformParent makes it; undo puts it back where it was.
      undo.group(`Reparent ${object.name}`, () => scene.reparent(object, target?.id ?? null));
      return noteEdit(context, { reparented: describeGameObject(scene, object), previousPath });
    },
  }),

  defineTool({
    name: 'add_component',
    title: 'Add component',
    description: 'Adds a component to a GameObject by type name ("Rigidbody", "BoxCollider", a script\'s class). A wrong name fails with the closest names.',
    input: z.object({
      path: z.string().describe('The GameObject, e.g. "/Player".'),
      type: z.string().min(1).describe('The component type, e.g. "Rigidbody" or "MyGame.Health".'),
    }),
    output: z.object({ added: z.object({ type: z.string(), index: z.number().int().describe('Its position among the GameObject\'s components.') }), gameObject: gameObjectInfo }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: ({ path, type }, context) => {
      const { scene, undo, project } = context;
      const object = scene.require(path);
      const { name, single, isIn } = componentTypes(project)(type, 'add_component', 'type');
      if (single && isIn(object.components)) {
        const problem = `"${scene.pathOf(object)}" already has a ${name}, and a GameObject can have only one`;
        throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for add_component: type: ${problem}. Change the one it has instead.`, { tool: 'add_component', field: 'type', problem });
      }
      undo.group(`Add ${name} to ${object.name}`, () => {
        object.components.push({ type: name });
        scene.commit();
      });
      return noteEdit(context, { added: { type: name, index: object.components.length - 1 }, gameObject: describeGameObject(scene, object) });
    },
  }),

  defineTool({
    name: 'remove_component',
    title: 'Remove component',
    description: 'Removes a component from a GameObject by type name (the first of that type, or the one at index among them). A GameObject keeps its Transform.',
    input: z.object({
      path: z.string().describe('The GameObject, e.g. "/Player".'),
      type: z.string().min(1).describe('The component type, e.g. "Rigidbody".'),
      index: z.number().int().min(0).max(1000).default(0).describe('Which of several components of that type, from 0 in the order shown.'),
    }),
    output: z.object({ removed: z.string(), gameObject: gameObjectInfo }),
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ path, type, index }, context) => {
      const { scene, undo } = context;
      const object = scene.require(path);
      // "UnityEngine.Transform" too: the Unity package lets Unity refuse that one, in vaguer words.
      if (namesComponent('Transform', type)) {
        throw new TetherError('INVALID_ARGUMENTS', 'Invalid arguments for remove_component: type: a GameObject cannot lose its Transform. Delete the GameObject instead (delete_gameobject).', {
          tool: 'remove_component',
          field: 'type',
          problem: 'a GameObject cannot lose its Transform',
        });
      }
      const matching = object.components.filter((c) => namesComponent(c.type, type));
      const component = matching[index];
      if (!component) {
        const has = object.components.map((c) => c.type);
        const suggestions = matching.length > 0 ? [] : closestNames(type, has);
        const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
        const which = matching.length > 0 ? `only ${matching.length} ${type} (index ${index} asked)` : `no ${type}`;
        throw new TetherError('NOT_FOUND', `"${scene.pathOf(object)}" has ${which}.${hint} Its components: ${has.join(', ')}.`, { path: scene.pathOf(object), type, components: has, suggestions });
      }
      undo.group(`Remove ${type} from ${object.name}`, () => {
        object.components = object.components.filter((c) => c !== component);
        scene.commit();
      });
      return noteEdit(context, { removed: type, gameObject: describeGameObject(scene, object) });
    },
  }),
];
