/**
 * Which host a front talks to: the one for --project; else the one whose project contains the
 * working directory; else the only one running; else a clear error listing the candidates.
 * (Once connected, a link without --project stays with that host's project: host-link.ts.)
 */
import { resolve } from 'node:path';
import { TetherError } from '../protocol/index.js';
import { canonicalPath, pathContains, type HostRecord } from '../discovery/host-record.js';

export interface Selection {
  project?: string;
  cwd?: string;
}

export function selectHost(records: HostRecord[], { project, cwd = process.cwd() }: Selection): HostRecord {
  if (project) {
    const wanted = resolve(project);
    const canonical = canonicalPath(wanted);
    const matching = records.filter((r) => canonicalPath(r.projectPath) === canonical);
    const found = matching.at(-1); // the newest, should a stale one linger
    if (found) return found;
    throw new TetherError(
      'HOST_NOT_FOUND',
      `No editor is running for project ${wanted}. Start it (for the sandbox: \`tether sandbox --project ${wanted}\`; for Unity: open the project with the Tether package installed).${listing(records)}`,
      { project: wanted, running: summary(records) },
    );
  }
  const containing = records.filter((r) => pathContains(r.projectPath, cwd));
  if (containing.length > 0) {
    // The innermost project wins when projects nest; of its records (oldest first), the newest,
    // as for --project: a crashed editor's record whose pid another process now has must not
    // hide the editor restarted for the same project.
    const depths = containing.map((r) => canonicalPath(r.projectPath).length);
    const innermost = Math.max(...depths);
    return containing.filter((_, i) => depths[i] === innermost).at(-1) as HostRecord;
  }
  if (records.length === 1) return records[0] as HostRecord;
  if (records.length === 0) {
    throw new TetherError('HOST_NOT_FOUND', 'No editor is running. Start one (`npm start` runs the sandbox editor) or pass --project DIR for the project you mean.', {
      running: [],
    });
  }
  throw new TetherError('HOST_AMBIGUOUS', `Several editors are running; pass --project DIR to choose one.${listing(records)}`, { running: summary(records) });
}

function summary(records: HostRecord[]): Array<Pick<HostRecord, 'kind' | 'projectPath' | 'pid' | 'port'>> {
  return records.map(({ kind, projectPath, pid, port }) => ({ kind, projectPath, pid, port }));
}

function listing(records: HostRecord[]): string {
  if (records.length === 0) return ' No editor is running at all.';
  return ` Running: ${records.map((r) => `${r.kind} for ${r.projectPath} (pid ${r.pid})`).join('; ')}.`;
}
