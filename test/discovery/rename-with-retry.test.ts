/**
 * Renames over an existing file, as Windows allows them: there an antivirus scan or the search
 * indexer holds a file just written for a moment, and the rename fails meanwhile (EPERM,
 * EACCES, EBUSY). Linux cannot make that happen for real, so the platform is said to be win32
 * and the rename refuses a given number of times, on real files in a temporary folder: first
 * through renameWithRetry's own options, then through node:fs for each caller that replaces
 * a file (scene and .meta saves, host records and tokens, client configurations). Not the journal's
 * compaction: one that fails is harmless and tried again later, where a retry would hold the host's loop.
 */
import * as fs from 'node:fs';
import { mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ExitError } from '../../src/cli/exit-error.js';
import { replaceFile } from '../../src/cli/replace-file.js';
import { RENAME_RETRY_LIMIT_MS, renameWithRetry } from '../../src/discovery/rename-with-retry.js';
import { readPrivateFile, writePrivateFile } from '../../src/discovery/secure-file.js';
import { Project } from '../../src/sandbox/project.js';
import { thrownBy } from '../helpers/thrown.js';

/** Renames onto `target` that node:fs refuses, and with what, in this process. */
const refused = vi.hoisted(() => ({ target: undefined as string | undefined, times: 0, code: 'EPERM' }));

vi.mock('node:fs', async (importOriginal) => {
  const actual = await importOriginal<typeof import('node:fs')>();
  const renameSync = (from: fs.PathLike, to: fs.PathLike): void => {
    if (String(to) === refused.target && refused.times > 0) {
      refused.times--;
      throw windowsRefusal(refused.code, String(from), String(to));
    }
    actual.renameSync(from, to);
  };
  return { ...actual, renameSync };
});

function windowsRefusal(code: string, from: string, to: string): NodeJS.ErrnoException {
  return Object.assign(new Error(`${code}: operation not permitted, rename '${from}' -> '${to}'`), { errno: -4048, code, syscall: 'rename', path: from, dest: to });
}

let dir: string;
const realPlatform = process.platform;

function pretendPlatform(platform: NodeJS.Platform): void {
  Object.defineProperty(process, 'platform', { value: platform, configurable: true });
}

beforeEach(() => {
  dir = mkdtempSync(join(tmpdir(), 'tether-rename-'));
});

afterEach(() => {
  pretendPlatform(realPlatform);
  refused.target = undefined;
  refused.times = 0;
  rmSync(dir, { recursive: true, force: true });
});

/** A temporary file beside an existing target, as an atomic write leaves them before its rename. */
function atomicWrite(): { temp: string; target: string } {
  const temp = join(dir, 'scene.json.tmp');
  const target = join(dir, 'scene.json');
  writeFileSync(target, 'old\n');
  writeFileSync(temp, 'new\n');
  return { temp, target };
}

/** A clock that only the sleeps move, and a rename that refuses `times` times (Infinity: always). */
function fakeWindows(times: number, code = 'EPERM', platform: NodeJS.Platform = 'win32') {
  let clock = 0;
  const sleeps: number[] = [];
  const errors: NodeJS.ErrnoException[] = [];
  let calls = 0;
  return {
    sleeps,
    errors,
    calls: () => calls,
    options: {
      platform,
      now: () => clock,
      sleep: (ms: number) => {
        sleeps.push(ms);
        clock += ms;
      },
      rename: (from: string, to: string) => {
        calls++;
        if (calls <= times) {
          const error = windowsRefusal(code, from, to);
          errors.push(error);
          throw error;
        }
        fs.renameSync(from, to);
      },
    },
  };
}

