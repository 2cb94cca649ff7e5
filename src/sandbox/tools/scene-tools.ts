/** Scene tools: read and edit the GameObject hierarchy. */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { namesComponent } from '../component-names.js';
import type { Component } from '../game-object.js';
import { requireLayer } from '../layers.js';
import { pathGlob } from '../path-glob.js';
import { PRIMITIVES, primitiveComponents } from '../primitives.js';
import { requireTag } from '../tags.js';
import { unityEuler } from '../euler-angles.js';
import { componentTypes } from './component-choice.js';
import { gameObjectInfo, objectName, vector3 } from './gameobject-schemas.js';
import { noteEdit } from './play-mode-tool.js';
import { defineTool } from './tool.js';

const LAYER_DESCRIPTION = 'A layer\'s name, e.g. "Water", or its index from 0 to 31, e.g. "4".';

export const sceneTools = [
  defineTool({
    name: 'get_hierarchy',
    title: 'Get scene hierarchy',
    description: 'Returns the GameObject tree of the open scene: names, paths, active flags, component types, and which GameObjects are part of a prefab instance.',
    input: z.object({
      root: z.string().optional().describe('Path of the subtree to return, e.g. "/Environment". Default: the whole scene.'),
      depth: z.number().int().min(1).max(64).optional().describe('How many levels to return.'),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ root, depth }, { scene }) => ({ scene: scene.name, objects: scene.hierarchy(root, depth ?? Infinity) }),
  }),

  defineTool({
    name: 'find_gameobjects',
    title: 'Find GameObjects',
    description:
      'Finds GameObjects by name (substring, case-insensitive), path (a glob: "/Environment/*" its children, "/Environment/**" all below it, "**/Lamp*" at any depth), component type, tag or layer. Every filter given must match.',
    input: z.object({
      name: z.string().optional(),
      component: z.string().optional().describe('A component type, e.g. "Light".'),
      tag: z.string().optional(),
      path: z.string().optional().describe('A path, or a glob of paths: "*" and "?" within a name, "**" across names, e.g. "/Environment/*".'),
      layer: z.string().optional().describe(LAYER_DESCRIPTION),
      limit: z.number().int().min(1).max(1000).default(100),
    }),
    output: z.object({
      count: z.number().int().describe('How many GameObjects matched; objects holds the first limit of them.'),
      objects: z.array(gameObjectInfo),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ name, component, tag, path, layer, limit }, { scene, project }) => {
      const needle = name?.toLowerCase();
      const inPath = path === undefined ? undefined : pathGlob(path);
      const onLayer = layer === undefined ? undefined : requireLayer(project, layer, 'find_gameobjects');
      // In hierarchy order, as the Unity package walks the scene: with `limit`, the same objects come first.
      const matches = scene.walk().filter(
        (o) =>
          (!needle || o.name.toLowerCase().includes(needle)) &&
          // A type by its short or full name ("Light", "UnityEngine.Light"), as the Unity package matches it.
          (!component || o.components.some((c) => namesComponent(c.type, component))) &&
          (!tag || o.tag === tag) &&
          (!inPath || inPath(scene.pathOf(o))) &&
          (onLayer === undefined || (o.layer ?? 0) === onLayer),
      );
      return { count: matches.length, objects: matches.slice(0, limit).map((o) => scene.describe(o)) };
    },
  }),

  defineTool({
    name: 'create_gameobject',
    title: 'Create GameObject',
    description: 'Creates a GameObject (optionally a primitive) under a parent, with a transform and components. Not idempotent: each call creates one more object.',
    input: z.object({
      name: objectName,
      parent: z.string().optional().describe('Path of the parent, e.g. "/Environment".'),
      primitive: z.enum(PRIMITIVES).optional(),
      position: vector3.optional(),
      rotation: vector3.optional(),
      scale: vector3.optional(),
      components: z.array(z.string()).default([]).describe('Component types to add, e.g. ["Rigidbody"].'),
      tag: z.string().optional(),
      layer: z.string().optional().describe(LAYER_DESCRIPTION),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: false },
    run: (args, context) => {
      const { scene, console, undo, project } = context;
      const tool = 'create_gameobject';
      // Every name is checked before anything changes, in the Unity package's order: parent, components, tag, layer.
      if (args.parent !== undefined) scene.require(args.parent);
      const typeNamed = componentTypes(project);
      const types = args.components.map((name) => typeNamed(name, tool, 'components'));
      if (args.tag !== undefined) requireTag(project, args.tag, tool);
      const layer = args.layer === undefined ? undefined : requireLayer(project, args.layer, tool);
      const components: Component[] = args.primitive ? primitiveComponents(args.primitive) : [];
      // A type it has already (its Transform, a primitive's mesh or collider, one named twice) is skipped, as the Unity package skips it.
      for (const type of types) if (!type.isIn([{ type: 'Transform' }, ...components])) components.push({ type: type.name });
      const object = undo.group(`Create ${args.name}`, () => scene.create({ ...args, components, layer }));
      console.write('log', `Created GameObject ${scene.pathOf(object)}`);
      return noteEdit(context, { created: scene.describe(object) });
    },
  }),

  defineTool({
    name: 'modify_gameobject',
    title: 'Modify GameObject',
    description: 'Sets the name, transform, tag, layer, active flag or components of a GameObject found by path.',
    input: z.object({
      path: z.string(),
      name: objectName.optional(),
      position: vector3.optional(),
      rotation: vector3.optional(),
      scale: vector3.optional(),
      active: z.boolean().optional(),
      tag: z.string().optional(),
      layer: z.string().optional().describe(LAYER_DESCRIPTION),
      addComponents: z.array(z.string()).default([]),
      removeComponents: z.array(z.string()).default([]),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: (args, context) => {
      const { scene, undo, project } = context;
      const tool = 'modify_gameobject';
      const object = scene.require(args.path);
      if (args.removeComponents.includes('Transform')) {
        throw new TetherError('INVALID_ARGUMENTS', 'A GameObject cannot lose its Transform. Remove other components only.', { tool, field: 'removeComponents' });
      }
      // Every name is checked before anything changes, in the Unity package's order.
      const typeNamed = componentTypes(project);
      const additions = args.addComponents.map((name) => typeNamed(name, tool, 'addComponents'));
      if (args.tag !== undefined) requireTag(project, args.tag, tool);
      const layer = args.layer === undefined ? undefined : requireLayer(project, args.layer, tool);
      undo.group(`Modify ${object.name}`, () => {
        if (args.name !== undefined) object.name = args.name;
        if (args.position) object.position = args.position;
        // Stored as Unity reads it back from the quaternion (-90 is 270), so the file says what is reported.
        if (args.rotation) object.rotation = unityEuler(args.rotation);
        if (args.scale) object.scale = args.scale;
        if (args.active !== undefined) object.active = args.active;
        if (args.tag !== undefined) object.tag = args.tag;
        if (layer !== undefined) {
          if (layer === 0) delete object.layer;
          else object.layer = layer;
        }
        // A type it has already is skipped, as the Unity package skips it.
        for (const type of additions) if (!type.isIn(object.components)) object.components.push({ type: type.name });
        // By short or full name; never the Transform (only "Transform" itself is refused, as in the Unity package).
        object.components = object.components.filter((c) => c.type === 'Transform' || !args.removeComponents.some((name) => namesComponent(c.type, name)));
        scene.commit();
      });
      return noteEdit(context, { modified: scene.describe(object) });
    },
  }),

  defineTool({
    name: 'delete_gameobject',
    title: 'Delete GameObject',
    description: 'Deletes a GameObject and all its children. Siblings may share a name, as in Unity: the first one at the path is deleted.',
    input: z.object({ path: z.string() }),
    // Not idempotent: with two siblings of one name, a second call deletes the second one. So
    // Tether never sends it again on its own after a dropped connection.
    annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false },
    run: ({ path }, context) => {
      const { scene, console, undo } = context;
      const removed = undo.group(`Delete ${scene.require(path).name}`, () => scene.delete(path));
      console.write('log', `Deleted ${path} (${removed} object(s))`);
      return noteEdit(context, { deleted: path, objectsRemoved: removed });
    },
  }),
];
