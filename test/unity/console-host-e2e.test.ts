/**
 * End to end against the C# console host (the Unity package's Core without Unity): the real
 * `tether mcp` and `tether serve`, driven by the official MCP SDK client, and `tether call`.
 * Tools listed and called; a host killed mid-call and restarted (the call's outcome is
 * reported as unknown, never as success, and a keyed call is not counted twice); a simulated
 * domain reload; eviction. Side effects are counted on the host's disk (the kit's counters,
 * its journal); the tests wait on the host's events, progress and files, never on sleeps.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { KIT } from '../../src/conformance/index.js';
import { callIdForKey } from '../../src/mcp/request-meta.js';
import { journalLines, journalStates, kitCounters, startConsoleHost, stopConsoleHosts } from '../helpers/console-host.js';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, runToExit } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, startServe } from '../helpers/serve.js';

afterEach(async () => {
  await closeMcpSessions();
  await closeHttpClients();
  await stopConsoleHosts();
  await cleanupProcesses();
});

interface CallResult {
  isError?: boolean;
  content?: unknown;
  structuredContent?: unknown;
  _meta?: unknown;
}

/** The typed error code Tether put on an isError result (`_meta["tether/error"].code`). */
function errorCode(result: CallResult): string | undefined {
  return (result._meta as Record<string, { code?: string }> | undefined)?.['tether/error']?.code;
}

/** The kit's counter value in a count or read result (structuredContent, or its JSON text). */
function countIn(result: CallResult): number {
  expect(result.isError, textOf(result)).toBeFalsy();
  const structured = (result.structuredContent as { count?: unknown } | undefined)?.count;
  if (typeof structured === 'number') return structured;
  return (JSON.parse(textOf(result)) as { count: number }).count;
}

const KIT_TOOLS = Object.values(KIT);

/** The states of the front's host link, in order, from its log lines (`tether mcp --log-level info`). */
function linkStates(stderr: string): string[] {
  return stderr
    .split('\n')
    .filter((line) => line.includes('"msg":"host link"'))
    .map((line) => (JSON.parse(line) as { state: string }).state);
}

describe('tether mcp and tether serve against the console host', () => {
  it('tether mcp lists the host\'s tools and calls them: count, then read', async () => {
    const workspace = createWorkspace();
    await startConsoleHost(workspace, ['--conformance-kit']);
    const { client } = await connectMcp(workspace);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...KIT_TOOLS, 'tether_status']));

    expect(countIn(await client.callTool({ name: KIT.count, arguments: { key: 'stdio' } }))).toBe(1);
    expect(countIn(await client.callTool({ name: KIT.count, arguments: { key: 'stdio' } }))).toBe(2);
    expect(countIn(await client.callTool({ name: KIT.read, arguments: { key: 'stdio' } }))).toBe(2);
    expect(kitCounters(workspace)).toEqual({ stdio: 2 });

    const refused = await client.callTool({ name: KIT.count, arguments: {} });
    expect(refused.isError).toBe(true);
    expect(kitCounters(workspace)).toEqual({ stdio: 2 });
  });

  it('tether serve lists the host\'s tools and calls them over Streamable HTTP', async () => {
    const workspace = createWorkspace();
    await startConsoleHost(workspace, ['--conformance-kit']);
    const served = await startServe(workspace);
    const { client } = await connectHttp(served);
    const { tools } = await client.listTools();
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining([...KIT_TOOLS, 'tether_status']));
    expect(countIn(await client.callTool({ name: KIT.count, arguments: { key: 'http' } }))).toBe(1);
    expect(countIn(await client.callTool({ name: KIT.read, arguments: { key: 'http' } }))).toBe(1);
    expect(kitCounters(workspace)).toEqual({ http: 1 });
  });
});

describe('a console host killed mid-call and started again', () => {
  it('reports the cut-short call as an unknown outcome, never success, and a keyed call re-sent is not counted twice', async () => {
    const workspace = createWorkspace();
    const flags = ['--conformance-kit', '--heartbeat-ms', '300'];
    const { host, ready } = await startConsoleHost(workspace, flags);
    const { client } = await connectMcp(workspace);

    // A side effect under an idempotency key, finished (and journaled) before the crash.
    const keyed = { name: KIT.count, arguments: { key: 'crash' }, _meta: { 'tether/idempotencyKey': 'count-before-the-crash' } };
    expect(countIn(await client.callTool(keyed))).toBe(1);

    const blockKey = 'block-through-the-crash';
    const blocking = client.callTool(
      { name: KIT.block, arguments: { ms: 60_000 }, _meta: { 'tether/idempotencyKey': blockKey } },
      { timeout: 60_000, onprogress: () => undefined },
    );
    await expect.poll(() => journalStates(workspace, callIdForKey(blockKey))).toContain('running');

    await host.kill(); // a crash: no goodbye, the journal says "running"
    const { ready: again } = await startConsoleHost(workspace, flags);
    expect(again.instanceId).not.toBe(ready.instanceId);
    expect(again.pid).not.toBe(ready.pid);

    const blocked = await blocking;
    expect(blocked.isError, textOf(blocked)).toBe(true);
    expect(errorCode(blocked)).toBe('OUTCOME_UNKNOWN');
    expect(textOf(blocked)).toMatch(/unknown/i);
    // As the new host's journal knows it: interrupted (found running after the crash), answered
    // from the journal, and not started again.
    const blockCallId = callIdForKey(blockKey);
    expect((blocked._meta as Record<string, { data?: unknown }>)['tether/error']!.data).toMatchObject({ callId: blockCallId, state: 'interrupted', replayed: true });
    expect(journalStates(workspace, blockCallId).at(-1)).toBe('interrupted');
    expect(journalStates(workspace, blockCallId)).not.toContain('completed');

    // The keyed call re-sent to the new host is answered from the journal, not run again.
    expect(countIn(await client.callTool(keyed))).toBe(1);
    expect(kitCounters(workspace)).toEqual({ crash: 1 });
    // A new call (no key) does count: the counter was not simply left alone.
    expect(countIn(await client.callTool({ name: KIT.count, arguments: { key: 'crash' } }))).toBe(2);
    expect(kitCounters(workspace)).toEqual({ crash: 2 });
  });
});

