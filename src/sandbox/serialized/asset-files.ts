/** Files under the project's Assets/ folder, found by how their names end (scripts, assets of a kind). */
import { readdirSync } from 'node:fs';
import { join } from 'node:path';

/** The project-relative paths ("Assets/…") of the files under Assets/ whose names end with `extension` (any case), sorted. */
export function assetFilesEndingWith(root: string, extension: string): string[] {
  const found: string[] = [];
  const wanted = extension.toLowerCase();
  const walk = (relative: string): void => {
    let entries;
    try {
      entries = readdirSync(join(root, relative), { withFileTypes: true });
    } catch {
      return;
    }
    for (const entry of entries) {
      if (entry.isDirectory()) walk(`${relative}/${entry.name}`);
      else if (entry.name.toLowerCase().endsWith(wanted)) found.push(`${relative}/${entry.name}`);
    }
  };
  walk('Assets');
  return found.sort();
}
