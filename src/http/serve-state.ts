/**
 * What `tether serve` leaves on disk: a bearer token generated on first run and kept (0600)
 * under $TETHER_HOME, and serve.json (0600: url, token, pid) while it runs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { OPEN_TO_OTHERS, ensurePrivateDir, processWarnings, readPrivateFile, writePrivateFile, type WarningLog } from '../discovery/secure-file.js';

export function tokenPath(home: string): string {
  return join(home, 'serve-token');
}

export function serveStatePath(home: string): string {
  return join(home, 'serve.json');
}

/**
 * The server's bearer token, created (0600) the first time. A token file someone else may know
 * or have planted (another user's, readable or writable by others, a symbolic link) is not
 * used: it is replaced by a new token, with a warning saying why. A home that is not private
 * is tightened or refused (ensurePrivateDir) before anything is read from it.
 */
export function loadOrCreateToken(home: string, log: WarningLog = processWarnings): string {
  const path = tokenPath(home);
  ensurePrivateDir(home);
  const existing = readPrivateFile(path, OPEN_TO_OTHERS);
  if (existing.status === 'read') {
    const token = existing.content.toString('utf8').trim();
    if (token.length >= 32) return token;
  } else if (existing.status === 'untrusted') {
    log.warn({ path, reason: existing.reason }, 'serve token not trusted, so replaced by a new one (clients need the new token)');
  }
  const token = randomBytes(32).toString('base64url');
  writePrivateFile(path, `${token}\n`);
  return token;
}

export interface ServeState {
  url: string;
  token: string;
  pid: number;
  tokenPath: string;
}

export function writeServeState(home: string, state: ServeState): void {
  writePrivateFile(serveStatePath(home), `${JSON.stringify(state, null, 2)}\n`);
}

export function removeServeState(home: string, pid = process.pid): void {
  try {
    const current = JSON.parse(readFileSync(serveStatePath(home), 'utf8')) as { pid?: number };
    if (current.pid !== pid) return; // another server's file: not ours to remove
  } catch {
    return;
  }
  rmSync(serveStatePath(home), { force: true });
}
