/** "Did you mean": the known names closest to a mistyped one. */
import { TetherError, clipped } from '../protocol/index.js';

/** Longer than any name worth comparing: tool names have at most 128 characters. */
const MAX_COMPARED_LENGTH = 256;

export function closestNames(name: string, known: Iterable<string>, max = 3): string[] {
  // Comparing costs the product of the lengths: a megabyte-long name would hold the process for seconds.
  if (name.length > MAX_COMPARED_LENGTH) return [];
  const target = name.toLowerCase();
  return [...known]
    .map((candidate) => ({ candidate, score: distance(target, candidate.toLowerCase()) - sharedBonus(target, candidate.toLowerCase()) }))
    .filter(({ candidate, score }) => score <= Math.max(2, Math.floor(candidate.length / 2)))
    .sort((a, b) => a.score - b.score || a.candidate.localeCompare(b.candidate))
    .slice(0, max)
    .map(({ candidate }) => candidate);
}

/** Substring matches ("hierarchy" for "get_hierarchy") count as close. */
function sharedBonus(a: string, b: string): number {
  return a.length >= 3 && (b.includes(a) || a.includes(b)) ? Math.abs(a.length - b.length) : 0;
}

/** Levenshtein distance, two rows. */
export function distance(a: string, b: string): number {
  let previous = Array.from({ length: b.length + 1 }, (_, i) => i);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      current[j] = Math.min((previous[j] as number) + 1, (current[j - 1] as number) + 1, (previous[j - 1] as number) + cost);
    }
    previous = current;
  }
  return previous[b.length] as number;
}

export function unknownTool(name: string, known: Iterable<string>): TetherError {
  const suggestions = closestNames(name, known);
  const hint = suggestions.length > 0 ? ` Did you mean ${suggestions.map((s) => `"${s}"`).join(', ')}?` : '';
  return new TetherError('UNKNOWN_TOOL', `No tool named "${clipped(name)}".${hint} tools/list shows every tool.`, { tool: clipped(name), suggestions });
}
