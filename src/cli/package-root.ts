/**
 * The installed package's root folder (where package.json, bin/ and samples/ are). Found by
 * walking up from this module rather than by a fixed `../..`, because the same code runs from
 * dist/cli/… (compiled) and from dist/bundle/ (the bundled CLI), at different depths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'tether-mcp';

let root: string | undefined;

export function packageRoot(): string {
  if (root) return root;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const manifest = join(dir, 'package.json');
    if (existsSync(manifest) && (JSON.parse(readFileSync(manifest, 'utf8')) as { name?: string }).name === PACKAGE_NAME) return (root = dir);
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Could not find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}; the installation is incomplete.`);
    dir = parent;
  }
}

export function packageVersion(): string {
  return (JSON.parse(readFileSync(join(packageRoot(), 'package.json'), 'utf8')) as { version: string }).version;
}
