/**
 * What each `tether` command's hello tells the editor it can answer. The host sends a tool's
 * questions (elicitation) and sampling requests to the most recently attached connection that
 * says it can: `tether call` said so and could not, so `tether call test_elicitation` failed,
 * and a `tether call` joining a shared execution took the question from an MCP agent. The
 * terminal commands declare nothing; `tether mcp` still declares what its client is relayed.
 * Real processes against a host that records the hellos it gets.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { hostsDir } from '../../src/discovery/tether-home.js';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, runToExit, type Workspace } from '../helpers/processes.js';
import { FakeHost, isRequest } from '../link/fake-host.js';

const hosts: FakeHost[] = [];
afterEach(async () => {
  await cleanupProcesses();
  await Promise.all(hosts.splice(0).map((host) => host.close()));
});

/** A host for the workspace's project that answers the hello, an empty tools/list, and nothing else; every hello it got, by client name. */
async function recordingHost(workspace: Workspace): Promise<Map<string, unknown>> {
  const hellos = new Map<string, unknown>();
  const host = new FakeHost(workspace.project, (message, connection, self) => {
    if (!isRequest(message)) return;
    if (message.method === 'tether/hello') {
      const params = message.params as { client: { name: string }; capabilities?: unknown };
      hellos.set(params.client.name, params.capabilities);
    }
    if (message.method === 'tools/list') connection.send({ jsonrpc: '2.0', id: message.id, result: { tools: [] } });
    else if (message.method !== 'tether/hello') connection.send({ jsonrpc: '2.0', id: message.id, error: { code: -32601, message: 'Not here.', data: { code: 'METHOD_NOT_FOUND' } } });
    else FakeHost.answerHello()(message, connection, self);
  });
  hosts.push(await host.start());
  host.writeRecord(hostsDir(workspace.home));
  return hellos;
}

describe('the capabilities each command declares in its hello', () => {
  it('tether call, tether tools and tether status declare none; tether mcp declares elicitation and sampling', async () => {
    const workspace = createWorkspace();
    const hellos = await recordingHost(workspace);
    const run = (...args: string[]): ReturnType<typeof runToExit> => runToExit(process.execPath, [TETHER_BIN, ...args, '--project', workspace.project], { env: workspace.env });

    const called = await run('call', 'test_elicitation', 'message=hi');
    expect(called.stderr).toContain('[UNKNOWN_TOOL]');
    expect((await run('tools')).code).toBe(0);
    expect((await run('status')).stdout).toContain('this editor does not report its connections and calls');
    const mcp = new TetherProcess(['mcp', '--project', workspace.project], workspace.env, { stdin: 'pipe' });
    await expect.poll(() => hellos.has('tether'), { timeout: 10_000 }).toBe(true);
    await mcp.stop();

    expect(Object.fromEntries(hellos)).toEqual({
      'tether-call': {},
      'tether-tools': {},
      'tether-status': {},
      tether: { elicitation: true, sampling: true },
    });
  });
});
