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
import { canonicalPath, isProcessAlive, listHostRecords, pathContains, type HostRecord } from '../../discovery/host-record.js';
import { hostsDir } from '../../discovery/tether-home.js';
import { connectToHost } from '../../link/host-client.js';
import { HostStatusResult, METHODS, TetherError, type HostStatusCall, type HostStatusConnection } from '../../protocol/index.js';

/** How long one editor, or tether serve, may take to answer. */
const ANSWER_MS = 3_000;
/** The name tether status gives in its hello; its own connection is left out of what it shows. */
export const STATUS_CLIENT_NAME = 'tether-status';

export interface EditorStatus {
  instanceId: string;
  project: string;
  kind: string;
  name?: string;
  version?: string;
  pid: number;
  port: number;
  /** When the editor's host started listening (its record's startedAt). */
  startedAt: string;
  state?: string;
  /** When it entered `state` (epoch ms). */
  since?: number;
  /** False when the editor could not be reached or did not answer. */
  answered: boolean;
  /** Why it did not answer; or, when it answered, that it has no host/status. */
  error?: string;
  /** The editor answered but does not implement host/status (an older host). */
  hostStatusUnsupported?: boolean;
  connections: HostStatusConnection[];
  calls: HostStatusCall[];
  unknownOutcomes: HostStatusCall[];
  omitted?: HostStatusResult['omitted'];
}

export interface ServeReport {
  url: string;
  pid: number;
  answered: boolean;
  error?: string;
  status?: ServeStatus;
}

export interface StatusReport {
  at: number;
  editors: EditorStatus[];
  /** Null when no tether serve runs for this $TETHER_HOME. */
  serve: ServeReport | null;
}

export async function gatherStatus(home: string, project?: string): Promise<StatusReport> {
  const wanted = project ? canonicalPath(project) : undefined;
  const records = listHostRecords(hostsDir(home)).filter((r) => !wanted || pathContains(wanted, canonicalPath(r.projectPath)) || pathContains(canonicalPath(r.projectPath), wanted));
  const [editors, serve] = await Promise.all([Promise.all(records.map(editorStatus)), serveReport(home)]);
  return { at: Date.now(), editors, serve };
}

/** Whether everything was read: every editor and tether serve (if it runs) answered. */
export function readEverything(report: StatusReport): boolean {
  return report.editors.every((e) => e.answered) && (report.serve === null || report.serve.answered);
}

async function editorStatus(record: HostRecord): Promise<EditorStatus> {
  const base: EditorStatus = {
    instanceId: record.instanceId,
    project: record.projectPath,
    kind: record.kind,
    ...(record.name ? { name: record.name } : {}),
    pid: record.pid,
    port: record.port,
    startedAt: record.startedAt,
    answered: false,
    connections: [],
    calls: [],
    unknownOutcomes: [],
  };
  let session;
  try {
    session = await connectToHost({ port: record.port, host: record.host, token: record.token, clientName: STATUS_CLIENT_NAME, timeoutMs: ANSWER_MS });
  } catch (error) {
    return { ...base, error: `did not answer: ${TetherError.from(error).message}` };
  }
  const { hello, rpc } = session;
  const known = { ...base, version: hello.host.version, state: hello.state };
  try {
    const status = HostStatusResult.parse(await rpc.request(METHODS.hostStatus, {}, { timeoutMs: ANSWER_MS }));
    return {
      ...known,
      state: status.state,
      since: status.since,
      answered: true,
      connections: status.connections.filter((c) => c.connectionId !== hello.connectionId),
      calls: status.calls,
      unknownOutcomes: status.unknownOutcomes,
      ...(status.omitted ? { omitted: status.omitted } : {}),
    };
  } catch (error) {
    const failure = TetherError.from(error);
    // An older host: it answered, it just cannot say more than its hello did.
    if (failure.code === 'METHOD_NOT_FOUND') return { ...known, answered: true, hostStatusUnsupported: true, error: 'this editor does not report its connections and calls (no host/status: update its Tether host)' };
    return { ...known, error: `did not answer host/status: ${failure.message}` };
  } finally {
    rpc.close();
  }
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
