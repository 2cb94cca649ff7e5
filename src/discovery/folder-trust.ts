/**
 * Whether the folders around Tether's private files can be trusted: a file kept 0600 is only
 * as safe as the folders that hold it, since whoever may change a folder may rename, remove
 * or replace what lies in it (a planted hosts/ sends clients to a stranger's port; a planted
 * logs/ or cache/ takes what Tether writes, and a cache becomes code).
 *
 * Windows has no uids and no POSIX modes (Node reports 0o666 for every file): there Tether
 * relies on the ACLs of the user's profile directory, and no check below applies. Reading
 * ACLs is out of scope: they need a native call, and the profile's defaults are private.
 */
import { lstatSync, statSync } from 'node:fs';
import path from 'node:path';

/** The path functions the walk needs: node:path on this OS, path.win32 or path.posix in tests. */
export type PathFlavour = Pick<typeof path, 'dirname' | 'resolve'>;

/**
 * The folders above `dir`, nearest first, up to the root (`/`, `C:\`, `\\server\share\`).
 * Pure: it reads nothing, so the walk is the same on every OS for the same path flavour.
 */
export function foldersAbove(dir: string, paths: PathFlavour = path): string[] {
  const above: string[] = [];
  let current = paths.resolve(dir);
  for (let parent = paths.dirname(current); parent !== current; parent = paths.dirname(current)) {
    above.push(parent);
    current = parent;
  }
  return above;
}

/** A folder that is neither this user's nor root's, with its owner. */
export interface ForeignFolder {
  path: string;
  uid: number;
}

/**
 * The nearest existing folder above `dir` that another user owns (root excepted: it owns /,
 * /tmp and /home, and can do anything anyway). Whoever owns it may rename what Tether makes
 * inside, however private, and put their own in its place. Undefined when there is none,
 * and wherever there are no uids (Windows). A symbolic link is judged by its own owner and by
 * its target's: either could redirect it.
 */
export function foreignFolderAbove(dir: string, uid = process.getuid?.()): ForeignFolder | undefined {
  if (uid === undefined) return undefined;
  for (const folder of foldersAbove(dir)) {
    const link = lstatSync(folder, { throwIfNoEntry: false });
    if (!link) continue; // not made yet: mkdir will make it ours
    const owners = [link.uid];
    if (link.isSymbolicLink()) {
      const target = statSync(folder, { throwIfNoEntry: false });
      if (target) owners.push(target.uid);
    }
    const foreign = owners.find((owner) => owner !== uid && owner !== 0);
    if (foreign !== undefined) return { path: folder, uid: foreign };
  }
  return undefined;
}

/** What is wrong with a folder others may change, as UnsafeDirectoryError and warnings say it. */
export function describeForeignFolder(folder: ForeignFolder, uid = process.getuid?.()): string {
  return `it lies inside ${folder.path}, which belongs to another user (uid ${folder.uid}; this process runs as uid ${uid ?? '?'})`;
}
