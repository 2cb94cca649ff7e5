/**
 * bin/tether.js runs the bundled CLI from a V8 code cache in $TETHER_HOME/cache/cli/. Real
 * `tether` processes; what the cache does is read off the disk: written once, 0600 in a 0700
 * directory, reused (not rewritten) while valid, replaced when stale or corrupt, and never in
 * the way when it cannot be written.
 */
import { chmodSync, cpSync, lstatSync, mkdirSync, readFileSync, readdirSync, renameSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { runBundle } from '../../src/cli/bundle-runner.js';
import { afterEach, describe, expect, it } from 'vitest';
import { REPO_ROOT, TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

const { version } = JSON.parse(readFileSync(join(REPO_ROOT, 'package.json'), 'utf8')) as { version: string };

async function tetherVersion(workspace: Workspace): Promise<void> {
  const run = await runToExit(process.execPath, [TETHER_BIN, '--version'], { env: workspace.env });
  expect(run.code, run.stderr).toBe(0);
  expect(run.stdout.trim()).toBe(version);
}

const cacheDir = (workspace: Workspace): string => join(workspace.home, 'cache', 'cli');
const caches = (workspace: Workspace): string[] => readdirSync(cacheDir(workspace)).filter((name) => name.endsWith('.v8cache'));

describe('the CLI code cache', () => {
  it('is written by the first run, private, and reused unchanged by the next', async () => {
    const workspace = createWorkspace();
    await tetherVersion(workspace);
    const [name, ...others] = caches(workspace);
    expect(others).toEqual([]);
    // Named by the bundle's content hash (V8 checks only the source's length).
    const hash = readFileSync(join(REPO_ROOT, 'dist', 'bundle', 'tether.cjs.sha256'), 'utf8')
      .trim()
      .slice(0, 16);
    expect(name).toMatch(new RegExp(`^version-${process.version}-${process.arch}-[0-9a-f]{8}-${hash}\\.v8cache$`));
    const path = join(cacheDir(workspace), name!);
    const first = statSync(path);
    expect(first.mode & 0o777).toBe(0o600);
    expect(statSync(cacheDir(workspace)).mode & 0o777).toBe(0o700);
    expect(first.size).toBeGreaterThan(10_000);

    await tetherVersion(workspace);
    // Accepted by V8, so not written again: same file, same bytes.
    const second = statSync(path);
    expect([second.ino, second.mtimeMs]).toEqual([first.ino, first.mtimeMs]);
  });

  it("replaces a corrupt cache, drops the cache of an older bundle, keeps another Node's", async () => {
    const workspace = createWorkspace();
    await tetherVersion(workspace);
    const [name] = caches(workspace);
    const path = join(cacheDir(workspace), name!);
    writeFileSync(path, 'not V8 code');
    // The same command, Node and install, for an older bundle (named by size and mtime).
    const install = name!.split('-')[3];
    const stale = join(cacheDir(workspace), `version-${process.version}-${process.arch}-${install}-1-1.v8cache`);
    writeFileSync(stale, 'an older bundle');
    const otherNode = `version-v99.0.0-${process.arch}-${install}-1-1.v8cache`;
    writeFileSync(join(cacheDir(workspace), otherNode), 'another Node');

    await tetherVersion(workspace);
    expect(readFileSync(path).length).toBeGreaterThan(10_000);
    expect(caches(workspace).sort()).toEqual([name, otherNode].sort());
  });

  it('keeps a cache for each of two installs of different releases, neither replacing the other', async () => {
    const workspace = createWorkspace();
    // Another install, of another release: the same files elsewhere, with a different bundle.
    const other = join(workspace.home, 'other-install');
    cpSync(join(REPO_ROOT, 'bin'), join(other, 'bin'), { recursive: true });
    cpSync(join(REPO_ROOT, 'package.json'), join(other, 'package.json'));
    cpSync(join(REPO_ROOT, 'dist', 'bundle'), join(other, 'dist', 'bundle'), { recursive: true });
    const bundle = join(other, 'dist', 'bundle', 'tether.cjs');
    writeFileSync(bundle, `${readFileSync(bundle, 'utf8')}// another release\n`);
    writeFileSync(`${bundle}.sha256`, 'another-release\n');
    const otherVersion = async (): Promise<void> => {
      const run = await runToExit(process.execPath, [join(other, 'bin', 'tether.js'), '--version'], { env: workspace.env });
      expect(run.code, run.stderr).toBe(0);
    };

    await tetherVersion(workspace);
    await otherVersion();
    const written = new Map(caches(workspace).map((name) => [name, statSync(join(cacheDir(workspace), name)).mtimeMs]));
    expect(written.size).toBe(2);
    // Each later start finds its own cache and writes nothing.
    await tetherVersion(workspace);
    await otherVersion();
    expect(new Map(caches(workspace).map((name) => [name, statSync(join(cacheDir(workspace), name)).mtimeMs]))).toEqual(written);
  });

  it('keeps one cache per command', async () => {
    const workspace = createWorkspace();
    await tetherVersion(workspace);
    const run = await runToExit(process.execPath, [TETHER_BIN, 'hosts'], { env: workspace.env });
    expect(run.code, run.stderr).toBe(0);
    expect(
      caches(workspace)
        .map((name) => name.split('-')[0])
        .sort(),
    ).toEqual(['hosts', 'version']);
  });

  it('is code, so it is used only when no one else may write it', async () => {
    const workspace = createWorkspace();
    await tetherVersion(workspace);
    const [name] = caches(workspace);
    const path = join(cacheDir(workspace), name!);
    const first = statSync(path);
    // A cache file others may write is not loaded: replaced by a private one at exit.
    chmodSync(path, 0o666);
    await tetherVersion(workspace);
    const replaced = statSync(path);
    expect(replaced.mode & 0o777).toBe(0o600);
    expect(replaced.ino).not.toBe(first.ino);
    // In a directory others may write, the cache is not read either: the directory is
    // tightened to 0700 and a private cache written again at exit.
    chmodSync(cacheDir(workspace), 0o777);
    await tetherVersion(workspace);
    expect(statSync(cacheDir(workspace)).mode & 0o777).toBe(0o700);
    const rewritten = statSync(path);
    expect(rewritten.mode & 0o777).toBe(0o600);
    expect(rewritten.ino).not.toBe(replaced.ino);
    // A cache file that is a symbolic link is not read through (even to a private cache):
    // replaced by a private file at exit, its target left alone.
    const elsewhere = join(workspace.home, 'elsewhere.v8cache');
    renameSync(path, elsewhere);
    symlinkSync(elsewhere, path);
    await tetherVersion(workspace);
    expect(lstatSync(path).isFile()).toBe(true);
    expect(statSync(elsewhere).ino).toBe(rewritten.ino);
  });

  it('does not stand in the way when it cannot be written', async () => {
    const workspace = createWorkspace();
    // A file where the cache directory should be: no directory can be made there, even by root.
    mkdirSync(join(workspace.home, 'cache'), { recursive: true });
    writeFileSync(cacheDir(workspace), 'in the way');
    await tetherVersion(workspace);
    await tetherVersion(workspace);
    expect(readFileSync(cacheDir(workspace), 'utf8')).toBe('in the way');
  });
});

describe('bin/tether.js', () => {
  it('runs the compiled modules when there is no bundle (a plain tsc build)', async () => {
    const workspace = createWorkspace();
    // A copy of the package without dist/bundle/; node_modules is the repository's.
    const root = join(workspace.home, 'package');
    cpSync(join(REPO_ROOT, 'bin'), join(root, 'bin'), { recursive: true });
    cpSync(join(REPO_ROOT, 'package.json'), join(root, 'package.json'));
    cpSync(join(REPO_ROOT, 'dist'), join(root, 'dist'), { recursive: true, filter: (source) => !source.startsWith(join(REPO_ROOT, 'dist', 'bundle')) });
    symlinkSync(join(REPO_ROOT, 'node_modules'), join(root, 'node_modules'), 'dir');
    const run = await runToExit(process.execPath, [join(root, 'bin', 'tether.js'), '--version'], { env: workspace.env });
    expect(run.code, run.stderr).toBe(0);
    expect(run.stdout.trim()).toBe(version);
    // No bundle ran, so no code cache was written.
    expect(() => readdirSync(cacheDir(workspace))).toThrow();
  });
});

describe('runBundle', () => {
  it('reads an ASCII bundle and one with other characters alike', () => {
    const workspace = createWorkspace();
    mkdirSync(workspace.home, { recursive: true });
    const seen = globalThis as { bundleSaw?: string[] };
    seen.bundleSaw = [];
    for (const [name, literal] of [
      ['ascii.cjs', '"caf\\u00e9 \\u2014 \\u{1F600}"'],
      ['utf8.cjs', '"caf\u00e9 \u2014 \u{1F600}"'],
    ] as const) {
      const bundle = join(workspace.home, name);
      writeFileSync(bundle, `globalThis.bundleSaw.push(${literal});`, 'utf8');
      runBundle(bundle, name, join(workspace.home, 'cache'));
    }
    expect(seen.bundleSaw).toEqual(['caf\u00e9 \u2014 \u{1F600}', 'caf\u00e9 \u2014 \u{1F600}']);
    delete seen.bundleSaw;
  });
});
