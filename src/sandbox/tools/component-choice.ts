/**
 * The component types a tool's arguments name, checked before anything changes (the Unity
 * package's ComponentTypeResolver): a built-in type or a MonoBehaviour class of the project's
 * scripts, each by its short or full name, or INVALID_ARGUMENTS with the closest names.
 */
import { TetherError } from '../../protocol/index.js';
import { builtInComponentType, namesComponent, shortName } from '../component-names.js';
import { COMPONENT_TYPES } from '../component-types.js';
import type { Component } from '../game-object.js';
import type { Project } from '../project.js';
import { isAssignable } from '../serialized/object-types.js';
import { ScriptCatalog } from '../serialized/script-fields.js';
import { didYouMean } from './tool-errors.js';

export interface ComponentChoice {
  /** The type's short name, as Unity shows it and the scene files store it. */
  name: string;
  /** Unity allows one per GameObject ([DisallowMultipleComponent], or built in). */
  single: boolean;
  /** Whether `components` hold one of this type or of a subclass, as GameObject.GetComponents(type) finds them. */
  isIn(components: readonly Component[]): boolean;
}

/** Finds the types one call names; the project's scripts are read once, and only for a name no built-in type has. */
export function componentTypes(project: Project): (name: string, tool: string, field: string) => ComponentChoice {
  let catalog: ScriptCatalog | undefined;
  const scripts = (): ScriptCatalog => (catalog ??= new ScriptCatalog(project));
  return (name, tool, field) => {
    const builtIn = builtInComponentType(name);
    // No script derives from a built-in component type (they are sealed, or not MonoBehaviours).
    if (builtIn) return { name: builtIn.name, single: builtIn.type.single, isIn: (components) => components.some((c) => namesComponent(c.type, builtIn.name)) };
    const script = scripts().component(name);
    if (script) {
      const { bases } = scripts();
      // [DisallowMultipleComponent] on a script is not modelled: a script may be added more than once.
      return { name: script, single: false, isIn: (components) => components.some((c) => isAssignable(shortName(c.type), script, bases)) };
    }
    const { suggestions, hint } = didYouMean(name, [...COMPONENT_TYPES.keys(), ...scripts().componentNames()]);
    const problem = `no component type named "${name}"`;
    throw new TetherError(
      'INVALID_ARGUMENTS',
      `Invalid arguments for ${tool}: ${field}: ${problem}.${hint} Give a Component type's name, e.g. "Rigidbody" or "MyGame.Health".`,
      { tool, field, problem, suggestions },
    );
  };
}
