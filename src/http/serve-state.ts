/**
 * What `tether serve` leaves on disk: a bearer token generated on first run and kept (0600)
 * under $TETHER_HOME, and serve.json (0600: url, token, pid) while it runs.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, rmSync } from 'node:fs';
import { join } from 'node:path';
import { writePrivateFile } from '../discovery/secure-file.js';

export function tokenPath(home: string): string {
  return join(home, 'serve-token');
}

export function serveStatePath(home: string): string {
  return join(home, 'serve.json');
}

/** The server's bearer token, created (0600) the first time. */
export function loadOrCreateToken(home: string): string {
  const path = tokenPath(home);
  try {
    const existing = readFileSync(path, 'utf8').trim();
    if (existing.length >= 32) return existing;
  } catch {
    // First run.
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
