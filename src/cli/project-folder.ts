/**
 * What `--project DIR` may name, checked when a command starts, so that a typo is an error
 * at once (exit 2, the reason on stderr) rather than a front that looks healthy and waits for
 * an editor that can never come.
 *
 * A project is a folder that exists and either holds the project of an editor Tether knows
 * (a Unity project: ProjectSettings/ProjectVersion.txt; a sandbox project: Assets/, see
 * src/sandbox/project.ts; a project some Tether host has opened: Library/Tether/) or has a
 * host record (an editor of any other kind running for it now).
 */
import { existsSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { canonicalPath, listHostRecords } from '../discovery/host-record.js';
import { hostsDir } from '../discovery/tether-home.js';
import { ExitError } from './exit-error.js';

const USAGE = 2;

/** A Unity project: every one has ProjectSettings/ProjectVersion.txt (Unity writes it on first open). */
export function isUnityProject(dir: string): boolean {
  return existsSync(join(dir, 'ProjectSettings', 'ProjectVersion.txt'));
}

function existingFolder(dir: string, what: string): string {
  const path = resolve(dir);
  if (!existsSync(path)) throw new ExitError(`Project folder ${path} does not exist. Create it or pass another --project.`, USAGE);
  if (!statSync(path).isDirectory()) throw new ExitError(`${path} is a file, not a project folder. Pass ${what} with --project.`, USAGE);
  return path;
}

/**
 * The folder the sandbox editor may open: an existing folder that is not a Unity project.
 * The sandbox writes its scene, Library/ and Temp/ into its project, and a Unity project's
 * belong to Unity.
 */
export function sandboxProjectFolder(dir: string): string {
  const path = existingFolder(dir, 'the folder that holds Assets/');
  if (isUnityProject(path)) {
    throw new ExitError(
      `${path} is a Unity project (it has ProjectSettings/ProjectVersion.txt): Unity opens it, with the Tether package installed (\`tether setup unity --project ${path}\`). ` +
        'The sandbox editor would write its own scene, Library/ and Temp/ into it, so it refuses; give it a folder of its own (an empty one will do).',
      USAGE,
    );
  }
  return path;
}

/** The project a front (`tether mcp --project`) serves: one of an editor Tether knows, or one with a host record. */
export function servedProjectFolder(dir: string, recordsDir = hostsDir()): string {
  const path = existingFolder(dir, 'the project folder (a Unity project: the one with ProjectSettings/ProjectVersion.txt)');
  const known = isUnityProject(path) || isDirectory(join(path, 'Assets')) || isDirectory(join(path, 'Library', 'Tether'));
  if (known) return path;
  const canonical = canonicalPath(path);
  if (listHostRecords(recordsDir).some((record) => canonicalPath(record.projectPath) === canonical)) return path;
  throw new ExitError(
    `${path} is not a project: it has no ProjectSettings/ProjectVersion.txt (Unity), no Assets/ (sandbox) and no Library/Tether/, and no editor is running for it. ` +
      'Pass the folder Unity opens (the one with Assets/ and ProjectSettings/), or start its editor first.',
    USAGE,
  );
}

function isDirectory(path: string): boolean {
  try {
    return statSync(path).isDirectory();
  } catch {
    return false;
  }
}
