/**
 * INVALID_ARGUMENTS for a name that is none of the known ones (a shader, a shader property, a
 * ScriptableObject class): "did you mean" the closest, otherwise the list. The Unity package
 * says it the same way (unity/Editor/Unity/Assets/NamedChoices.cs).
 */
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';

/** `listIntro` starts the list shown when nothing is close ("Shaders:"); `whenNone` is said when nothing is known. */
export function unknownName(tool: string, field: string, name: string, problem: string, known: readonly string[], listIntro: string, whenNone = ''): TetherError {
  const suggestions = closestNames(name, known);
  const sorted = [...new Set(known)].sort();
  const hint =
    suggestions.length > 0
      ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?`
      : sorted.length > 0
        ? ` ${listIntro} ${sorted.slice(0, 20).join(', ')}${sorted.length > 20 ? ', …' : ''}.`
        : whenNone;
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}.${hint}`, { tool, field, problem, suggestions });
}
