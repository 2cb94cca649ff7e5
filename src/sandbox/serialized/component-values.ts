/**
 * A component's serialized values, read from and written to the GameObject that holds it (in
 * a scene or a prefab file): a built-in type's fields from component-types.ts, a script's from
 * its class, an unknown type's guessed from what is stored. A component stores only what
 * differs from its defaults; the Transform's fields are the GameObject's position, rotation
 * and scale (m_LocalRotation a quaternion made from the stored Euler angles, as Unity keeps it).
 */
import { shortName } from '../component-names.js';
import { COMPONENT_TYPES } from '../component-types.js';
import type { Component, GameObject, Vector3 } from '../game-object.js';
import { arrayOf, bool, defaultOf, float, ref, string, struct, type FieldMap, type FieldSpec } from './field-spec.js';
import type { ScriptCatalog } from './script-fields.js';
import { normalize } from './values.js';
import { eulerFromQuaternion, quaternionFromEuler } from '../euler-angles.js';

export interface ComponentSchema {
  /** The type as Unity names it (short): "Rigidbody", "Health". */
  type: string;
  fields: FieldMap;
  storedAs: Readonly<Record<string, string>>;
  /** Said when the fields are guessed (no script declares the type). */
  note?: string;
}

export function componentSchema(component: Component, scripts: ScriptCatalog): ComponentSchema {
  const type = shortName(component.type);
  const builtIn = COMPONENT_TYPES.get(type);
  if (builtIn) return { type, fields: builtIn.fields, storedAs: builtIn.storedAs ?? {} };
  if (scripts.component(component.type)) return { type, fields: scripts.fieldsOf(component.type), storedAs: {} };
  return { type, fields: inferFields(component.properties ?? {}), storedAs: {}, note: guessedNote(type) };
}

export function guessedNote(type: string): string {
  return `No script under Assets/ declares the class ${type}: its fields' types are guessed from the values stored.`;
}

/** Field specs for values no declaration describes: numbers are Floats, arrays take their first element's type. */
export function inferFields(values: Record<string, unknown>): FieldMap {
  return Object.fromEntries(Object.entries(values).map(([name, value]) => [name, inferSpec(value)]));
}

function inferSpec(value: unknown): FieldSpec {
  if (typeof value === 'boolean') return bool(value);
  if (typeof value === 'number') return float(value);
  if (typeof value === 'string') return string(value);
  if (Array.isArray(value)) return arrayOf(value.length > 0 ? inferSpec(value[0]) : float());
  if (value === null || 'asset' in (value as object) || 'gameObject' in (value as object) || 'gameObjectId' in (value as object)) return ref('Object');
  return struct('', inferFields(value as Record<string, unknown>));
}

/** The component's values, whole and normalized (a copy: edit it, then commit). */
export function readComponent(object: GameObject, component: Component, schema: ComponentSchema): Record<string, unknown> {
  if (schema.type === 'Transform') {
    return { m_LocalRotation: quaternionOf(object.rotation), m_LocalPosition: [...object.position], m_LocalScale: [...object.scale] };
  }
  const stored = component.properties ?? {};
  return Object.fromEntries(
    Object.entries(schema.fields).map(([name, spec]) => {
      const key = schema.storedAs[name] ?? name;
      return [name, normalize(spec, structuredClone(stored[key]))];
    }),
  );
}

/** Writes `values` back: the fields that differ from their defaults, beside the keys the fields do not cover. */
export function writeComponent(object: GameObject, component: Component, schema: ComponentSchema, values: Record<string, unknown>): void {
  if (schema.type === 'Transform') {
    const rotation = values.m_LocalRotation as number[];
    if (JSON.stringify(rotation) !== JSON.stringify(quaternionOf(object.rotation))) object.rotation = eulerOf(rotation);
    object.position = values.m_LocalPosition as Vector3;
    object.scale = values.m_LocalScale as Vector3;
    return;
  }
  const properties: Record<string, unknown> = { ...(component.properties ?? {}) };
  for (const [name, spec] of Object.entries(schema.fields)) {
    const key = schema.storedAs[name] ?? name;
    const value = values[name];
    if (spec.type !== 'ObjectReference' || !spec.readOnly) {
      if (JSON.stringify(value) === JSON.stringify(defaultOf(spec))) delete properties[key];
      else properties[key] = storedValue(schema, name, value);
    }
  }
  if (Object.keys(properties).length > 0) component.properties = properties;
  else delete component.properties;
}

/** A legacy key keeps its old form: MeshFilter's "mesh" holds a built-in mesh's name ("Cube"), which the screenshot reads. */
function storedValue(schema: ComponentSchema, name: string, value: unknown): unknown {
  if (schema.storedAs[name] === undefined || typeof value !== 'object' || value === null) return value;
  const reference = value as { asset?: string; name?: string };
  return reference.asset === 'Library/unity default resources' && reference.name ? reference.name : value;
}

const round = (v: number): number => Math.round(v * 1e6) / 1e6 + 0;

/**
 * m_LocalRotation for the stored angles: Unity's Quaternion.Euler (Z, then X, then Y) as
 * [x, y, z, w], to six decimals, with w >= 0. The sign: q and -q are one rotation, and Unity keeps
 * the one Quaternion.Euler made from the angles it was given, but the sandbox stores the angles
 * as Unity reads them back (0 to 360), whose quaternion may be the other: -90 is stored as 270,
 * and Euler(0, 270, 0) is -Euler(0, -90, 0). Angles given each within ±180° (as agents give them)
 * make a quaternion with w >= 0 but for rare combinations, so that sign is Unity's as a rule.
 */
export function quaternionOf(euler: readonly number[]): number[] {
  const q = quaternionFromEuler(euler).map(round);
  // With w 0 (a half turn), the first component that is not 0 is positive, as Euler(180, 0, 0) is [1, 0, 0, 0].
  const leading = q[3] !== 0 ? q[3]! : (q.find((v) => v !== 0) ?? 1);
  return leading < 0 ? q.map((v) => -v + 0) : q;
}

/** The Euler angles Unity's eulerAngles reads from a quaternion (normalized first), to a thousandth of a degree: what a quaternion rounded to six decimals can tell apart. */
export function eulerOf(q: readonly number[]): Vector3 {
  return eulerFromQuaternion(q).map((angle) => Math.round(angle * 1000) / 1000 + 0) as Vector3;
}