describe('a simulated domain reload of the console host', () => {
  it('serves a call made through tether mcp while the host was away, once it is back', async () => {
    const workspace = createWorkspace();
    const { host, ready } = await startConsoleHost(workspace, ['--conformance-kit', '--reload-ms', '1000']);
    const session = await connectMcp(workspace);
    const { client } = session;
    expect(countIn(await client.callTool({ name: KIT.read, arguments: { key: 'reload' } }))).toBe(0);

    host.reload();
    await host.reloading(1);
    // Called once the front knows the host is away (its link says so in its log). A call sent in
    // the moment before, as the host says goodbye, may reach the host as it closes, unread: the
    // front cannot tell that from a call that ran, and reports the outcome of such a
    // non-idempotent call as unknown, as it does with any host.
    await expect.poll(() => linkStates(session.stderr())).toContain('reloading');
    const during = client.callTool({ name: KIT.count, arguments: { key: 'reload' } });
    const back = await host.ready(2);
    // The same host (process and identity) back as its next generation (protocol.md §9).
    expect(back).toMatchObject({ generation: 2, pid: ready.pid, instanceId: ready.instanceId });
    expect(countIn(await during)).toBe(1);
    expect(linkStates(session.stderr()).at(-1)).toBe('authenticated');
    expect(kitCounters(workspace)).toEqual({ reload: 1 });
  });

  it('delivers the result of the kit\'s reload tool, which reloads the host, and serves the next call', async () => {
    const workspace = createWorkspace();
    const { host } = await startConsoleHost(workspace, ['--conformance-kit', '--reload-ms', '300']);
    const { client } = await connectMcp(workspace);
    const reloaded = await client.callTool({ name: KIT.reload, arguments: {} });
    expect(reloaded.isError, textOf(reloaded)).toBeFalsy();
    expect(reloaded.structuredContent).toEqual({ reloading: true });
    await host.reloading(1);
    await host.ready(2);
    expect(countIn(await client.callTool({ name: KIT.count, arguments: { key: 'after' } }))).toBe(1);
    expect(kitCounters(workspace)).toEqual({ after: 1 });
  });
});

describe('eviction by a console host that serves one connection', () => {
  /** How long the displaced front's call holds the host's main thread (the newcomer's call waits behind it). */
  const BLOCK_MS = 8_000;

  it('gives the displaced tether mcp the typed EVICTED error, and tether call is served', async () => {
    const workspace = createWorkspace();
    await startConsoleHost(workspace, ['--conformance-kit', '--max-connections', '1']);
    const first = await connectMcp(workspace);
    expect(countIn(await first.client.callTool({ name: KIT.read, arguments: { key: 'evict' } }))).toBe(0);
    const blockKey = 'block-then-evicted';
    // The evicted front's call goes on at the host, holding its main thread: the second front's
    // call waits for it, so it is short (and long enough to be running when the second comes).
    const blocking = first.client.callTool(
      { name: KIT.block, arguments: { ms: BLOCK_MS }, _meta: { 'tether/idempotencyKey': blockKey } },
      { timeout: 60_000, onprogress: () => undefined },
    );
    await expect.poll(() => journalStates(workspace, callIdForKey(blockKey))).toContain('running');

    const second = await runToExit(process.execPath, [TETHER_BIN, 'call', KIT.count, '--args', '{"key":"evict"}', '--project', workspace.project, '--json'], { env: workspace.env });
    expect(second.code, second.stderr).toBe(0);
    expect(kitCounters(workspace)).toEqual({ evict: 1 });

    const displaced = await blocking;
    expect(displaced.isError).toBe(true);
    expect(errorCode(displaced)).toBe('EVICTED');
    expect(textOf(displaced)).toMatch(/evicted/i);
    // No ping-pong: the displaced front does not take the host back on its own.
    const again = await first.client.callTool({ name: KIT.read, arguments: { key: 'evict' } });
    expect(errorCode(again)).toBe('EVICTED');
  });

  it('ends a displaced tether call with exit 3 and [EVICTED] (its call had reached the host)', async () => {
    const workspace = createWorkspace();
    await startConsoleHost(workspace, ['--conformance-kit', '--max-connections', '1']);
    const blocker = new TetherProcess(['call', KIT.block, '--args', JSON.stringify({ ms: BLOCK_MS }), '--project', workspace.project], workspace.env);
    await expect.poll(() => journalLines(workspace).some((line) => line.tool === KIT.block && line.state === 'running')).toBe(true);

    const reader = await runToExit(process.execPath, [TETHER_BIN, 'call', KIT.read, '--args', '{"key":"x"}', '--project', workspace.project, '--json'], { env: workspace.env });
    expect(reader.code, reader.stderr).toBe(0);
    expect(countIn(JSON.parse(reader.stdout) as CallResult)).toBe(0);

    expect(await blocker.exited).toBe(3);
    expect(blocker.stderr).toMatch(/\[EVICTED\]/);
  });
});
