/**
 * One editor per project, as Unity enforces with its Temp/UnityLockfile: a second sandbox on
 * a project already open would answer calls against its own copy of the scene while the
 * first kept answering with its own, and both would write the one call journal. The lock
 * names the process holding it; one whose process is gone (a crash) is taken over.
 *
 * The lock appears whole or not at all (written aside, then hard-linked into place, which
 * fails if one is there). A stale one is taken over by one editor alone: the one that claims
 * it first (see takeOver), so of several editors starting at once exactly one gets it.
 */
import { randomBytes } from 'node:crypto';
import { linkSync, mkdirSync, readFileSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { isProcessAlive } from '../discovery/host-record.js';
import { readStatFields } from '../discovery/proc-stat.js';
import type { Project } from './project.js';

export class ProjectInUseError extends Error {
  override readonly name = 'ProjectInUseError';
  readonly code = 'PROJECT_IN_USE';

  constructor(
    readonly project: string,
    readonly pid: number | undefined,
    readonly lockPath: string,
  ) {
    super(
      `Another editor${pid === undefined ? '' : ` (process ${pid})`} has ${project} open; one project is opened by one editor at a time. ` +
        `Quit that one, or open another project. If no editor runs on it, delete ${lockPath}.`,
    );
  }
}

interface Holder {
  pid: number;
  /** When the process started (Linux: clock ticks since boot), so a reused pid is not taken for it. */
  since?: string;
}

export function lockPathOf(project: Project): string {
  return join(project.root, 'Temp', 'TetherEditorLock');
}

/** Takes the project's lock or throws ProjectInUseError; returns the release. */
export function lockProject(project: Project): () => void {
  const path = lockPathOf(project);
  const temp = join(project.root, 'Temp', `.TetherEditorLock.${randomBytes(6).toString('hex')}`);
  mkdirSync(join(project.root, 'Temp'), { recursive: true });
  const me: Holder = { pid: process.pid, ...optional('since', startTimeOf(process.pid)) };
  writeFileSync(temp, JSON.stringify(me), { mode: 0o600 });
  try {
    // Twice at most: once more after moving away a lock its process left behind.
    for (let attempt = 0; attempt < 2; attempt++) {
      try {
        linkSync(temp, path);
        return () => {
          if (holderOf(path)?.pid === process.pid) rmSync(path, { force: true });
        };
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
      }
      const holder = holderOf(path);
      // Unreadable: being written by an older release, or damaged; only one that names a dead process is taken over.
      if (holder === undefined || isRunning(holder)) throw new ProjectInUseError(project.root, holder?.pid, path);
      takeOver(path, holder);
    }
    throw new ProjectInUseError(project.root, holderOf(path)?.pid, path);
  } finally {
    rmSync(temp, { force: true });
  }
}

/**
 * Removes a stale lock, if this editor is the first to claim it. The claim is a hard link to
 * the lock under a name of the stale holder's own, which only one editor can create: so only
 * one ever removes it, and nothing can have put a fresh lock in its place meanwhile (only a
 * claimant removes a stale lock). Moving the lock away instead, as this once did, let one
 * editor move another's fresh lock aside, and a third take the free place: two got it.
 * Whether this editor then gets the lock is for its next attempt (another may link first).
 */
function takeOver(path: string, stale: Holder): void {
  const claim = `${path}.takeover-${stale.pid}-${stale.since ?? ''}`;
  try {
    linkSync(path, claim);
  } catch (error) {
    const { code } = error as NodeJS.ErrnoException;
    // Claimed by another editor (whose lock the next attempt meets), unless that editor died claiming it.
    if (code === 'EEXIST' && claimedLongAgo(claim)) rmSync(claim, { force: true });
    else if (code !== 'EEXIST' && code !== 'ENOENT') throw error;
    return;
  }
  try {
    // The claim is of what the path held a moment ago: the stale lock, or a fresh one that replaced it since.
    const claimed = holderOf(claim);
    if (claimed?.pid === stale.pid && claimed.since === stale.since) rmSync(path, { force: true });
  } finally {
    rmSync(claim, { force: true });
  }
}

/** A claim is made and let go within moments; one older than this was left by an editor that died making it. */
const CLAIM_EXPIRES_MS = 10_000;

function claimedLongAgo(claim: string): boolean {
  try {
    return Date.now() - statSync(claim).ctimeMs > CLAIM_EXPIRES_MS;
  } catch {
    return false;
  }
}

function holderOf(path: string): Holder | undefined {
  try {
    const { pid, since } = JSON.parse(readFileSync(path, 'utf8')) as { pid?: unknown; since?: unknown };
    return Number.isInteger(pid) ? { pid: pid as number, ...optional('since', typeof since === 'string' ? since : undefined) } : undefined;
  } catch {
    return undefined;
  }
}

/** Alive, the same process that took the lock (not a reused pid), and not a zombie its parent has yet to reap. */
function isRunning(holder: Holder): boolean {
  if (!isProcessAlive(holder.pid)) return false;
  const stat = procStat(holder.pid);
  if (stat === undefined) return true; // no /proc (macOS, Windows): the signal test is what there is
  if (stat.state === 'Z') return false;
  return holder.since === undefined || holder.since === stat.since;
}

function startTimeOf(pid: number): string | undefined {
  return procStat(pid)?.since;
}

/** State and start time from /proc/<pid>/stat (fields 3 and 22). */
function procStat(pid: number): { state: string; since: string } | undefined {
  const fields = readStatFields(pid);
  return fields && { state: fields[0] ?? '', since: fields[19] ?? '' };
}

function optional<K extends string, V>(key: K, value: V | undefined): Partial<Record<K, V>> {
  return value === undefined ? {} : ({ [key]: value } as Record<K, V>);
}
