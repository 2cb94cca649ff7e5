/**
 * Replacing a file that other programs read (Unity's Packages/manifest.json, an MCP client's
 * configuration): the new text is written beside it and renamed over it, so no reader ever
 * sees half a file, and keeps the mode given. A backup of the old file, when asked for, is
 * kept only once the new file is in place.
 *
 * A file system's refusal (EPERM, EACCES, EBUSY: on Windows, what renaming over a file another
 * program has open gives) leaves the file as it was, with neither the temporary file nor the
 * backup beside it, and is an ExitError (exit 1) that says what to do. On Windows the rename is
 * first retried for a second (renameWithRetry): an antivirus scan or the search indexer holds
 * a file just written only that long, while a client that keeps it open outlasts the retries.
 */
import { chmodSync, copyFileSync, existsSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join } from 'node:path';
import { renameWithRetry } from '../discovery/rename-with-retry.js';
import { ExitError } from './exit-error.js';

export interface ReplaceOptions {
  mode: number;
  /** Where to copy the old file to; it stays only if the new file took its place. */
  backup?: string;
  /** Who may hold the file open, as "Close … if it has the file open" names it. */
  holder: string;
}

export function replaceFile(path: string, text: string, options: ReplaceOptions): void {
  const temporary = join(dirname(path), `.${basename(path)}.tether-${process.pid}.tmp`);
  // A backup already at that name (a run in this same second made it) is not ours to remove.
  const newBackup = options.backup !== undefined && !existsSync(options.backup) ? options.backup : undefined;
  try {
    writeFileSync(temporary, text, { mode: options.mode });
    chmodSync(temporary, options.mode);
    if (options.backup !== undefined) {
      copyFileSync(path, options.backup);
      chmodSync(options.backup, options.mode); // it may hold other servers' secrets
    }
    renameWithRetry(temporary, path);
  } catch (error) {
    removeQuietly(temporary);
    if (newBackup !== undefined) removeQuietly(newBackup);
    const code = (error as NodeJS.ErrnoException).code;
    if (typeof code !== 'string') throw error;
    throw new ExitError(
      `Could not replace ${path}: ${code}. It was left as it was. Close ${options.holder} if it has the file open, check that you may write the file and its folder, then run this again.`,
    );
  }
}

function removeQuietly(path: string): void {
  try {
    rmSync(path, { force: true });
  } catch {
    // nothing more to do: the error being reported says what failed
  }
}
