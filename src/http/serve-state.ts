/**
 * What `tether serve` leaves on disk: a bearer token generated on first run and kept (0600)
 * under $TETHER_HOME, and serve.json (0600: url, token, pid) while it runs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../discovery/host-record.js';
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

/**
 * Writes serve.json for this server. What another server of this home that still runs wrote
 * there is returned, for `removeServeState` to put back: a second `tether serve` beside the
 * first (another port) must not leave the first without its serve.json when it stops.
 */
export function writeServeState(home: string, state: ServeState): ServeState | undefined {
  const previous = readServeState(home);
  writePrivateFile(serveStatePath(home), `${JSON.stringify(state, null, 2)}\n`);
  return previous && previous.pid !== state.pid && isProcessAlive(previous.pid) ? previous : undefined;
}

/** Removes this server's serve.json (another server's is not ours to remove), or puts back the one it replaced, if that server still runs. */
export function removeServeState(home: string, pid = process.pid, replaced?: ServeState): void {
  if (readServeState(home)?.pid !== pid) return;
  if (replaced && isProcessAlive(replaced.pid)) writeServeState(home, replaced);
  else rmSync(serveStatePath(home), { force: true });
}

function readServeState(home: string): ServeState | undefined {
  try {
    const state = JSON.parse(readFileSync(serveStatePath(home), 'utf8')) as Partial<ServeState>;
    return typeof state.pid === 'number' && typeof state.url === 'string' && typeof state.token === 'string' ? (state as ServeState) : undefined;
  } catch {
    return undefined;
  }
}
