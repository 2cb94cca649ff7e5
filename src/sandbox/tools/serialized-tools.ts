/**
 * Serialized fields of components and assets, read and written by SerializedProperty path, as
 * Unity's SerializedObject does (the Unity package: unity/Editor/Unity/Tools/SerializedTools.cs).
 * A write checks every value against its field's type before it changes anything, and is one
 * undo step.
 */
import { z } from 'zod';
import { TetherError } from '../../protocol/index.js';
import { recordAssetForUndo } from '../assets/asset-undo.js';
import { parsePropertyPath } from '../property-path.js';
import type { FoundProperty } from '../serialized/property-tree.js';
import { propertyTypeOf } from '../serialized/field-spec.js';
import { resolveTarget } from '../serialized/targets.js';
import { toOutput, toStored, ValueProblem, type ReferenceCodec } from '../serialized/values.js';
import { noteEdit } from './play-mode-tool.js';
import { defineTool } from './tool.js';

/** An array's size an agent may set: a mistyped 100000000 would fill the editor's memory. */
const MAX_ARRAY_SIZE = 100_000;

const target = z
  .strictObject({
    gameObject: z.string().optional().describe('Path of a GameObject in the active scene, e.g. "/Player"; with asset, a GameObject inside that prefab, e.g. "/Enemy/Gun" (default: its root).'),
    component: z.string().optional().describe('The component type on that GameObject, e.g. "Rigidbody" or "MyGame.Health".'),
    index: z.number().int().min(0).max(1000).default(0).describe('Which of several components of that type, from 0.'),
    asset: z.string().optional().describe('Project-relative path of an asset: a ScriptableObject (.asset), a Material (.mat), or a prefab (.prefab, with component).'),
  })
  .describe('The object: {gameObject, component} in the active scene, {asset} for a ScriptableObject or Material, {asset, component} for a prefab.');

const reference = 'references read as {"asset": "Assets/…"}, {"gameObject": "/Path"} or {"gameObject": "/Path", "component": "Type"}';

const entry = z.object({
  path: z.string().describe('Unity\'s propertyPath, e.g. "waypoints.Array.data[2]".'),
  type: z.string().describe('The SerializedPropertyType: Integer, Float, Boolean, String, Enum, Color, Vector3, ObjectReference, Generic, ArraySize, …'),
  value: z.unknown().describe(`The value as JSON: vectors and colors as arrays, enums by name, structs as objects, arrays as arrays, ${reference}.`),
  isArray: z.boolean().optional(),
  arraySize: z.number().int().optional(),
  enumNames: z.array(z.string()).optional(),
  objectType: z.string().optional().describe('What a reference takes, e.g. "Material".'),
  note: z.string().optional(),
});

function field(found: FoundProperty): { type: string; output(refs: ReferenceCodec): unknown } {
  if (found.kind === 'size') return { type: 'ArraySize', output: () => found.get() };
  const spec = found.spec;
  return { type: propertyTypeOf(spec), output: (refs) => toOutput(spec, found.get(), refs) };
}

/** Tells which entry of a call a NOT_FOUND is about. */
function about<T>(fieldName: string, find: () => T): T {
  try {
    return find();
  } catch (error) {
    if (error instanceof TetherError && error.code === 'NOT_FOUND') throw new TetherError('NOT_FOUND', error.message, { ...error.data, field: fieldName });
    throw error;
  }
}

