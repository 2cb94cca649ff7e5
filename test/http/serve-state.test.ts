/**
 * The serve token on disk: kept while it is private, replaced (0600, with a warning that names
 * the file and the reason, never a token) when someone else could know or have planted it, and
 * never read through a symbolic link or from a home that is not private. Real files in each
 * test's own TETHER_HOME, and once through a real `tether serve`.
 */
import { chmodSync, chownSync, lstatSync, mkdirSync, readFileSync, statSync, symlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { UnsafeDirectoryError, type WarningLog } from '../../src/discovery/secure-file.js';
import { loadOrCreateToken, tokenPath } from '../../src/http/serve-state.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, runToExit } from '../helpers/processes.js';
import { startServe } from '../helpers/serve.js';

afterEach(cleanupProcesses);

const PLANTED = 'planted-token-known-to-someone-else-0123456789';
const mode = (path: string): number => statSync(path).mode & 0o777;

function home(): string {
  const { home } = createWorkspace();
  mkdirSync(home, { mode: 0o700 });
  return home;
}

/** A WarningLog that keeps what it was told. */
function warnings(): WarningLog & { seen: Array<{ data: Record<string, unknown>; message: string }> } {
  const seen: Array<{ data: Record<string, unknown>; message: string }> = [];
  return { seen, warn: (data, message) => seen.push({ data, message }) };
}

describe('loadOrCreateToken', () => {
  it('creates a 0600 token once and keeps it while it stays private', () => {
    const dir = home();
    const log = warnings();
    const token = loadOrCreateToken(dir, log);
    expect(token.length).toBeGreaterThanOrEqual(32);
    expect(mode(tokenPath(dir))).toBe(0o600);
    expect(loadOrCreateToken(dir, log)).toBe(token);
    expect(log.seen).toEqual([]);
  });

  it('replaces a token others may read with a new 0600 one, and says why without either value', () => {
    const dir = home();
    writeFileSync(tokenPath(dir), `${PLANTED}\n`);
    chmodSync(tokenPath(dir), 0o644);
    const log = warnings();
    const token = loadOrCreateToken(dir, log);
    expect(token).not.toBe(PLANTED);
    expect(readFileSync(tokenPath(dir), 'utf8')).toBe(`${token}\n`);
    expect(mode(tokenPath(dir))).toBe(0o600);
    expect(log.seen).toEqual([{ data: { path: tokenPath(dir), reason: 'its mode 0644 lets other users read it' }, message: expect.stringContaining('serve token not trusted') }]);
    expect(JSON.stringify(log.seen)).not.toContain(token);
    expect(JSON.stringify(log.seen)).not.toContain(PLANTED);
    // The new one is private, so it is kept.
    expect(loadOrCreateToken(dir, log)).toBe(token);
  });

  it('does not follow a symbolic link to a token, and replaces the link, not its target', () => {
    const dir = home();
    const elsewhere = join(dir, 'elsewhere');
    writeFileSync(elsewhere, `${PLANTED}\n`, { mode: 0o600 });
    symlinkSync(elsewhere, tokenPath(dir));
    const log = warnings();
    const token = loadOrCreateToken(dir, log);
    expect(token).not.toBe(PLANTED);
    expect(lstatSync(tokenPath(dir)).isFile()).toBe(true);
    expect(mode(tokenPath(dir))).toBe(0o600);
    expect(readFileSync(elsewhere, 'utf8')).toBe(`${PLANTED}\n`);
    expect(log.seen.map(({ data }) => data.reason)).toEqual(['it is a symbolic link']);
  });

  it.runIf(process.getuid?.() === 0)('replaces a token another user owns', () => {
    const dir = home();
    writeFileSync(tokenPath(dir), `${PLANTED}\n`, { mode: 0o600 });
    chownSync(tokenPath(dir), 4242, 4242);
    const log = warnings();
    expect(loadOrCreateToken(dir, log)).not.toBe(PLANTED);
    expect(statSync(tokenPath(dir)).uid).toBe(0);
    expect(log.seen.map(({ data }) => data.reason)).toEqual(['it belongs to another user (uid 4242; this process runs as uid 0)']);
  });

  it('tightens a group-writable home to 0700 and keeps the private token in it', () => {
    const dir = home();
    const token = loadOrCreateToken(dir);
    chmodSync(dir, 0o775);
    expect(loadOrCreateToken(dir)).toBe(token);
    expect(mode(dir)).toBe(0o700);
  });

  it('refuses a home that is a symbolic link, even with a private token behind it', () => {
    const root = home();
    const real = join(root, 'real');
    const token = loadOrCreateToken(real);
    const link = join(root, 'home');
    symlinkSync(real, link, 'dir');
    expect(() => loadOrCreateToken(link)).toThrow(UnsafeDirectoryError);
    expect(readFileSync(tokenPath(real), 'utf8')).toBe(`${token}\n`);
  });
});

describe('tether serve', () => {
  it('serves with a new token, not a planted 0644 one, and warns on stderr', async () => {
    const workspace = createWorkspace();
    mkdirSync(workspace.home, { mode: 0o700 });
    writeFileSync(tokenPath(workspace.home), `${PLANTED}\n`, { mode: 0o644 });
    const served = await startServe(workspace);
    expect(served.token).not.toBe(PLANTED);
    expect(readFileSync(tokenPath(workspace.home), 'utf8')).toBe(`${served.token}\n`);
    expect(mode(tokenPath(workspace.home))).toBe(0o600);
    const refused = await fetch(served.url, { method: 'POST', headers: { authorization: `Bearer ${PLANTED}` } });
    expect(refused.status).toBe(401);
    await served.server.waitForStderrLine((line) => line.includes('serve token not trusted'));
  });

  it('refuses to start in a home that is a symbolic link, saying which and what to do', async () => {
    const workspace = createWorkspace();
    const real = `${workspace.home}-real`;
    mkdirSync(real, { mode: 0o700 });
    symlinkSync(real, workspace.home, 'dir');
    const run = await runToExit(process.execPath, [TETHER_BIN, 'serve', '--port', '0', '--project', workspace.project], { env: workspace.env });
    expect(run.code).toBe(2);
    expect(run.stderr).toContain(`Refusing to use ${workspace.home}: it is a symbolic link (to ${real})`);
    expect(() => statSync(tokenPath(real))).toThrow();
  });
});
