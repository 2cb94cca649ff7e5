/**
 * Serialized values between three forms: what an agent writes (JSON: numbers, [x, y, z],
 * enum names, references as {"asset": …} / {"gameObject": …}), what the sandbox stores, and
 * what the tools answer. A value is checked against its field's type before anything is
 * written, and a wrong one says what the field takes, as the Unity package says it
 * (unity/Editor/Unity/Serialization/SerializedValues.cs).
 */
import { closestNames } from '../../schema/suggest.js';
import { defaultOf, RECT_PARTS, VECTOR_PARTS, isVectorType, propertyTypeOf, type FieldSpec, type StoredReference } from './field-spec.js';

/** A value that does not fit its field: `problem` says why, `hint` what to give instead. */
export class ValueProblem extends Error {
  constructor(
    readonly problem: string,
    readonly hint: string,
  ) {
    super(problem);
  }
}

/** How references are checked, stored and shown (references.ts). */
export interface ReferenceCodec {
  toStored(value: unknown, objectType: string, label: string): StoredReference | string;
  toOutput(stored: unknown): unknown;
}

const INT32 = 2 ** 31;

/** What a field of `spec` takes, said to an agent: "a number, e.g. 1.5". */
export function expectedOf(spec: FieldSpec): string {
  switch (spec.type) {
    case 'Integer':
      return 'a whole number, e.g. 3';
    case 'Float':
      return 'a number, e.g. 1.5';
    case 'LayerMask':
      return 'a whole number of layer bits, e.g. 1 for Default alone, -1 for every layer';
    case 'Boolean':
      return 'true or false';
    case 'String':
      return 'a string';
    case 'Character':
      return 'a string of one character';
    case 'Enum':
      return `one of ${spec.names.map((n) => `"${n}"`).join(', ')} (or its index from 0)`;
    case 'Rect':
      return '{"x": 0, "y": 0, "width": 1, "height": 1}';
    case 'ObjectReference':
      return `a reference to a ${spec.objectType}: {"asset": "Assets/…"}, {"gameObject": "/Path"}, {"gameObject": "/Path", "component": "Type"}, or null`;
    case 'Generic':
      return `an object of its fields (${Object.keys(spec.fields).join(', ')}); fields left out keep their values`;
    case 'Array':
      return `an array, each element ${expectedOf(spec.element)}`;
    case 'Unsupported':
      return 'nothing: this tool does not write that type';
    default: {
      const parts = VECTOR_PARTS[spec.type];
      const whole = spec.type === 'Vector2Int' || spec.type === 'Vector3Int' ? 'whole numbers' : 'numbers';
      return `[${parts.join(', ')}], ${parts.length} ${whole}${spec.type === 'Color' ? ' from 0 to 1' : ''}`;
    }
  }
}

function describeJson(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return `an array of ${value.length}`;
  if (typeof value === 'object') return 'an object';
  if (typeof value === 'string') return `the string ${JSON.stringify(value.length > 40 ? `${value.slice(0, 40)}…` : value)}`;
  return `${typeof value} ${JSON.stringify(value)}`;
}

function refuse(spec: FieldSpec, label: string, value: unknown, why?: string): never {
  const kind = spec.type === 'Array' ? 'an array' : article(propertyTypeOf(spec));
  throw new ValueProblem(why ?? `${label} is ${kind}, not ${describeJson(value)}`, `Give ${expectedOf(spec)}.`);
}

function article(word: string): string {
  return /^[AEIOU]/.test(word) ? `an ${word}` : `a ${word}`;
}

const isNumber = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
const isRecord = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);

/**
 * The stored form of `value` for a field of `spec`, checked. `current` is the field's value
 * now (a struct given in part keeps its other fields); `label` names the field in problems.
 */