export const serializedTools = [
  defineTool({
    name: 'get_serialized_properties',
    title: 'Get serialized properties',
    description:
      'Reads the serialized fields of a component (in the active scene or a prefab) or of an asset (ScriptableObject, Material), as Unity\'s SerializedObject shows them: each property\'s path, type and value. With path, only that property; depth lists nested fields and array elements too.',
    input: z.object({
      target,
      path: z.string().optional().describe('Only this property, e.g. "m_Mass", "stats", "waypoints[2]" or "waypoints.Array.data[2]". Default: every top-level property.'),
      depth: z.number().int().min(1).max(16).default(1).describe('How many levels to list: 1 the properties alone (each with its whole value), 2 also their fields and elements, …'),
    }),
    output: z.object({
      type: z.string().describe('The object\'s class, e.g. "Rigidbody", "Material", "EnemyStats".'),
      properties: z.array(entry),
      truncated: z.boolean().describe('True when the listing stopped at 1000 properties: ask for a path or a smaller depth.'),
      note: z.string().optional(),
    }),
    annotations: { readOnlyHint: true, idempotentHint: true },
    run: ({ target: args, path, depth }, context) => {
      const tool = 'get_serialized_properties';
      const resolved = resolveTarget(args, context, tool, 'read');
      const from = path === undefined ? undefined : about('path', () => resolved.tree.find(parsePropertyPath(path, tool, 'path')));
      const { entries, truncated } = resolved.tree.list(from, depth, resolved.refs);
      return { type: resolved.type, properties: entries, truncated, ...(resolved.note ? { note: resolved.note } : {}) };
    },
  }),

  defineTool({
    name: 'set_serialized_properties',
    title: 'Set serialized properties',
    description:
      'Writes serialized fields of a component (in the active scene or a prefab) or of an asset (ScriptableObject, Material) by SerializedProperty path, in order, as one undo step: numbers, strings, enums (by name), vectors and colors as arrays, structs as objects, whole arrays, "x.Array.size", and references ({"asset": "Assets/…"}, {"gameObject": "/Path", "component": "Type"}, null). Every value is checked against its field\'s type first: one wrong value and nothing is written.',
    input: z.object({
      target,
      properties: z
        .array(
          z.strictObject({
            path: z.string().min(1).describe('The property, e.g. "m_Mass", "stats.maxHealth", "waypoints[2]", "waypoints.Array.size".'),
            value: z.unknown().describe('Its new value as JSON, of the property\'s type (get_serialized_properties shows each type).'),
          }),
        )
        .min(1)
        .max(100),
    }),
    output: z.object({
      type: z.string(),
      properties: z.array(
        z.object({
          path: z.string(),
          type: z.string(),
          previous: z.unknown().describe('The value before this call.'),
          value: z.unknown().describe('The value now.'),
        }),
      ),
    }),
    annotations: { readOnlyHint: false, destructiveHint: false, idempotentHint: true },
    run: ({ target: args, properties }, context) => {
      const tool = 'set_serialized_properties';
      const resolved = resolveTarget(args, context, tool, 'write');
      // Every entry is checked and applied to the tree (a copy) before anything is written.
      const changes = properties.map(({ path, value }, n) => {
        const found = about(`properties[${n}].path`, () => resolved.tree.find(parsePropertyPath(path, tool, `properties[${n}].path`)));
        const { type, output } = field(found);
        const previous = output(resolved.refs);
        try {
          found.set(storedValue(found, value, resolved.refs));
        } catch (error) {
          if (!(error instanceof ValueProblem)) throw error;
          const where = `properties[${n}].value`;
          throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${where}: ${error.problem}. ${error.hint}`, {
            tool,
            field: where,
            problem: error.problem,
            path: found.path,
            expected: type,
          });
        }
        return { path: found.path, type, previous, value: output(resolved.refs) };
      });
      const name = changes.length === 1 ? `Set ${changes[0]?.path} of ${resolved.label}` : `Set ${changes.length} properties of ${resolved.label}`;
      // An asset's file joins the undo groups from now on, as Undo.RecordObject makes an asset undoable.
      if (resolved.assetPath) recordAssetForUndo(context.scenes, context.project, resolved.assetPath);
      context.undo.group(name, () => resolved.commit());
      // A component in the scene is put back when play mode exits; an asset (or a prefab's component) is not.
      return noteEdit(context, { type: resolved.type, properties: changes }, resolved.assetPath === undefined);
    },
  }),
];

function storedValue(found: FoundProperty, value: unknown, refs: ReferenceCodec): unknown {
  const label = found.path;
  if (found.kind === 'size') {
    if (!Number.isSafeInteger(value) || (value as number) < 0 || (value as number) > MAX_ARRAY_SIZE) {
      throw new ValueProblem(`${label} is an array's size, not ${JSON.stringify(value)}`, `Give a whole number from 0 to ${MAX_ARRAY_SIZE}.`);
    }
    return value;
  }
  return toStored(found.spec, value, found.get(), refs, label);
}
