/**
 * The incidents Tether exists to make impossible (docs/incidents.md), as scenarios with their
 * durations as parameters: `npm test` runs them time-scaled, `npm run test:slow` at real durations.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect } from 'vitest';
import { connectMcp, textOf } from '../helpers/mcp-client.js';
import { startSandbox, type Workspace } from '../helpers/processes.js';
import { TcpProxy } from '../helpers/tcp-proxy.js';

export function buildLog(workspace: Workspace): Array<{ callId: string; status: string }> {
  try {
    return readFileSync(join(workspace.project, 'Library', 'Builds', 'build-log.jsonl'), 'utf8')
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { callId: string; status: string });
  } catch {
    return [];
  }
}

const proxies: TcpProxy[] = [];
export async function closeProxies(): Promise<void> {
  await Promise.all(proxies.splice(0).map((p) => p.close()));
}

export interface IncidentOneTiming {
  buildMs: number;
  frameTimeoutMs: number;
  resendEveryMs: number;
  dropAtMs: number;
  heartbeatMs: number;
}

/**
 * Incident 1: a menu item ran a 6-minute build six times. Here build_player blocks longer
 * than the host's frame I/O timeout, the client sends the same call again and again while it
 * runs, and the link is cut once mid-build. Exactly one build may run, and every request
 * still waiting gets that build's result.
 */
export async function incidentOne(workspace: Workspace, t: IncidentOneTiming): Promise<void> {
  const { ready } = await startSandbox(workspace, ['--build-seconds', String(t.buildMs / 1000), '--frame-timeout-ms', String(t.frameTimeoutMs), '--heartbeat-ms', String(t.heartbeatMs)]);
  const proxy = await TcpProxy.start(ready.port);
  proxies.push(proxy);
  proxy.routeRecord(join(workspace.home, 'hosts'), ready.instanceId);
  const { client } = await connectMcp(workspace);

  const started = Date.now();
  const requests: Array<Promise<unknown>> = [];
  // Every re-send goes out while the build runs: an identical call is shared only while one is
  // in flight, and one that reached the editor after the build finished (before the client had
  // heard) would rightly be a new build. The count is the one asserted below.
  const sends = Math.floor(t.buildMs / t.resendEveryMs);
  const send = (): void => {
    if (requests.length >= sends) return clearInterval(resender);
    requests.push(client.callTool({ name: 'build_player', arguments: { target: 'Android' } }, { timeout: t.buildMs * 4, onprogress: () => undefined }));
  };
  const resender = setInterval(send, t.resendEveryMs);
  send();
  let dropped = 0;
  const dropper = setTimeout(() => (dropped = proxy.dropAll()), t.dropAtMs);
  try {
    const first = await requests[0];
    clearInterval(resender);
    const results = await Promise.all(requests);
    expect(Date.now() - started).toBeGreaterThanOrEqual(t.buildMs);
    expect(requests.length).toBeGreaterThanOrEqual(Math.floor(t.buildMs / t.resendEveryMs));
    for (const result of results) {
      expect((result as { isError?: boolean }).isError, textOf(result as { content?: unknown })).toBeFalsy();
      expect((result as { structuredContent: unknown }).structuredContent).toEqual((first as { structuredContent: unknown }).structuredContent);
    }
    expect(dropped).toBeGreaterThan(0); // the link really was cut mid-build…
    expect(proxy.connections).toBeGreaterThanOrEqual(2); // …and made again
    const builds = buildLog(workspace);
    expect(builds).toHaveLength(1);
    expect(builds[0]!.status).toBe('succeeded');
  } finally {
    clearInterval(resender);
    clearTimeout(dropper);
  }
}

/**
 * The keepalive promise: an SDK client with a short request timeout that resets on progress
 * stays with a build much longer than that timeout, and gets its result.
 */
export async function progressKeepsClientAlive(workspace: Workspace, t: { buildMs: number; requestTimeoutMs: number; heartbeatMs?: number }): Promise<void> {
  await startSandbox(workspace, ['--build-seconds', String(t.buildMs / 1000), ...(t.heartbeatMs ? ['--heartbeat-ms', String(t.heartbeatMs)] : [])]);
  const { client } = await connectMcp(workspace);
  // A first call pays for reaching the editor and loading the schema checker: what is timed
  // here is how progress flows during a call, not how long a cold front takes to start one.
  await client.callTool({ name: 'get_hierarchy', arguments: {} });
  const gaps: number[] = [];
  let last = Date.now();
  const result = await client.callTool(
    { name: 'build_player', arguments: {} },
    {
      timeout: t.requestTimeoutMs,
      resetTimeoutOnProgress: true,
      onprogress: () => {
        gaps.push(Date.now() - last);
        last = Date.now();
      },
    },
  );
  expect(result.isError, textOf(result)).toBeFalsy();
  // Progress came, and never with a gap the client's timeout would have ended the call in.
  expect(gaps.length).toBeGreaterThan(0);
  expect(Math.max(...gaps)).toBeLessThan(t.requestTimeoutMs);
  expect(buildLog(workspace)).toHaveLength(1);
}
