/**
 * Host records: how fronts find running hosts. A host writes one JSON file per instance
 * under $TETHER_HOME/hosts/ (0600, it holds the token), rewrites it when its port changes
 * and removes it on a clean exit. Readers skip, and delete, records whose process is gone,
 * and skip records they cannot trust.
 */
import { readdirSync, realpathSync, rmSync, statSync } from 'node:fs';
import { dirname, join, resolve, sep } from 'node:path';
import { z } from 'zod';
import { firstIssue } from '../protocol/index.js';
import { hostsDir } from './tether-home.js';
import { WRITABLE_BY_OTHERS, processWarnings, readPrivateFile, whyNotPrivate, writePrivateFile, type WarningLog } from './secure-file.js';

export const HostRecord = z.object({
  instanceId: z.string(),
  pid: z.number().int(),
  port: z.number().int(),
  host: z.string().default('127.0.0.1'),
  token: z.string(),
  projectPath: z.string(),
  kind: z.string(),
  name: z.string().optional(),
  protocolVersion: z.number().int(),
  startedAt: z.string(),
  /** "proof": clients prove they know the token instead of sending it (host-proof.ts). Absent: the token itself. */
  auth: z.string().optional(),
  /**
   * When the host closed its listener for a domain reload (ISO 8601); the next domain's record
   * has none. A reader whose connection is refused trusts a marked record to come back, and an
   * unmarked one (an editor that crashed, or a pid another process now has) not (protocol.md §12).
   */
  reloadingSince: z.string().optional(),
});
export type HostRecord = z.infer<typeof HostRecord>;

/** A reload's mark older than this is a host that died while reloading, whatever its pid says now. */
export const RELOAD_MARK_MAX_AGE_MS = 10 * 60_000;

/** Whether the record says its host is between two listeners for a domain reload (marked, and not long ago). */
export function markedReloading(record: HostRecord, now = Date.now()): boolean {
  if (record.reloadingSince === undefined) return false;
  const since = Date.parse(record.reloadingSince);
  return Number.isFinite(since) && now - since < RELOAD_MARK_MAX_AGE_MS;
}

export function recordPath(dir: string, instanceId: string): string {
  return join(dir, `${instanceId}.json`);
}

export function writeHostRecord(record: HostRecord, dir = hostsDir()): string {
  const path = recordPath(dir, record.instanceId);
  writePrivateFile(path, `${JSON.stringify(record, null, 2)}\n`);
  return path;
}

export function removeHostRecord(instanceId: string, dir = hostsDir()): void {
  rmSync(recordPath(dir, instanceId), { force: true });
}

export function isProcessAlive(pid: number): boolean {
  // kill(0, 0) signals our own process group and kill(-1, 0) every process we may: both succeed.
  if (!Number.isInteger(pid) || pid <= 0) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    // EPERM: the process exists but belongs to someone else.
    return (error as NodeJS.ErrnoException).code === 'EPERM';
  }
}

/** A folder holding host records that other users may change, and how. */
export interface FolderProblem {
  path: string;
  reason: string;
}

/**
 * The records folder and the TETHER_HOME that holds it, each if another user owns it or its
 * mode lets others change it (group or world write, sticky or not: a sticky folder still takes
 * strangers' files). Missing folders are fine; so is everything on Windows (see folder-trust.ts).
 */
export function recordsFolderProblems(dir: string, uid = process.getuid?.()): FolderProblem[] {
  if (uid === undefined) return [];
  const problems: FolderProblem[] = [];
  for (const folder of [dir, dirname(resolve(dir))]) {
    // Followed: a TETHER_HOME may be a link (macOS's /tmp is one); what it leads to holds the records.
    let stats;
    try {
      stats = statSync(folder, { throwIfNoEntry: false });
    } catch (error) {
      // Not a folder one can look into (a file in the way, no permission): the readers find no records there.
      problems.push({ path: folder, reason: `it cannot be read (${(error as NodeJS.ErrnoException).code ?? (error as Error).message})` });
      continue;
    }
    const reason = stats ? whyNotPrivate(stats, WRITABLE_BY_OTHERS, uid) : undefined;
    if (reason) problems.push({ path: folder, reason });
  }
  return problems;
}

/** What a reader says of each FolderProblem: what it risks, and what to do. */
export const RECORDS_FOLDER_WARNING =
  'host records folder (or the TETHER_HOME holding it) may be changed by other users, who could plant or remove records: make it yours and 0700 (chmod 700), or set TETHER_HOME to a folder of your own';

/**
 * Every live host's record; stale ones (dead pid) are deleted, unreadable ones skipped. A
 * record is read only if it is a regular file of this user's that no one else may change, and
 * never through a symbolic link: one planted by someone else would send the client, and the
 * host token it presents, to their port. Such a record is skipped with a warning, and left.
 * A records folder (or TETHER_HOME) that others may change is warned about, and still read:
 * its records pass the same checks, and refusing them would only shut this user out.
 */
export function listHostRecords(dir = hostsDir(), log: WarningLog = processWarnings): HostRecord[] {
  for (const { path, reason } of recordsFolderProblems(dir)) log.warn({ path, reason }, RECORDS_FOLDER_WARNING);
  let names: string[];
  try {
    names = readdirSync(dir);
  } catch {
    return [];
  }
  const records: HostRecord[] = [];
  for (const name of names) {
    if (!name.endsWith('.json') || name.startsWith('.')) continue;
    const path = join(dir, name);
    let parsed;
    try {
      const read = readPrivateFile(path, WRITABLE_BY_OTHERS);
      if (read.status === 'untrusted') log.warn({ path, reason: read.reason }, 'host record not trusted, so skipped');
      if (read.status !== 'read') continue;
      parsed = HostRecord.safeParse(JSON.parse(read.content.toString('utf8')));
    } catch {
      continue; // half-written by a foreign tool, or removed while we read: not ours to judge
    }
    if (!parsed.success) {
      // Whole, but not a record of this protocol: say which field, for whoever writes the host.
      const { field, message } = firstIssue(parsed.error, '(the record)');
      log.warn({ path, field, reason: message }, 'host record not understood (protocol.md §12), so skipped');
      continue;
    }
    if (!isProcessAlive(parsed.data.pid)) {
      removeStaleRecord(path, log);
      continue;
    }
    records.push(parsed.data);
  }
  return records.sort((a, b) => a.startedAt.localeCompare(b.startedAt));
}

/**
 * Deletes a record whose process is gone. One that cannot be deleted (a read-only records
 * folder, a Windows file another process holds open) is still stale: skipped all the same, and
 * said once, so that no other project's leftover keeps a front from every editor.
 */
function removeStaleRecord(path: string, log: WarningLog): void {
  try {
    rmSync(path, { force: true });
  } catch (error) {
    const { code, message } = error as NodeJS.ErrnoException;
    log.warn({ path, reason: code ?? message }, 'stale host record (its process is gone) could not be deleted, so skipped');
  }
}

/** True when `child` is `parent` or lies inside it (as folders: through symbolic links). */
export function pathContains(parent: string, child: string): boolean {
  const p = canonicalPath(parent);
  const c = canonicalPath(child);
  return c === p || c.startsWith(p.endsWith(sep) ? p : p + sep);
}

/**
 * The path with symbolic links resolved when it exists (/tmp on macOS is /private/tmp), so
 * that one folder named two ways compares equal; else simply made absolute.
 */
export function canonicalPath(path: string): string {
  try {
    return realpathSync.native(path);
  } catch {
    return resolve(path);
  }
}
