/**
 * Finding the host under test through its record ($TETHER_HOME/hosts/*.json), and finding it
 * again after a domain reload, when its listener comes back (possibly on another port).
 */
import { resolve } from 'node:path';
import { setTimeout as delay } from 'node:timers/promises';
import { hostsDir } from '../discovery/tether-home.js';
import { listHostRecords, pathContains, type HostRecord } from '../discovery/host-record.js';
import { connectToHost } from '../link/host-client.js';
import type { HelloResult } from '../protocol/index.js';
import { CheckFailure, HostNotFoundError } from './errors.js';

/** How long a host may stay away during a reload before the suite gives up on it. */
export const HOST_BACK_TIMEOUT_MS = 30_000;
const RETRY_EVERY_MS = 100;

/** The host under test: where to reach it and the token to present. */
export class HostTarget {
  constructor(
    public record: HostRecord,
    readonly recordsDir: string,
  ) {}

  get port(): number {
    return this.record.port;
  }

  get token(): string {
    return this.record.token;
  }

  get address(): string {
    return this.record.host;
  }

  /**
   * Polls the record and the port until a handshake succeeds (bounded). Polling is the only
   * way: a host that is away can send nothing, and the record keeps its old port meanwhile.
   */
  async waitUntilBack(timeoutMs = HOST_BACK_TIMEOUT_MS): Promise<HelloResult> {
    const deadline = Date.now() + timeoutMs;
    let lastProblem = 'no host record';
    while (Date.now() < deadline) {
      const record = this.findAgain();
      if (record) {
        try {
          const session = await connectToHost({ port: record.port, host: record.host, token: record.token, clientName: 'tether-conformance', timeoutMs: 2_000 });
          session.rpc.close();
          this.record = record;
          return session.hello;
        } catch (error) {
          lastProblem = error instanceof Error ? error.message : String(error);
        }
      }
      await delay(RETRY_EVERY_MS);
    }
    throw new CheckFailure(`the host did not accept a handshake again within ${timeoutMs} ms (last: ${lastProblem})`);
  }

  /** The same editor instance if it still advertises itself, else any host of the same project. */
  private findAgain(): HostRecord | undefined {
    const records = listHostRecords(this.recordsDir);
    return records.find((r) => r.instanceId === this.record.instanceId) ?? pickForProject(records, this.record.projectPath);
  }
}

/** The live host whose project contains (or is) `project`; throws a message listing the running hosts otherwise. */
export function findHost(project: string, recordsDir = hostsDir()): HostTarget {
  const records = listHostRecords(recordsDir);
  const record = pickForProject(records, project);
  if (record) return new HostTarget(record, recordsDir);
  const wanted = resolve(project);
  if (records.length === 0) {
    throw new HostNotFoundError(`No running host serves ${wanted}: no host records in ${recordsDir}. Start the editor (sandbox: tether sandbox --project DIR --conformance-kit) and try again.`);
  }
  const running = records.map((r) => `  ${r.kind}\t${r.name ?? ''}\tpid ${r.pid}\tport ${r.port}\t${r.projectPath}`).join('\n');
  throw new HostNotFoundError(`No running host serves ${wanted}. Running hosts:\n${running}\nPass --project with one of these project paths.`);
}

/** The most specific match (a nested project wins over its parent), the most recently started first. */
function pickForProject(records: HostRecord[], project: string): HostRecord | undefined {
  const matches = records.filter((r) => pathContains(r.projectPath, project));
  matches.sort((a, b) => b.projectPath.length - a.projectPath.length || b.startedAt.localeCompare(a.startedAt));
  return matches[0];
}
