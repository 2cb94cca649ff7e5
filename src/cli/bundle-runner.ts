/**
 * Runs the bundled CLI (dist/bundle/tether.cjs, built by scripts/bundle-cli.mjs) from a V8
 * code cache. Why: every agent session spawns its own `tether mcp`, and compiling the 2.4 MB
 * bundle from source is about a fifth of its cold start. Node 20 has no module compile cache
 * (`module.enableCompileCache` arrives in 22.1), but a classic script compiled by node:vm can
 * be given the code V8 produced for the same script in an earlier run.
 *
 * The cache is code, so it lives with Tether's private state: $TETHER_HOME/cache/cli/, 0600 in
 * a 0700 directory. It is named by the command (each compiles different functions) and by what
 * it was compiled from: Node's version, the architecture, and the bundle's size and mtime,
 * because V8 itself checks only the source's length. A missing, stale or rejected cache is
 * written when the process exits; any failure to read or write it only means compiling from
 * source.
 */
import { existsSync, readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { Script, constants as vmConstants } from 'node:vm';
import { writePrivateFile } from '../discovery/secure-file.js';

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

export function runBundle(bundle: string, command: string | undefined, cacheDir: string): void {
  const source = readFileSync(bundle, 'utf8');
  const { size, mtimeMs } = statSync(bundle);
  // One family per command and Node: a TETHER_HOME shared by two Node versions keeps a cache for each.
  const prefix = `${(command ?? '').replace(/[^a-z0-9]/gi, '').slice(0, 40) || 'none'}-${process.version}-${process.arch}-`;
  const cacheFile = join(cacheDir, `${prefix}${size}-${Math.trunc(mtimeMs)}.v8cache`);
  const cachedData = readOwnCache(cacheDir, cacheFile);
  const script = new Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    // Node ≥ 20.12: an import() left in the bundle resolves as it would in a module.
    ...(vmConstants?.USE_MAIN_CONTEXT_DEFAULT_LOADER ? { importModuleDynamically: vmConstants.USE_MAIN_CONTEXT_DEFAULT_LOADER } : {}),
  });
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache holds every function this run compiled, not just the top level.
    process.once('exit', () => saveCache(script, cacheDir, cacheFile, prefix));
  }
  const module = { exports: {} };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

/**
 * The cache, if present and written by this user alone: it becomes code, so a file or
 * directory that someone else owns or may write (a TETHER_HOME created loosely by hand) is
 * ignored, and the next exit writes a private one.
 */
function readOwnCache(cacheDir: string, cacheFile: string): Buffer | undefined {
  try {
    return ownedPrivately(cacheDir) && ownedPrivately(cacheFile) ? readFileSync(cacheFile) : undefined;
  } catch {
    return undefined;
  }
}

function saveCache(script: Script, cacheDir: string, cacheFile: string, prefix: string): void {
  try {
    // A directory others may write is not ours to fix silently: keep compiling from source.
    if (existsSync(cacheDir) && !ownedPrivately(cacheDir)) return;
    writePrivateFile(cacheFile, script.createCachedData());
    // Caches of the same command and Node for an older bundle are dead weight.
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith(prefix) && name.endsWith('.v8cache') && join(cacheDir, name) !== cacheFile) rmSync(join(cacheDir, name), { force: true });
    }
  } catch {
    // A read-only or full disk costs the next start its cache, nothing else.
  }
}

/** Whether this user owns the path and no one else may write it (true where there are no uids). Throws if it is missing. */
function ownedPrivately(path: string): boolean {
  const uid = process.getuid?.();
  if (uid === undefined) return true;
  const { uid: owner, mode } = statSync(path);
  return owner === uid && (mode & 0o022) === 0;
}
