/**
 * The installed package's root folder (where package.json, bin/ and samples/ are). Found by
 * walking up from this module rather than by a fixed `../..`, because the same code runs from
 * dist/cli/… (compiled) and from dist/bundle/ (the bundled CLI), at different depths.
 */
import { existsSync, readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const PACKAGE_NAME = 'tether-mcp';

interface Manifest {
  name?: string;
  version: string;
}

/** Found once: every command reads the version at start-up, and `start` the root again. */
let found: { root: string; manifest: Manifest } | undefined;

function findPackage(): { root: string; manifest: Manifest } {
  if (found) return found;
  let dir = dirname(fileURLToPath(import.meta.url));
  for (;;) {
    const path = join(dir, 'package.json');
    if (existsSync(path)) {
      const manifest = JSON.parse(readFileSync(path, 'utf8')) as Manifest;
      if (manifest.name === PACKAGE_NAME) return (found = { root: dir, manifest });
    }
    const parent = dirname(dir);
    if (parent === dir) throw new Error(`Could not find the ${PACKAGE_NAME} package.json above ${fileURLToPath(import.meta.url)}; the installation is incomplete.`);
    dir = parent;
  }
}

export function packageRoot(): string {
  return findPackage().root;
}

export function packageVersion(): string {
  return findPackage().manifest.version;
}
