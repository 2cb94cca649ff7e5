/**
 * An object's serialized fields as Unity's SerializedObject shows them: properties found by
 * path ("m_Mass", "m_Shadows.m_Strength", "waypoints.Array.data[2]", "waypoints.Array.size",
 * "m_LocalPosition.y"), each with its SerializedPropertyType, and listed from the top or from
 * one property down to a depth. Works on a copy of the values: a caller writes them back once
 * every change has been checked.
 */
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';
import type { PathSegment } from '../property-path.js';
import { defaultOf, float, int, isVectorType, propertyTypeOf, RECT_PARTS, VECTOR_PARTS, type FieldMap, type FieldSpec } from './field-spec.js';
import { toOutput, type ReferenceCodec } from './values.js';

/** A property found by path: a field (or an element, or a vector's part), or an array's size. */
export type FoundProperty = {
  path: string;
  get(): unknown;
  set(value: unknown): void;
} & ({ kind: 'field'; spec: FieldSpec } | { kind: 'size'; array: unknown[]; element: FieldSpec });

export interface PropertyEntry {
  path: string;
  type: string;
  value: unknown;
  isArray?: boolean;
  arraySize?: number;
  enumNames?: string[];
  objectType?: string;
  note?: string;
}

/** Entries a listing gives at most: an array of 100,000 elements listed at depth 2 would be megabytes. */
export const MAX_ENTRIES = 1000;

export class PropertyTree {
  /**
   * `fields` describe `values` (whole and normalized; edited in place). `owner` names the
   * object in messages: 'Rigidbody on "/Player"', '"Assets/Data/Goblin.asset"'.
   */
  constructor(
    readonly fields: FieldMap,
    readonly values: Record<string, unknown>,
    private readonly owner: string,
  ) {}

  /** The property at `segments`; NOT_FOUND saying what is there instead. */
  find(segments: readonly PathSegment[]): FoundProperty {
    const first = segments[0] as PathSegment;
    const rootName = 'name' in first ? first.name : '';
    const rootSpec = this.fields[rootName];
    if (!rootSpec) {
      const names = Object.keys(this.fields);
      throw this.notFound(`${this.owner} has no property "${rootName}"`, rootName, names, `Its properties: ${names.join(', ') || 'none'}. get_serialized_properties lists them with their types.`);
    }
    let found: FoundProperty = field(rootName, rootSpec, this.values, rootName);
    for (let n = 1; n < segments.length; n++) {
      const segment = segments[n] as PathSegment;
      if (found.kind === 'size') throw this.notFound(`"${found.path}" is an array's size and has no fields`, '', []);
      const spec = found.spec;
      const holder = found.get();
      if (spec.type === 'Array') {
        const array = holder as unknown[];
        const next = segments[n + 1];
        if ('name' in segment && segment.name === 'Array' && next && 'name' in next && next.name === 'size' && n + 2 === segments.length) {
          return sizeOf(found.path, array, spec.element);
        }
        if (!('index' in segment)) {
          throw this.notFound(`"${found.path}" is an array`, '', [], `Write "${found.path}.Array.data[0]" (or "${found.path}[0]") for an element, "${found.path}.Array.size" for its size.`);
        }
        if (segment.index >= array.length) {
          throw this.notFound(
            `"${found.path}" has ${array.length} element${array.length === 1 ? '' : 's'}, so no element ${segment.index}`,
            '',
            [],
            `Set "${found.path}.Array.size" first, or write the whole array.`,
          );
        }
        found = field(segment.index, spec.element, array, `${found.path}.Array.data[${segment.index}]`);
        continue;
      }
      if ('index' in segment) throw this.notFound(`"${found.path}" is ${kindOf(spec)}, not an array`, '', []);
      const parts: readonly string[] = spec.type === 'Generic' ? Object.keys(spec.fields) : spec.type === 'Rect' ? RECT_PARTS : isVectorType(spec.type) ? VECTOR_PARTS[spec.type] : [];
      if (!parts.includes(segment.name)) {
        const problem = parts.length > 0 ? `"${found.path}" has no field "${segment.name}"` : `"${found.path}" is ${kindOf(spec)} and has no fields`;
        throw this.notFound(problem, segment.name, parts, parts.length > 0 ? `Its fields: ${parts.join(', ')}.` : '');
      }
      const path = `${found.path}.${segment.name}`;
      if (spec.type === 'Generic') found = field(segment.name, spec.fields[segment.name] as FieldSpec, holder as Record<string, unknown>, path);
      else if (spec.type === 'Rect') found = field(segment.name, float(), holder as Record<string, unknown>, path);
      else {
        const whole = spec.type === 'Vector2Int' || spec.type === 'Vector3Int';
        found = field(parts.indexOf(segment.name), whole ? int() : float(), holder as unknown[], path);
      }
    }
    return found;
  }

