/**
 * Runs the bundled CLI (dist/bundle/tether.cjs, built by scripts/bundle-cli.mjs) from a V8
 * code cache. Why: every agent session spawns its own `tether mcp`, and compiling the 2.4 MB
 * bundle from source is about a fifth of its cold start. Node 20 has no module compile cache
 * (`module.enableCompileCache` arrives in 22.1), but a classic script compiled by node:vm can
 * be given the code V8 produced for the same script in an earlier run.
 *
 * The cache is code, so it lives with Tether's private state: $TETHER_HOME/cache/cli/, 0600 in
 * a 0700 directory. It is named by the command (each compiles different functions), by where
 * the bundle is installed, and by what it was compiled from: Node's version, the architecture,
 * and the bundle's content hash (see bundleIdentity), because V8 itself checks only the
 * source's length. A missing, stale or rejected cache is written when the process exits; any
 * failure to read or write it only means compiling from source.
 */
import { isAscii } from 'node:buffer';
import { createHash } from 'node:crypto';
import { readFileSync, readdirSync, rmSync, statSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
// A namespace import: vm.constants only exists from Node 20.12, and a missing named export of a
// built-in module fails at load time, before any check could run.
import * as vm from 'node:vm';
import { WRITABLE_BY_OTHERS, readPrivateFile, whyNotPrivate, writePrivateFile } from '../discovery/secure-file.js';
import { tetherHome } from '../discovery/tether-home.js';

type CommonJsWrapper = (exports: object, require: NodeJS.Require, module: { exports: object }, filename: string, dirname: string) => void;

/** What bin/tether.js calls: runs the bundle for `command`, its code cache under $TETHER_HOME. */
export function runCli(bundle: string, command: string | undefined): void {
  runBundle(bundle, command, join(tetherHome(), 'cache', 'cli'));
}

export function runBundle(bundle: string, command: string | undefined, cacheDir: string): void {
  const source = readSource(bundle);
  // One family per command, Node and install: a TETHER_HOME shared by two Node versions, or by
  // two installs of Tether (a global one and a project's), keeps a cache for each, instead of
  // each start of one replacing the other's.
  const prefix = `${(command ?? '').replace(/[^a-z0-9]/gi, '').slice(0, 40) || 'none'}-${process.version}-${process.arch}-${installKey(bundle)}-`;
  const cacheFile = join(cacheDir, `${prefix}${bundleIdentity(bundle)}.v8cache`);
  const cachedData = readOwnCache(cacheDir, cacheFile);
  const dynamicImport = vm.constants?.USE_MAIN_CONTEXT_DEFAULT_LOADER;
  const script = new vm.Script(`(function (exports, require, module, __filename, __dirname) {${source}\n})`, {
    filename: bundle,
    ...(cachedData ? { cachedData } : {}),
    // Node ≥ 20.12: an import() left in the bundle resolves as it would in a module.
    ...(dynamicImport ? { importModuleDynamically: dynamicImport } : {}),
  });
  if (!cachedData || script.cachedDataRejected) {
    // At exit the cache holds every function this run compiled, not just the top level.
    process.once('exit', () => saveCache(script, cacheDir, cacheFile, prefix));
  }
  const module = { exports: {} };
  (script.runInThisContext() as CommonJsWrapper)(module.exports, createRequire(bundle), module, bundle, dirname(bundle));
}

/**
 * The bundle's source. scripts/bundle-cli.mjs makes it ASCII, which reads as latin1 straight
 * into a one-byte string, 1-2 ms sooner than decoding 2.4 MB of UTF-8; anything else is
 * decoded as UTF-8.
 */
function readSource(bundle: string): string {
  const bytes = readFileSync(bundle);
  return isAscii(bytes) ? bytes.toString('latin1') : bytes.toString('utf8');
}

/**
 * The cache, if present and written by this user alone: it becomes code, so a file or
 * directory that someone else owns or may write (a TETHER_HOME created loosely by hand), or a
 * cache file that is a symbolic link, is ignored, and the next exit writes a private one
 * (tightening a directory of ours, never using someone else's: see ensurePrivateDir).
 */
function readOwnCache(cacheDir: string, cacheFile: string): Buffer | undefined {
  try {
    if (whyNotPrivate(statSync(cacheDir), WRITABLE_BY_OTHERS)) return undefined;
    // Checked and read through one descriptor: the file cannot be swapped in between.
    const read = readPrivateFile(cacheFile, WRITABLE_BY_OTHERS);
    return read.status === 'read' ? read.content : undefined;
  } catch {
    return undefined;
  }
}

/** A short name for where the bundle is installed. */
function installKey(bundle: string): string {
  return createHash('sha256').update(bundle).digest('hex').slice(0, 8);
}

/**
 * What the bundle was built from: the content hash scripts/bundle-cli.mjs writes beside it, or,
 * without one, its size and mtime. (V8 itself checks only the source's length, and an install
 * that normalizes mtimes would otherwise reuse code compiled for another release.)
 */
function bundleIdentity(bundle: string): string {
  try {
    return readFileSync(`${bundle}.sha256`, 'utf8').trim().slice(0, 16);
  } catch {
    const { size, mtimeMs } = statSync(bundle);
    return `${size}-${Math.trunc(mtimeMs)}`;
  }
}

function saveCache(script: vm.Script, cacheDir: string, cacheFile: string, prefix: string): void {
  try {
    // Tightens a cache directory of ours that others may use; throws for someone else's.
    writePrivateFile(cacheFile, script.createCachedData());
    // Caches of the same command, Node and install for an older bundle are dead weight.
    for (const name of readdirSync(cacheDir)) {
      if (name.startsWith(prefix) && name.endsWith('.v8cache') && join(cacheDir, name) !== cacheFile) rmSync(join(cacheDir, name), { force: true });
    }
  } catch {
    // A read-only or full disk, or a directory that is not ours, costs the next start its
    // cache, nothing else.
  }
}
