/**
 * The rules for private files and directories, on real files in each test's own TETHER_HOME:
 * a directory of ours with wider permissions is tightened, a symbolic link or someone else's
 * directory is refused, and a file is read only if it is a regular file of ours that others
 * cannot open. Whose a file is cannot be changed without root, so ownership is checked on fake
 * stats (and on real files where the tests run as root).
 */
import { execFileSync } from 'node:child_process';
import { chmodSync, chownSync, mkdirSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { OPEN_TO_OTHERS, UnsafeDirectoryError, WRITABLE_BY_OTHERS, ensurePrivateDir, processWarnings, readPrivateFile, whyNotPrivate, writePrivateFile } from '../../src/discovery/secure-file.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { thrownBy } from '../helpers/thrown.js';

afterEach(async () => {
  vi.restoreAllMocks();
  await cleanupProcesses();
});

const asRoot = process.getuid?.() === 0;
const mode = (path: string): number => statSync(path).mode & 0o777;

function home(): string {
  const { home } = createWorkspace();
  mkdirSync(home, { mode: 0o700 });
  return home;
}

const refusal = (action: () => unknown): UnsafeDirectoryError => thrownBy(action, UnsafeDirectoryError);

describe('whyNotPrivate', () => {
  const me = 1000;

  it('trusts a file of this user that grants others none of the bits asked about', () => {
    expect(whyNotPrivate({ uid: me, mode: 0o100600 }, OPEN_TO_OTHERS, me)).toBeUndefined();
    expect(whyNotPrivate({ uid: me, mode: 0o100644 }, WRITABLE_BY_OTHERS, me)).toBeUndefined();
    expect(whyNotPrivate({ uid: me, mode: 0o40700 }, OPEN_TO_OTHERS, me)).toBeUndefined();
  });

  it("says which user owns a file that is not this user's, whatever its mode", () => {
    expect(whyNotPrivate({ uid: 1001, mode: 0o100600 }, OPEN_TO_OTHERS, me)).toBe('it belongs to another user (uid 1001; this process runs as uid 1000)');
    expect(whyNotPrivate({ uid: 0, mode: 0o100600 }, 0, me)).toMatch(/another user \(uid 0;/);
  });

  it('says what a too-wide mode lets other users do', () => {
    expect(whyNotPrivate({ uid: me, mode: 0o100644 }, OPEN_TO_OTHERS, me)).toBe('its mode 0644 lets other users read it');
    expect(whyNotPrivate({ uid: me, mode: 0o100666 }, OPEN_TO_OTHERS, me)).toBe('its mode 0666 lets other users read and change it');
    expect(whyNotPrivate({ uid: me, mode: 0o100620 }, WRITABLE_BY_OTHERS, me)).toBe('its mode 0620 lets other users change it');
    expect(whyNotPrivate({ uid: me, mode: 0o40711 }, OPEN_TO_OTHERS, me)).toBe('its mode 0711 lets other users enter it');
  });

  it('trusts everything where there are no uids (Windows)', () => {
    vi.spyOn(process, 'getuid').mockReturnValue(undefined as unknown as number);
    expect(whyNotPrivate({ uid: 0, mode: 0o100666 }, OPEN_TO_OTHERS)).toBeUndefined();
  });
});

describe('ensurePrivateDir', () => {
  it('creates missing directories 0700', () => {
    const dir = join(home(), 'cache', 'cli');
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    expect(mode(join(dir, '..'))).toBe(0o700);
  });

  it("tightens a directory of this user's that others may use to 0700", () => {
    const dir = home();
    chmodSync(dir, 0o775);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o700);
    // Through writePrivateFile too: the hosts/ directory of a loosely made TETHER_HOME.
    const hosts = join(dir, 'hosts');
    mkdirSync(hosts, { mode: 0o777 });
    chmodSync(hosts, 0o777);
    writePrivateFile(join(hosts, 'a.json'), '{}');
    expect(mode(hosts)).toBe(0o700);
    expect(mode(join(hosts, 'a.json'))).toBe(0o600);
  });

  it("never narrows a shared (sticky) directory such as /tmp, even one of this user's", () => {
    const shared = join(home(), 'shared');
    mkdirSync(shared);
    chmodSync(shared, 0o1777);
    expect(() => ensurePrivateDir(shared)).toThrow(/shared with every user \(mode 1777, like \/tmp\).*a directory of its own inside it/);
    expect(mode(shared)).toBe(0o777);
    expect(statSync(shared).mode & 0o1000).toBe(0o1000);
    // Inside it, a directory of Tether's own is fine.
    ensurePrivateDir(join(shared, 'tether'));
    expect(mode(join(shared, 'tether'))).toBe(0o700);
  });

  it('refuses a symbolic link, even to a private directory, saying where it points and what to do', () => {
    const root = home();
    const target = join(root, 'elsewhere');
    mkdirSync(target, { mode: 0o700 });
    const link = join(root, 'tether');
    symlinkSync(target, link, 'dir');
    const error = refusal(() => ensurePrivateDir(link));
    expect(error.code).toBe('UNSAFE_DIRECTORY');
    expect(error.path).toBe(link);
    expect(error.message).toContain(`Refusing to use ${link}: it is a symbolic link (to ${target})`);
    expect(error.message).toContain('set TETHER_HOME to a directory of your own');
    // Nothing was written through it.
    expect(() => writePrivateFile(join(link, 'serve-token'), 'x')).toThrow(UnsafeDirectoryError);
    expect(() => statSync(join(target, 'serve-token'))).toThrow();
  });

  it('refuses a dangling symbolic link instead of failing obscurely', () => {
    const link = join(home(), 'tether');
    symlinkSync(join(link, '..', 'nowhere'), link, 'dir');
    expect(refusal(() => ensurePrivateDir(link)).problem).toMatch(/^it is a symbolic link/);
  });

  it.runIf(asRoot)('refuses a directory another user owns, and leaves its mode alone', () => {
    const dir = join(home(), 'planted');
    mkdirSync(dir, { mode: 0o777 });
    chmodSync(dir, 0o777);
    chownSync(dir, 4242, 4242);
    expect(refusal(() => ensurePrivateDir(dir)).problem).toBe('it belongs to another user (uid 4242; this process runs as uid 0)');
    expect(mode(dir)).toBe(0o777);
  });

  it('leaves an existing directory as it is where there are no uids (Windows)', () => {
    const dir = home();
    chmodSync(dir, 0o755);
    vi.spyOn(process, 'getuid').mockReturnValue(undefined as unknown as number);
    ensurePrivateDir(dir);
    expect(mode(dir)).toBe(0o755);
  });
});

describe('readPrivateFile', () => {
  it('reads a private file, and says when there is none', () => {
    const path = join(home(), 'serve-token');
    expect(readPrivateFile(path, OPEN_TO_OTHERS)).toEqual({ status: 'missing' });
    writePrivateFile(path, 'secret\n');
    expect(readPrivateFile(path, OPEN_TO_OTHERS)).toEqual({ status: 'read', content: Buffer.from('secret\n') });
  });

  it('does not trust a file others may open with the bits asked about', () => {
    const path = join(home(), 'file');
    writeFileSync(path, 'secret');
    chmodSync(path, 0o644);
    expect(readPrivateFile(path, OPEN_TO_OTHERS)).toEqual({ status: 'untrusted', reason: 'its mode 0644 lets other users read it' });
    // Readable, but no one else may change it: enough where only integrity matters.
    expect(readPrivateFile(path, WRITABLE_BY_OTHERS)).toMatchObject({ status: 'read' });
    chmodSync(path, 0o664);
    expect(readPrivateFile(path, WRITABLE_BY_OTHERS)).toEqual({ status: 'untrusted', reason: 'its mode 0664 lets other users change it' });
  });

  it('never follows a symbolic link, even to a private file', () => {
    const dir = home();
    writePrivateFile(join(dir, 'real'), 'secret');
    symlinkSync(join(dir, 'real'), join(dir, 'link'));
    expect(readPrivateFile(join(dir, 'link'), OPEN_TO_OTHERS)).toEqual({ status: 'untrusted', reason: 'it is a symbolic link' });
  });

  it('does not read a directory, or hang on a FIFO', () => {
    const dir = home();
    mkdirSync(join(dir, 'sub'), { mode: 0o700 });
    expect(readPrivateFile(join(dir, 'sub'), OPEN_TO_OTHERS)).toEqual({ status: 'untrusted', reason: 'it is not a regular file' });
    const fifo = join(dir, 'fifo');
    execFileSync('mkfifo', ['-m', '600', fifo]);
    expect(readPrivateFile(fifo, OPEN_TO_OTHERS)).toEqual({ status: 'untrusted', reason: 'it is not a regular file' });
  });

  it.runIf(asRoot)('does not trust a file another user owns', () => {
    const path = join(home(), 'serve-token');
    writePrivateFile(path, 'planted');
    chownSync(path, 4242, 4242);
    expect(readPrivateFile(path, OPEN_TO_OTHERS)).toEqual({ status: 'untrusted', reason: 'it belongs to another user (uid 4242; this process runs as uid 0)' });
  });
});

describe('processWarnings', () => {
  it('emits a Node warning once per message and data, since records are read again on every poll', () => {
    const emit = vi.spyOn(process, 'emitWarning').mockImplementation(() => undefined);
    processWarnings.warn({ path: '/h/hosts/a.json', reason: 'r' }, 'host record not trusted, so skipped');
    processWarnings.warn({ path: '/h/hosts/a.json', reason: 'r' }, 'host record not trusted, so skipped');
    processWarnings.warn({ path: '/h/hosts/b.json', reason: 'r' }, 'host record not trusted, so skipped');
    expect(emit.mock.calls).toEqual([
      ['host record not trusted, so skipped {"path":"/h/hosts/a.json","reason":"r"}', { code: 'TETHER_UNTRUSTED_FILE' }],
      ['host record not trusted, so skipped {"path":"/h/hosts/b.json","reason":"r"}', { code: 'TETHER_UNTRUSTED_FILE' }],
    ]);
  });
});
