/**
 * How the tools name component types: by the short name Unity shows ("Light") or the full one
 * ("UnityEngine.Light", "MyGame.Health"), as the Unity package matches them everywhere. Scene
 * files store a type by its short name, so a full name is matched by its last part.
 */
import { COMPONENT_TYPES, type ComponentType } from './component-types.js';

/** The built-in types outside UnityEngine's own namespace; every other one is "UnityEngine.<Name>". */
const NAMESPACES: Readonly<Record<string, string>> = { NavMeshAgent: 'UnityEngine.AI' };

/** A type's short name, as Unity shows it and scene files store it: "Light" for "UnityEngine.Light". */
export function shortName(type: string): string {
  return type.replace(/^.*\./, '');
}

/** A built-in type's full name, as Type.FullName gives it: "UnityEngine.Light". */
export function fullNameOf(name: string): string {
  return `${NAMESPACES[name] ?? 'UnityEngine'}.${name}`;
}

/** The built-in type named `name`, short or full ("Light", "UnityEngine.Light"), with its short name. */
export function builtInComponentType(name: string): { name: string; type: ComponentType } | undefined {
  const short = shortName(name);
  const type = COMPONENT_TYPES.get(short);
  return type && (short === name || fullNameOf(short) === name) ? { name: short, type } : undefined;
}

/**
 * Whether a component stored as `type` is the one `name` names (short or full), as the Unity
 * package's ObjectReferences.Names tells: the same name, or the same last part of a dotted one.
 */
export function namesComponent(type: string, name: string): boolean {
  return type === name || shortName(type) === shortName(name);
}