describe('renameWithRetry', () => {
  it.each(['EPERM', 'EACCES', 'EBUSY'])('on win32, renames over the file once a %s passes, after as many retries', (code) => {
    const { temp, target } = atomicWrite();
    const windows = fakeWindows(3, code);
    renameWithRetry(temp, target, windows.options);
    expect(windows.calls()).toBe(4);
    expect(windows.sleeps).toEqual([10, 20, 30]);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
    expect(readdirSync(dir)).toEqual(['scene.json']);
  });

  it('on win32, gives up after its bound: the temporary file is removed, the target kept, the error thrown as it came', () => {
    const { temp, target } = atomicWrite();
    const windows = fakeWindows(Infinity);
    let thrown: unknown;
    try {
      renameWithRetry(temp, target, windows.options);
    } catch (error) {
      thrown = error;
    }
    expect(thrown).toBe(windows.errors.at(-1));
    expect(thrown).toMatchObject({ code: 'EPERM', syscall: 'rename' });
    expect(windows.sleeps.reduce((sum, ms) => sum + ms, 0)).toBe(RENAME_RETRY_LIMIT_MS);
    expect(Math.max(...windows.sleeps)).toBe(100);
    expect(windows.calls()).toBeGreaterThan(10);
    expect(readFileSync(target, 'utf8')).toBe('old\n');
    expect(readdirSync(dir)).toEqual(['scene.json']);
  });

  it('on win32, does not retry what no passing scan causes (ENOENT)', () => {
    const { temp, target } = atomicWrite();
    const windows = fakeWindows(1, 'ENOENT');
    expect(() => renameWithRetry(temp, target, windows.options)).toThrow(/ENOENT/);
    expect(windows.calls()).toBe(1);
    expect(windows.sleeps).toEqual([]);
  });

  it('elsewhere, is a plain rename: an EPERM is thrown at once, and the temporary file removed', () => {
    const { temp, target } = atomicWrite();
    const windows = fakeWindows(1, 'EPERM', 'linux');
    expect(() => renameWithRetry(temp, target, windows.options)).toThrow(/EPERM/);
    expect(windows.calls()).toBe(1);
    expect(windows.sleeps).toEqual([]);
    expect(readdirSync(dir)).toEqual(['scene.json']);
  });

  it('renames over the file with node:fs and the real clock by default', () => {
    const { temp, target } = atomicWrite();
    renameWithRetry(temp, target);
    expect(readFileSync(target, 'utf8')).toBe('new\n');
  });
});

describe('the callers that replace a file retry a rename Windows refuses a moment', () => {
  beforeEach(() => {
    pretendPlatform('win32');
  });

  it('a scene or .meta save (Project.writeJson)', () => {
    const project = new Project(dir);
    const path = join(dir, 'Assets', 'Scenes', 'SampleScene.json');
    project.writeJson(path, { version: 1 });
    refused.target = path;
    refused.times = 2;
    project.writeJson(path, { version: 2 });
    expect(refused.times).toBe(0);
    expect(project.readJson(path, {})).toEqual({ version: 2 });
    expect(readdirSync(join(dir, 'Assets', 'Scenes'))).toEqual(['SampleScene.json']);
  });

  it('a host record or token file (writePrivateFile)', () => {
    const home = join(dir, 'home');
    const path = join(home, 'serve-token');
    writePrivateFile(path, 'old\n');
    refused.target = path;
    refused.times = 2;
    refused.code = 'EACCES';
    writePrivateFile(path, 'new\n');
    expect(refused.times).toBe(0);
    const read = readPrivateFile(path, 0o077);
    expect(read.status === 'read' && read.content.toString()).toBe('new\n');
    expect(readdirSync(home)).toEqual(['serve-token']);
  });

  it('a client configuration (replaceFile), whose error stays when the retries run out', () => {
    const path = join(dir, 'mcp.json');
    writeFileSync(path, '{}\n');
    refused.target = path;
    refused.times = 2;
    refused.code = 'EBUSY';
    replaceFile(path, '{"servers":{}}\n', { mode: 0o600, holder: 'the client' });
    expect(refused.times).toBe(0);
    expect(readFileSync(path, 'utf8')).toBe('{"servers":{}}\n');

    refused.times = Infinity;
    refused.code = 'EPERM';
    const failure = thrownBy(() => replaceFile(path, '{"servers":{"x":{}}}\n', { mode: 0o600, holder: 'the client' }), ExitError);
    expect(failure.message).toContain(`Could not replace ${path}: EPERM. It was left as it was. Close the client`);
    expect(readFileSync(path, 'utf8')).toBe('{"servers":{}}\n');
    expect(readdirSync(dir)).toEqual(['mcp.json']);
  });
});