export function toStored(spec: FieldSpec, value: unknown, current: unknown, refs: ReferenceCodec, label: string): unknown {
  switch (spec.type) {
    case 'Integer':
      if (!Number.isSafeInteger(value)) refuse(spec, label, value);
      return value;
    case 'LayerMask':
      if (!Number.isSafeInteger(value) || (value as number) < -INT32 || (value as number) >= 2 * INT32) refuse(spec, label, value);
      return (value as number) | 0;
    case 'Float':
      if (!isNumber(value)) refuse(spec, label, value);
      return value;
    case 'Boolean':
      if (typeof value !== 'boolean') refuse(spec, label, value);
      return value;
    case 'String':
      if (typeof value !== 'string') refuse(spec, label, value);
      return value;
    case 'Character':
      if (typeof value !== 'string' || [...value].length !== 1) refuse(spec, label, value);
      return value;
    case 'Enum':
      return enumName(spec.names, value, () => refuse(spec, label, value, enumProblem(spec.names, label, value)));
    case 'Rect': {
      if (!isRecord(value) || Object.keys(value).some((k) => !(RECT_PARTS as readonly string[]).includes(k))) refuse(spec, label, value);
      const rect = { ...(isRecord(current) ? current : spec.default), ...value };
      if (!RECT_PARTS.every((k) => isNumber(rect[k]))) refuse(spec, label, value);
      return rect;
    }
    case 'ObjectReference':
      if (spec.readOnly) throw new ValueProblem(`${label} is read-only here`, 'Add the component for another script instead (add_component), and remove this one.');
      return refs.toStored(value, spec.objectType, label);
    case 'Generic': {
      if (!isRecord(value)) refuse(spec, label, value);
      const base = isRecord(current) ? { ...current } : (defaultOf(spec) as Record<string, unknown>);
      for (const [key, item] of Object.entries(value)) {
        const field = spec.fields[key];
        if (!field) {
          const suggestions = closestNames(key, Object.keys(spec.fields));
          const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
          throw new ValueProblem(`${label} has no field "${key}"`, `${hint} Its fields: ${Object.keys(spec.fields).join(', ')}.`.trim());
        }
        base[key] = toStored(field, item, base[key], refs, `${label}.${key}`);
      }
      return base;
    }
    case 'Array': {
      if (!Array.isArray(value)) refuse(spec, label, value);
      const existing = Array.isArray(current) ? current : [];
      return value.map((item, n) => toStored(spec.element, item, existing[n] ?? defaultOf(spec.element), refs, `${label}[${n}]`));
    }
    case 'Unsupported':
      throw new ValueProblem(`${label} is ${article(spec.unityType)}, which this tool does not write`, 'Edit it in the Inspector, or from a script.');
    default: {
      const size = VECTOR_PARTS[spec.type].length;
      const whole = spec.type === 'Vector2Int' || spec.type === 'Vector3Int';
      if (!Array.isArray(value) || value.length !== size || !value.every((v) => (whole ? Number.isSafeInteger(v) : isNumber(v)))) refuse(spec, label, value);
      return value;
    }
  }
}

/** The enum member `value` names (a name, or an index from 0), or what `fail` returns. */
function enumName(names: readonly string[], value: unknown, fail: () => never): string {
  if (typeof value === 'string' && names.includes(value)) return value;
  if (Number.isInteger(value) && (value as number) >= 0 && (value as number) < names.length) return names[value as number] as string;
  return fail();
}

function enumProblem(names: readonly string[], label: string, value: unknown): string {
  const suggestions = typeof value === 'string' ? closestNames(value, names) : [];
  const hint = suggestions.length > 0 ? ` (did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?)` : '';
  return `${label} is an Enum, and ${describeJson(value)} is none of its members${hint}`;
}

/** What the tools answer for a stored value. */
export function toOutput(spec: FieldSpec, stored: unknown, refs: ReferenceCodec): unknown {
  switch (spec.type) {
    case 'ObjectReference':
      return refs.toOutput(stored);
    case 'Generic':
      return Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, toOutput(field, (stored as Record<string, unknown>)[name], refs)]));
    case 'Array':
      return (stored as unknown[]).map((item) => toOutput(spec.element, item, refs));
    case 'Unsupported':
      return null;
    default:
      return structuredClone(stored);
  }
}

/**
 * A stored value made whole and well-formed: what a file holds may predate a field, or have
 * been edited by hand; what does not fit is read as the field's default, as Unity reads it.
 */
export function normalize(spec: FieldSpec, stored: unknown): unknown {
  switch (spec.type) {
    case 'Integer':
    case 'LayerMask':
      return Number.isSafeInteger(stored) ? stored : defaultOf(spec);
    case 'Float':
      return isNumber(stored) ? stored : defaultOf(spec);
    case 'Boolean':
      return typeof stored === 'boolean' ? stored : defaultOf(spec);
    case 'String':
    case 'Character':
      return typeof stored === 'string' ? stored : defaultOf(spec);
    case 'Enum':
      return typeof stored === 'string' && spec.names.includes(stored) ? stored : Number.isInteger(stored) && spec.names[stored as number] ? spec.names[stored as number] : defaultOf(spec);
    case 'Rect':
      return isRecord(stored) && RECT_PARTS.every((k) => isNumber(stored[k])) ? stored : defaultOf(spec);
    case 'ObjectReference':
      return stored === undefined ? defaultOf(spec) : stored;
    case 'Generic':
      return Object.fromEntries(Object.entries(spec.fields).map(([name, field]) => [name, normalize(field, isRecord(stored) ? stored[name] : undefined)]));
    case 'Array':
      return Array.isArray(stored) ? stored.map((item) => normalize(spec.element, item)) : defaultOf(spec);
    case 'Unsupported':
      return stored ?? null;
    default:
      return isVectorType(spec.type) && Array.isArray(stored) && stored.length === VECTOR_PARTS[spec.type].length && stored.every(isNumber) ? stored : defaultOf(spec);
  }
}
