/**
 * Which Unity Object types derive from which, so a reference field takes what Unity's
 * ObjectField would take: a Texture field a Texture2D, a Collider field a BoxCollider, a field
 * of a script's class that class or a subclass. Built-in components know their base from
 * component-types.ts; scripts from their declarations (script-fields.ts).
 */
import { COMPONENT_TYPES } from '../component-types.js';

const ENGINE_BASES: Readonly<Record<string, string>> = {
  GameObject: 'Object',
  Component: 'Object',
  Behaviour: 'Component',
  MonoBehaviour: 'Behaviour',
  Collider: 'Component',
  Collider2D: 'Behaviour',
  Renderer: 'Component',
  ScriptableObject: 'Object',
  Texture: 'Object',
  Texture2D: 'Texture',
  RenderTexture: 'Texture',
  Cubemap: 'Texture',
  Sprite: 'Object',
  Material: 'Object',
  Mesh: 'Object',
  Shader: 'Object',
  AudioClip: 'Object',
  Motion: 'Object',
  AnimationClip: 'Motion',
  RuntimeAnimatorController: 'Object',
  AnimatorController: 'RuntimeAnimatorController',
  Avatar: 'Object',
  Flare: 'Object',
  Font: 'Object',
  PhysicMaterial: 'Object',
  PhysicsMaterial2D: 'Object',
  TextAsset: 'Object',
  MonoScript: 'TextAsset',
  SceneAsset: 'Object',
};

/** Bases the project's scripts add: class name → the class it derives from. */
export type ScriptBases = ReadonlyMap<string, string>;

export function baseOf(type: string, scripts: ScriptBases): string | undefined {
  return ENGINE_BASES[type] ?? COMPONENT_TYPES.get(type)?.base ?? scripts.get(type);
}

/** Whether an object of type `actual` fits a field of type `expected` ("Object" takes anything). */
export function isAssignable(actual: string, expected: string, scripts: ScriptBases): boolean {
  const seen = new Set<string>();
  for (let type: string | undefined = actual; type !== undefined && !seen.has(type); type = baseOf(type, scripts)) {
    if (type === expected) return true;
    seen.add(type);
  }
  return expected === 'Object';
}

/** Whether a type is a Component (built in, or a script's MonoBehaviour). */
export function isComponentType(type: string, scripts: ScriptBases): boolean {
  return type !== 'Component' && isAssignable(type, 'Component', scripts);
}
