/**
 * What a serialized field is, as Unity's SerializedProperty tells it: a type named as
 * SerializedPropertyType names it ("Float", "ObjectReference", "Generic", …), a default, and
 * for the composite types what they hold. The sandbox describes built-in components
 * (component-types.ts), scripts' fields (script-fields.ts) and assets with these.
 */

/** A reference as stored: an asset, a built-in resource by name, or (in a scene) a GameObject or component by id. */
export type StoredReference = { asset: string; name?: string; component?: string } | { gameObjectId: number; component?: string } | null;

export type FieldSpec =
  | { type: 'Integer' | 'Float' | 'LayerMask'; default: number; readOnly?: boolean }
  | { type: 'Boolean'; default: boolean }
  | { type: 'String' | 'Character'; default: string }
  | { type: VectorType; default: number[] }
  | { type: 'Rect'; default: RectValue }
  | { type: 'Enum'; names: readonly string[]; default: string }
  | { type: 'ObjectReference'; objectType: string; default: StoredReference | string; readOnly?: boolean }
  | { type: 'Generic'; struct: string; fields: FieldMap }
  | { type: 'Array'; element: FieldSpec; default: unknown[] }
  /** Types this tool neither reads nor writes (AnimationCurve, Gradient, …): listed, with a note. */
  | { type: 'Unsupported'; unityType: string };

export type FieldMap = Readonly<Record<string, FieldSpec>>;

export interface RectValue {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** The fixed-size number arrays, and the names of their parts ("m_LocalPosition.y"). */
export const VECTOR_PARTS = {
  Vector2: ['x', 'y'],
  Vector3: ['x', 'y', 'z'],
  Vector4: ['x', 'y', 'z', 'w'],
  Quaternion: ['x', 'y', 'z', 'w'],
  Color: ['r', 'g', 'b', 'a'],
  Vector2Int: ['x', 'y'],
  Vector3Int: ['x', 'y', 'z'],
} as const;
export type VectorType = keyof typeof VECTOR_PARTS;

export const RECT_PARTS = ['x', 'y', 'width', 'height'] as const;

export function isVectorType(type: string): type is VectorType {
  return Object.hasOwn(VECTOR_PARTS, type);
}

/** The SerializedPropertyType name a spec shows as (arrays are Generic, as in Unity, with isArray). */
export function propertyTypeOf(spec: FieldSpec): string {
  if (spec.type === 'Array') return 'Generic';
  if (spec.type === 'Unsupported') return spec.unityType;
  return spec.type;
}

/** A fresh default value of a spec (structs with their fields' defaults). */
export function defaultOf(spec: FieldSpec): unknown {
  switch (spec.type) {
    case 'Generic':
      return Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, defaultOf(field)]));
    case 'Unsupported':
      return null;
    default:
      return structuredClone(spec.default);
  }
}

// Constructors, so the component table reads like Unity's serialized data.
export const int = (value = 0): FieldSpec => ({ type: 'Integer', default: value });
export const float = (value = 0): FieldSpec => ({ type: 'Float', default: value });
export const bool = (value = false): FieldSpec => ({ type: 'Boolean', default: value });
export const string = (value = ''): FieldSpec => ({ type: 'String', default: value });
export const layerMask = (bits = -1): FieldSpec => ({ type: 'LayerMask', default: bits });
export const vector = (type: VectorType, value?: number[]): FieldSpec => ({ type, default: value ?? VECTOR_PARTS[type].map(() => 0) });
export const vec2 = (x = 0, y = 0): FieldSpec => vector('Vector2', [x, y]);
export const vec3 = (x = 0, y = 0, z = 0): FieldSpec => vector('Vector3', [x, y, z]);
export const color = (r = 1, g = 1, b = 1, a = 1): FieldSpec => vector('Color', [r, g, b, a]);
export const rect = (x = 0, y = 0, width = 1, height = 1): FieldSpec => ({ type: 'Rect', default: { x, y, width, height } });
export const enumOf = (names: readonly string[], value = names[0] ?? ''): FieldSpec => ({ type: 'Enum', names, default: value });
export const ref = (objectType: string, value: StoredReference | string = null): FieldSpec => ({ type: 'ObjectReference', objectType, default: value });
export const arrayOf = (element: FieldSpec, value: unknown[] = []): FieldSpec => ({ type: 'Array', element, default: value });
export const struct = (name: string, fields: FieldMap): FieldSpec => ({ type: 'Generic', struct: name, fields });
export const unsupported = (unityType: string): FieldSpec => ({ type: 'Unsupported', unityType });
