/**
 * Files that hold secrets (tokens): created 0600 in 0700 directories, replaced atomically, and
 * trusted only while they still are private: what another user owns or may change, or what a
 * symbolic link points at, is never read as ours.
 *
 * Windows has no uids and no POSIX modes (Node reports 0o666 for every file): there Tether
 * relies on the ACLs of the user's profile directory, as it always has, and no check applies.
 */
import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, constants, fstatSync, lstatSync, mkdirSync, openSync, readFileSync, readlinkSync, rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { describeForeignFolder, foreignFolderAbove } from './folder-trust.js';
import { renameWithRetry } from './rename-with-retry.js';

/** Mode bits that let other users change a file: what must stay clear for code and records. */
export const WRITABLE_BY_OTHERS = 0o022;
/** Mode bits that let other users read or change a file: what must stay clear for a secret. */
export const OPEN_TO_OTHERS = 0o077;

/** The part of fs.Stats that says whose a file is. */
export interface Ownership {
  uid: number;
  mode: number;
}

/**
 * Why a file with these stats cannot be trusted as this user's: another user owns it, or its
 * mode gives other users any of `bits`. Undefined when it can be, and wherever there are no
 * uids (Windows).
 */
export function whyNotPrivate(stats: Ownership, bits: number, uid = process.getuid?.()): string | undefined {
  if (uid === undefined) return undefined;
  if (stats.uid !== uid) return `it belongs to another user (uid ${stats.uid}; this process runs as uid ${uid})`;
  const open = stats.mode & bits;
  if (open === 0) return undefined;
  const may = [open & 0o044 ? 'read' : '', open & 0o022 ? 'change' : ''].filter(Boolean).join(' and ') || 'enter';
  return `its mode ${(stats.mode & 0o777).toString(8).padStart(4, '0')} lets other users ${may} it`;
}

/** The mode bit of a directory shared by design (/tmp): anyone may add to it. */
const STICKY = 0o1000;

/** A private directory that Tether will not use: what is wrong with it, and what to do. */
export class UnsafeDirectoryError extends Error {
  override readonly name = 'UnsafeDirectoryError';
  readonly code = 'UNSAFE_DIRECTORY';

  constructor(
    readonly path: string,
    readonly problem: string,
    remedy = 'Remove it (Tether recreates it, 0700), or set TETHER_HOME to a directory of your own (for example one made by `mktemp -d`).',
  ) {
    super(`Refusing to use ${path}: ${problem}. Tether keeps tokens and other private state there, so it must be a real directory that only you own and use. ${remedy}`);
  }
}

/**
 * Makes `dir` (0700) or checks the one there: one of this user's with wider permissions is
 * tightened to 0700; a symbolic link, a directory another user owns, or one inside a folder
 * another user owns (a TETHER_HOME of someone else's: its logs/ and cache/ would be theirs to
 * swap) throws UnsafeDirectoryError before anything is made, since whoever controls it could
 * plant or read what is put in it.
 */
export function ensurePrivateDir(dir: string): void {
  const uid = process.getuid?.();
  if (uid === undefined) {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
    return;
  }
  const above = foreignFolderAbove(dir, uid);
  if (above) {
    throw new UnsafeDirectoryError(
      dir,
      describeForeignFolder(above, uid),
      `Whoever owns it could rename what Tether writes there and put their own in its place, so nothing was written. Set TETHER_HOME to a directory of your own (for example one made by \`mktemp -d\`), or ask the owner of ${above.path} to give it to you.`,
    );
  }
  try {
    mkdirSync(dir, { recursive: true, mode: 0o700 });
  } catch (error) {
    // A dangling symbolic link fails here (ENOENT): say below what it is.
    if (!lstatSync(dir, { throwIfNoEntry: false })?.isSymbolicLink()) throw error;
  }
  const stats = lstatSync(dir);
  if (stats.isSymbolicLink()) throw new UnsafeDirectoryError(dir, `it is a symbolic link (to ${readlinkSync(dir)})`);
  const foreign = whyNotPrivate(stats, 0, uid); // only the owner: a mode of ours we can fix
  if (foreign) throw new UnsafeDirectoryError(dir, foreign);
  // A sticky directory is shared by design (/tmp, run as root, is "ours"): never narrowed.
  if ((stats.mode & STICKY) !== 0) {
    throw new UnsafeDirectoryError(
      dir,
      `it is a directory shared with every user (mode ${(stats.mode & 0o7777).toString(8)}, like /tmp), which Tether will not make private`,
      "Give Tether a directory of its own inside it instead (TETHER_HOME, or the host's recordsDir).",
    );
  }
  if ((stats.mode & OPEN_TO_OTHERS) !== 0) chmodSync(dir, 0o700);
}

/**
 * Writes the file so that no reader ever sees it half-written or with wider permissions. The
 * rename over the old file is retried while Windows refuses it a moment (renameWithRetry).
 */
export function writePrivateFile(path: string, content: string | Uint8Array): void {
  const dir = dirname(path);
  ensurePrivateDir(dir);
  const temp = join(dir, `.${randomBytes(6).toString('hex')}.tmp`);
  try {
    writeFileSync(temp, content, { mode: 0o600 });
    renameWithRetry(temp, path);
  } catch (error) {
    rmSync(temp, { force: true });
    throw error;
  }
}

/** What readPrivateFile found: the content, no file, or why the file there is not trusted. */
export type PrivateFileRead = { status: 'read'; content: Buffer } | { status: 'missing' } | { status: 'untrusted'; reason: string };

// Absent on Windows, where they have no equivalent.
const NO_FOLLOW = constants.O_NOFOLLOW ?? 0;
const NO_BLOCK = constants.O_NONBLOCK ?? 0; // a FIFO put in the file's place must not hang the read

/**
 * Reads `path` only if it is a regular file of this user's that others cannot `bits` (see
 * WRITABLE_BY_OTHERS, OPEN_TO_OTHERS): never through a symbolic link, and checked on the open
 * descriptor, so the file read is the file checked.
 */
export function readPrivateFile(path: string, bits: number): PrivateFileRead {
  let fd: number;
  try {
    fd = openSync(path, constants.O_RDONLY | NO_FOLLOW | NO_BLOCK);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    if (code === 'ENOENT') return { status: 'missing' };
    // ELOOP (EMLINK on FreeBSD): the last component is a symbolic link.
    if (code === 'ELOOP' || code === 'EMLINK') return { status: 'untrusted', reason: 'it is a symbolic link' };
    if (code === 'EACCES' || code === 'EPERM') return { status: 'untrusted', reason: 'this user may not read it' };
    throw error;
  }
  try {
    const stats = fstatSync(fd);
    if (!stats.isFile()) return { status: 'untrusted', reason: 'it is not a regular file' };
    const reason = whyNotPrivate(stats, bits);
    return reason ? { status: 'untrusted', reason } : { status: 'read', content: readFileSync(fd) };
  } finally {
    closeSync(fd);
  }
}

/** Where Tether says what it refused to trust; a pino logger is one. */
export interface WarningLog {
  warn(data: Record<string, unknown>, message: string): void;
}

const warned = new Set<string>();

/** The default WarningLog: a Node process warning, once per message and data (records are polled). */
export const processWarnings: WarningLog = {
  warn(data, message) {
    const text = `${message} ${JSON.stringify(data)}`;
    if (warned.has(text)) return;
    if (warned.size >= 256) warned.clear();
    warned.add(text);
    process.emitWarning(text, { code: 'TETHER_UNTRUSTED_FILE' });
  },
};