  /**
   * The entries of `from` (or of every top-level field), and `depth - 1` levels of their
   * children (a struct's fields; an array's size and elements), at most MAX_ENTRIES.
   */
  list(from: FoundProperty | undefined, depth: number, refs: ReferenceCodec): { entries: PropertyEntry[]; truncated: boolean } {
    const entries: PropertyEntry[] = [];
    let truncated = false;
    const visit = (found: FoundProperty, level: number): void => {
      if (entries.length >= MAX_ENTRIES) {
        truncated = true;
        return;
      }
      entries.push(entryOf(found, refs));
      if (level >= depth || found.kind === 'size') return;
      const spec = found.spec;
      const value = found.get();
      if (spec.type === 'Generic') {
        for (const [name, child] of Object.entries(spec.fields)) visit(field(name, child, value as Record<string, unknown>, `${found.path}.${name}`), level + 1);
      } else if (spec.type === 'Array') {
        const array = value as unknown[];
        visit(sizeOf(found.path, array, spec.element), level + 1);
        array.forEach((_, n) => visit(field(n, spec.element, array, `${found.path}.Array.data[${n}]`), level + 1));
      }
    };
    if (from) visit(from, 1);
    else for (const [name, spec] of Object.entries(this.fields)) visit(field(name, spec, this.values, name), 1);
    return { entries, truncated };
  }

  private notFound(problem: string, name: string, known: readonly string[], hint = ''): TetherError {
    const suggestions = name === '' ? [] : closestNames(name, known);
    const didYouMean = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
    return new TetherError('NOT_FOUND', `${problem}.${didYouMean}${hint ? ` ${hint}` : ''}`, { problem, suggestions });
  }
}

function field(key: string | number, spec: FieldSpec, holder: Record<string, unknown> | unknown[], path: string): FoundProperty {
  const record = holder as Record<string | number, unknown>;
  return { kind: 'field', spec, path, get: () => record[key], set: (value) => (record[key] = value) };
}

/** An array's size: setting it drops elements from the end, or adds copies of the last (Unity's way), or defaults. */
function sizeOf(arrayPath: string, array: unknown[], element: FieldSpec): FoundProperty {
  return {
    kind: 'size',
    array,
    element,
    path: `${arrayPath}.Array.size`,
    get: () => array.length,
    set: (size) => {
      const length = size as number;
      while (array.length > length) array.pop();
      while (array.length < length) array.push(array.length > 0 ? structuredClone(array[array.length - 1]) : defaultOf(element));
    },
  };
}

function kindOf(spec: FieldSpec): string {
  const type = propertyTypeOf(spec);
  return /^[AEIOU]/.test(type) ? `an ${type}` : `a ${type}`;
}

function entryOf(found: FoundProperty, refs: ReferenceCodec): PropertyEntry {
  if (found.kind === 'size') return { path: found.path, type: 'ArraySize', value: found.array.length };
  const spec = found.spec;
  const entry: PropertyEntry = { path: found.path, type: propertyTypeOf(spec), value: toOutput(spec, found.get(), refs) };
  if (spec.type === 'Array') Object.assign(entry, { isArray: true, arraySize: (found.get() as unknown[]).length });
  if (spec.type === 'Enum') entry.enumNames = [...spec.names];
  if (spec.type === 'ObjectReference') entry.objectType = spec.objectType;
  if (spec.type === 'Unsupported') entry.note = `${spec.unityType} values are not read or written by this tool.`;
  return entry;
}
