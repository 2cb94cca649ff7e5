/**
 * One editor per project, as Unity enforces with its Temp/UnityLockfile: a second sandbox on
 * a project already open would answer calls against its own copy of the scene while the
 * first kept answering with its own, and clients would reach whichever they found first.
 * The lock names the process holding it; one whose process is gone (a crash) is taken over.
 */
import { closeSync, mkdirSync, openSync, readFileSync, rmSync, writeSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../discovery/host-record.js';
import type { Project } from './project.js';

export class ProjectInUseError extends Error {
  override readonly name = 'ProjectInUseError';
  readonly code = 'PROJECT_IN_USE';

  constructor(
    readonly project: string,
    readonly pid: number,
    readonly lockPath: string,
  ) {
    super(
      `Another editor (process ${pid}) has ${project} open; one project is opened by one editor at a time. ` +
        `Quit that one, or open another project. If no editor runs on it, delete ${lockPath}.`,
    );
  }
}

export function lockPathOf(project: Project): string {
  return join(project.root, 'Temp', 'TetherEditorLock');
}

/** Takes the project's lock or throws ProjectInUseError; returns the release. */
export function lockProject(project: Project): () => void {
  const path = lockPathOf(project);
  mkdirSync(join(project.root, 'Temp'), { recursive: true });
  // Twice at most: once more after clearing a lock its process left behind.
  for (let attempt = 0; attempt < 2; attempt++) {
    try {
      const fd = openSync(path, 'wx', 0o600);
      try {
        writeSync(fd, JSON.stringify({ pid: process.pid }));
      } finally {
        closeSync(fd);
      }
      return () => {
        if (holderOf(path) === process.pid) rmSync(path, { force: true });
      };
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    }
    const holder = holderOf(path);
    if (holder !== undefined && holder !== process.pid && isRunning(holder)) throw new ProjectInUseError(project.root, holder, path);
    rmSync(path, { force: true });
  }
  throw new ProjectInUseError(project.root, holderOf(path) ?? 0, path);
}

function holderOf(path: string): number | undefined {
  try {
    const { pid } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown };
    return Number.isInteger(pid) ? (pid as number) : undefined;
  } catch {
    return undefined; // unreadable or half-written: no one's
  }
}

/** Alive and not a zombie (a killed editor its parent has not reaped yet holds nothing). */
function isRunning(pid: number): boolean {
  if (!isProcessAlive(pid)) return false;
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    return stat.slice(stat.lastIndexOf(')') + 2, stat.lastIndexOf(')') + 3) !== 'Z';
  } catch {
    return true; // no /proc (macOS, Windows): the signal test is what there is
  }
}
