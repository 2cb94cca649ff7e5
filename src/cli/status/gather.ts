/**
 * What `tether status` reads: every running editor from its host record, asked over the host
 * protocol (`host/status`, protocol.md §7.16) for its connections and calls; and `tether
 * serve`, from $TETHER_HOME/serve.json, asked over HTTP (GET /status) for its sessions.
 * Nothing here fails: what could not be read is said in the report (`error`), and the
 * command's exit code counts it.
 */
import { serveStatePath } from '../../http/serve-state.js';
import type { ServeStatus } from '../../http/status-endpoint.js';
import { OPEN_TO_OTHERS, readPrivateFile } from '../../discovery/secure-file.js';
import { canonicalPath, isProcessAlive, listHostRecords, pathContains } from '../../discovery/host-record.js';
import { hostsDir } from '../../discovery/tether-home.js';
import { askEditorStatus, type EditorStatus } from '../../link/editor-status.js';

export type { EditorStatus };

/** How long one editor, or tether serve, may take to answer. */
const ANSWER_MS = 3_000;
/** The name tether status gives in its hello; its own connection is left out of what it shows. */
export const STATUS_CLIENT_NAME = 'tether-status';

export interface ServeReport {
  url: string;
  pid: number;
  answered: boolean;
  error?: string;
  status?: ServeStatus;
}

export interface StatusReport {
  at: number;
  /** The project --project named, when it named one: `editors` are only its editor's. */
  project?: string;
  editors: EditorStatus[];
  /** With --project: how many editors run for other projects, left out of `editors`. */
  otherEditors?: number;
  /** Null when no tether serve runs for this $TETHER_HOME. */
  serve: ServeReport | null;
}

export async function gatherStatus(home: string, project?: string): Promise<StatusReport> {
  const wanted = project ? canonicalPath(project) : undefined;
  const all = listHostRecords(hostsDir(home));
  const records = all.filter((r) => !wanted || pathContains(wanted, canonicalPath(r.projectPath)) || pathContains(canonicalPath(r.projectPath), wanted));
  const [editors, serve] = await Promise.all([Promise.all(records.map((record) => askEditorStatus(record, STATUS_CLIENT_NAME, ANSWER_MS))), serveReport(home)]);
  // What was asked for, and what was left out of the answer: "no editor" is only for that project.
  const filter = wanted ? { project: wanted, otherEditors: all.length - records.length } : {};
  return { at: Date.now(), ...filter, editors, serve };
}

/** Whether everything was read: every editor and tether serve (if it runs) answered. */
export function readEverything(report: StatusReport): boolean {
  return report.editors.every((e) => e.answered) && (report.serve === null || report.serve.answered);
}

async function serveReport(home: string): Promise<ServeReport | null> {
  const read = readPrivateFile(serveStatePath(home), OPEN_TO_OTHERS);
  if (read.status !== 'read') return null;
  let state: { url?: unknown; token?: unknown; pid?: unknown };
  try {
    state = JSON.parse(read.content.toString('utf8')) as typeof state;
  } catch {
    return null;
  }
  if (typeof state.url !== 'string' || typeof state.token !== 'string' || typeof state.pid !== 'number' || !isProcessAlive(state.pid)) return null;
  const report = { url: state.url, pid: state.pid };
  try {
    const response = await fetch(new URL('/status', state.url), { headers: { authorization: `Bearer ${state.token}` }, signal: AbortSignal.timeout(ANSWER_MS) });
    if (!response.ok) return { ...report, answered: false, error: `GET /status answered ${response.status}${response.status === 404 ? ' (a tether serve without /status: update it)' : ''}` };
    return { ...report, answered: true, status: (await response.json()) as ServeStatus };
  } catch (error) {
    return { ...report, answered: false, error: `did not answer: ${(error as Error).message}` };
  }
}
