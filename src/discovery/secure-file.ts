/** Files that hold secrets (tokens): created 0600 in 0700 directories, replaced atomically. */
import { randomBytes } from 'node:crypto';
import { mkdirSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';

export function ensurePrivateDir(dir: string): void {
  mkdirSync(dir, { recursive: true, mode: 0o700 });
}

/** Writes the file so that no reader ever sees it half-written or with wider permissions. */
export function writePrivateFile(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  ensurePrivateDir(dir);
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content, { mode: 0o600 });
    renameSync(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}
