/** The refusals the tools share, worded alike so an agent reads every one the same way. */
import { TetherError } from '../../protocol/index.js';
import { closestNames } from '../../schema/suggest.js';

/** INVALID_ARGUMENTS for `field`: what is wrong with it, and what to give instead. */
export function invalidArgument(tool: string, field: string, problem: string, hint: string, extra: Record<string, unknown> = {}): TetherError {
  return new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: ${field}: ${problem}. ${hint}`, { tool, field, problem, ...extra });
}

/** The names closest to `name` among `known`, and the sentence that offers them (" Did you mean "a", "b"?", or nothing). */
export function didYouMean(name: string, known: Iterable<string>): { suggestions: string[]; hint: string } {
  const suggestions = closestNames(name, known);
  return { suggestions, hint: suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '' };
}
