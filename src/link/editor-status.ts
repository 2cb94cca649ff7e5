/**
 * What one editor says of itself over the host protocol (`host/status`, protocol.md §7.16):
 * its state, its connections (each front, by the agent that opened it), its calls in flight
 * with their last progress, and its calls whose outcome is unknown. Asked on a connection of
 * its own, which the answer leaves out. Never throws: what could not be read is in `error`.
 * `tether status` and the dashboard of `tether serve` both read editors through this.
 */
import type { HostRecord } from '../discovery/host-record.js';
import { HostStatusResult, METHODS, TetherError, type HostStatusCall, type HostStatusConnection } from '../protocol/index.js';
import { connectToHost } from './host-client.js';

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

export async function askEditorStatus(record: HostRecord, clientName: string, answerMs: number): Promise<EditorStatus> {
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
    session = await connectToHost({ port: record.port, host: record.host, token: record.token, clientName, timeoutMs: answerMs });
  } catch (error) {
    return { ...base, error: `did not answer: ${TetherError.from(error).message}` };
  }
  const { hello, rpc } = session;
  const known = { ...base, version: hello.host.version, state: hello.state };
  try {
    const status = HostStatusResult.parse(await rpc.request(METHODS.hostStatus, {}, { timeoutMs: answerMs }));
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
    if (failure.code === 'METHOD_NOT_FOUND')
      return { ...known, answered: true, hostStatusUnsupported: true, error: 'this editor does not report its connections and calls (no host/status: update its Tether host)' };
    return { ...known, error: `did not answer host/status: ${failure.message}` };
  } finally {
    rpc.close();
  }
}
