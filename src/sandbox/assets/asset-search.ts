/**
 * AssetDatabase.FindAssets' search filter: words match names, "t:Type" types, "l:Label"
 * labels. Name words must all be in an asset's name (any case); several types or several
 * labels are alternatives; the three kinds must all hold. Unity's parser is the reference;
 * the Unity package passes the filter to FindAssets itself.
 */
import { TetherError } from '../../protocol/index.js';

export interface AssetFilter {
  names: string[];
  types: string[];
  labels: string[];
}

export function parseFilter(filter: string, tool: string): AssetFilter {
  const parsed: AssetFilter = { names: [], types: [], labels: [] };
  for (const word of filter
    .trim()
    .split(/\s+/)
    .filter((w) => w !== '')) {
    const match = /^([tl]):(.*)$/i.exec(word);
    if (!match) {
      parsed.names.push(word.toLowerCase());
      continue;
    }
    const value = match[2] ?? '';
    if (value === '') {
      const problem = `"${word}" names no ${match[1]?.toLowerCase() === 't' ? 'type' : 'label'}`;
      throw new TetherError('INVALID_ARGUMENTS', `Invalid arguments for ${tool}: filter: ${problem}. Write "t:Material" or "l:Environment", without a space after the colon.`, {
        tool,
        field: 'filter',
        problem,
      });
    }
    (match[1]?.toLowerCase() === 't' ? parsed.types : parsed.labels).push(value);
  }
  return parsed;
}

/** Whether an asset (name, labels, and a test of its type) passes the filter. */
export function passes(filter: AssetFilter, asset: { name: string; labels: readonly string[] }, isType: (type: string) => boolean): boolean {
  const name = asset.name.toLowerCase();
  if (!filter.names.every((word) => name.includes(word))) return false;
  if (filter.types.length > 0 && !filter.types.some(isType)) return false;
  const labels = asset.labels.map((l) => l.toLowerCase());
  return filter.labels.length === 0 || filter.labels.some((label) => labels.includes(label.toLowerCase()));
}
