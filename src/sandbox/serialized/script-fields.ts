/**
 * The project's scripts as Unity's serializer sees them: which classes are MonoBehaviours
 * (components) and ScriptableObjects, and the serialized fields of each, with their types
 * (SerializedPropertyType) and defaults from their initializers. Read from Assets/**.cs at each
 * call (cached by file size and time), since a script may have changed since the last one.
 */
import { readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { COMPONENT_TYPES } from '../component-types.js';
import { projectScripts } from '../csharp/project-scripts.js';
import type { Project } from '../project.js';
import { arrayOf, bool, enumOf, float, int, rect, ref, string, struct, unsupported, vector, VECTOR_PARTS, isVectorType, type FieldMap, type FieldSpec } from './field-spec.js';
import { baseOf, isAssignable } from './object-types.js';
import { readDeclarations, splitTopLevel, type DeclaredClass, type ScriptDeclarations } from './script-declarations.js';

interface ScriptClass extends DeclaredClass {
  /** The script's project-relative path (m_Script). */
  file: string;
  literals: string[];
}

const cache = new Map<string, { stamp: string; declarations: ScriptDeclarations }>();

const INTEGERS = new Set(['int', 'uint', 'long', 'ulong', 'short', 'ushort', 'byte', 'sbyte', 'Int32', 'Int64', 'UInt32', 'Int16', 'Byte']);
const FLOATS = new Set(['float', 'double', 'Single', 'Double']);
const UNSUPPORTED = new Set(['AnimationCurve', 'Gradient', 'Bounds', 'BoundsInt', 'RectInt', 'Hash128', 'Color32', 'Matrix4x4']);
/** Unity stops at this depth of nested serializable classes. */
const MAX_DEPTH = 10;

export class ScriptCatalog {
  private readonly classes = new Map<string, ScriptClass>();
  private readonly enums = new Map<string, string[]>();
  /** Class → base class, for the scripts' classes. */
  readonly bases = new Map<string, string>();

  constructor(project: Project) {
    for (const file of projectScripts(project.root)) {
      const declarations = declarationsOf(join(project.root, file));
      for (const [name, members] of declarations.enums) this.enums.set(name, members);
      for (const declared of declarations.classes) {
        const script = { ...declared, file, literals: declarations.literals };
        if (!this.classes.has(declared.name)) this.classes.set(declared.name, script);
        this.classes.set(declared.fullName, script);
        if (declared.base) this.bases.set(declared.name, declared.base.replace(/^.*\./, ''));
      }
    }
  }

  /** The short name of a script's MonoBehaviour class named `name` (short or full), if there is one. */
  component(name: string): string | undefined {
    const found = this.classes.get(name);
    return found && isAssignable(found.name, 'MonoBehaviour', this.bases) ? found.name : undefined;
  }

  /** The short name of a script's ScriptableObject class named `name`, if there is one. */
  scriptableObject(name: string): string | undefined {
    const found = this.classes.get(name);
    return found && isAssignable(found.name, 'ScriptableObject', this.bases) ? found.name : undefined;
  }

  /** The short names of the scripts' MonoBehaviour classes (what add_component suggests besides the built-in types). */
  componentNames(): string[] {
    return [...this.bases.keys()].filter((name) => this.component(name) === name);
  }

  /** The short names of the scripts' ScriptableObject classes. */
  scriptableObjectNames(): string[] {
    return [...this.bases.keys()].filter((name) => this.scriptableObject(name) === name);
  }

  /** The serialized fields of a MonoBehaviour or ScriptableObject class: m_Script first, then its bases' fields, then its own. */
  fieldsOf(name: string): FieldMap {
    const found = this.classes.get(name);
    if (!found) return {};
    const script: FieldSpec = { type: 'ObjectReference', objectType: 'MonoScript', default: { asset: found.file }, readOnly: true };
    return { m_Script: script, ...this.declaredFields(found, 0) };
  }

  private declaredFields(declared: ScriptClass, depth: number): Record<string, FieldSpec> {
    const base = declared.base ? this.classes.get(declared.base) : undefined;
    const fields: Record<string, FieldSpec> = base && base !== declared ? this.declaredFields(base, depth) : {};
    for (const field of declared.fields) {
      const spec = field.managedReference ? unsupported('ManagedReference') : this.specOf(field.typeText, field.initializer, declared.literals, depth);
      if (spec) fields[field.name] = spec;
    }
    return fields;
  }

  /** The spec of a field of C# type `typeText`, or undefined when Unity would not serialize it. */
  private specOf(typeText: string, initializer: string | undefined, literals: string[], depth: number): FieldSpec | undefined {
    const type = typeText.replace(/^(UnityEngine|System|System\.Collections\.Generic)\./, '');
    const element = /^(.+)\[\]$/.exec(type)?.[1] ?? /^List<(.+)>$/.exec(type)?.[1];
    if (element !== undefined) {
      const spec = this.specOf(element, undefined, literals, depth);
      if (!spec || spec.type === 'Array') return undefined; // Unity serializes no array of arrays.
      const items = initializer ? /\{([\s\S]*)\}\s*$/.exec(initializer)?.[1] : undefined;
      const values = items === undefined ? [] : splitTopLevel(items, ',').map((item) => literalOf(spec, item.trim(), literals));
      return arrayOf(
        spec,
        values.filter((v) => v !== undefined),
      );
    }
    const simple = simpleSpec(type);
    if (simple) return withDefault(simple, initializer, literals);
    const members = this.enums.get(type.replace(/^.*\./, ''));
    if (members) return withDefault(enumOf(members), initializer, literals);
    const short = type.replace(/^.*\./, '');
    if (short === 'Object' || ((baseOf(short, this.bases) !== undefined || COMPONENT_TYPES.has(short)) && isAssignable(short, 'Object', this.bases))) return ref(short);
    const nested = this.classes.get(type);
    if (nested?.serializable && depth < MAX_DEPTH) return struct(nested.name, this.declaredFields(nested, depth + 1));
    return undefined;
  }
}

function simpleSpec(type: string): FieldSpec | undefined {
  if (INTEGERS.has(type)) return int();
  if (FLOATS.has(type)) return float();
  if (type === 'bool' || type === 'Boolean') return bool();
  if (type === 'string' || type === 'String') return string();
  if (type === 'char' || type === 'Char') return { type: 'Character', default: '' };
  if (type === 'LayerMask') return { type: 'LayerMask', default: 0 };
  if (type === 'Rect') return rect(0, 0, 0, 0);
  if (isVectorType(type)) return vector(type, type === 'Quaternion' ? [0, 0, 0, 1] : undefined);
  if (UNSUPPORTED.has(type)) return unsupported(type);
  return undefined;
}

function withDefault(spec: FieldSpec, initializer: string | undefined, literals: string[]): FieldSpec {
  if (initializer === undefined || spec.type === 'Unsupported' || spec.type === 'Generic' || spec.type === 'Array') return spec;
  const value = literalOf(spec, initializer, literals);
  return value === undefined ? spec : ({ ...spec, default: value } as FieldSpec);
}

const NAMED_VECTORS: Record<string, number[]> = {
  zero: [0, 0, 0, 0],
  one: [1, 1, 1, 1],
  up: [0, 1, 0],
  down: [0, -1, 0],
  left: [-1, 0, 0],
  right: [1, 0, 0],
  forward: [0, 0, 1],
  back: [0, 0, -1],
};
const NAMED_COLORS: Record<string, number[]> = {
  white: [1, 1, 1, 1],
  black: [0, 0, 0, 1],
  red: [1, 0, 0, 1],
  green: [0, 1, 0, 1],
  blue: [0, 0, 1, 1],
  yellow: [1, 0.92156863, 0.015686275, 1],
  cyan: [0, 1, 1, 1],
  magenta: [1, 0, 1, 1],
  gray: [0.5, 0.5, 0.5, 1],
  grey: [0.5, 0.5, 0.5, 1],
  clear: [0, 0, 0, 0],
};

/** The value of a simple initializer ("3.5f", "\"Bob\"", "new Vector3(1, 2, 3)", "Color.red", "Kind.Fast"), or undefined. */
function literalOf(spec: FieldSpec, text: string, literals: string[]): unknown {
  const number = (t: string): number | undefined => (/^[-+]?(\d+\.?\d*|\.\d+)(e[-+]?\d+)?[fFdDmMuUlL]*$/.test(t.trim()) ? Number.parseFloat(t) : undefined);
  const literal = /^["']§(\d+)["']$/.exec(text);
  switch (spec.type) {
    case 'Integer':
    case 'LayerMask':
      return number(text) === undefined ? undefined : Math.trunc(number(text) as number);
    case 'Float':
      return number(text);
    case 'Boolean':
      return text === 'true' ? true : text === 'false' ? false : undefined;
    case 'String':
    case 'Character':
      return literal ? literals[Number(literal[1])] : text === 'string.Empty' ? '' : undefined;
    case 'Enum':
      return spec.names.find((name) => text.endsWith(`.${name}`) || text === name);
    case 'Rect': {
      const values = /^new\s+Rect\s*\((.*)\)$/s.exec(text)?.[1]?.split(',').map(number);
      return values?.length === 4 && values.every((v) => v !== undefined) ? { x: values[0], y: values[1], width: values[2], height: values[3] } : undefined;
    }
    default: {
      if (!isVectorType(spec.type)) return undefined;
      const size = VECTOR_PARTS[spec.type].length;
      const named = /^\w+\.(\w+)$/.exec(text)?.[1] ?? '';
      if (spec.type === 'Color' && NAMED_COLORS[named]) return NAMED_COLORS[named];
      if (spec.type === 'Quaternion' && named === 'identity') return [0, 0, 0, 1];
      if (NAMED_VECTORS[named]) return [...(NAMED_VECTORS[named] as number[]), 0, 0, 0].slice(0, size);
      const args = /^new\s+\w+\s*\((.*)\)$/s.exec(text)?.[1]?.split(',').map(number);
      if (!args || args.some((v) => v === undefined)) return undefined;
      const filler = spec.type === 'Color' ? [0, 0, 0, 1] : [0, 0, 0, 0];
      return filler.slice(0, size).map((fill, n) => (args[n] as number | undefined) ?? fill);
    }
  }
}

function declarationsOf(path: string): ScriptDeclarations {
  const stats = statSync(path);
  const stamp = `${stats.size}:${stats.mtimeMs}`;
  const cached = cache.get(path);
  if (cached?.stamp === stamp) return cached.declarations;
  const declarations = readDeclarations(readFileSync(path, 'utf8'));
  cache.set(path, { stamp, declarations });
  return declarations;
}
