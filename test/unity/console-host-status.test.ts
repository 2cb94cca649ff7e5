/**
 * `tether status` against the C# console host (the Unity package's Core without Unity), as
 * test/cli/status.test.ts runs it against the sandbox: a call from an MCP client named
 * "test-agent" listed with its agent, the host's log line for it, and the call as outcome
 * unknown after a crash mid-call and a restart. `npm run test:unity` builds the host.
 */
import { afterEach, describe, expect, it } from 'vitest';
import { startConsoleHost, stopConsoleHosts } from '../helpers/console-host.js';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { AGENT, blockFromAgent, status } from '../helpers/status-cli.js';

afterEach(async () => {
  await closeMcpSessions();
  await stopConsoleHosts();
  await cleanupProcesses();
});

describe('tether status with the C# console host', () => {
  it('shows the C# console host the same way, and its interrupted call after a crash and a restart', async () => {
    const workspace = createWorkspace();
    const { host } = await startConsoleHost(workspace, ['--conformance-kit']);
    const { callId, report } = await blockFromAgent(workspace);
    expect(report.editors[0]).toMatchObject({ kind: 'console', pid: host.pid, answered: true });
    expect(report.editors[0]!.connections.map((c) => c.client.name)).toEqual(['tether']);
    expect(report.editors[0]!.calls.find((c) => c.callId === callId)?.agent).toEqual(AGENT);
    // The host's log (stderr here; Unity's console in the editor) says who called what.
    expect(host.stderr).toContain(`[tether] test-agent 1.0 called tether_conformance_block (callId ${callId})`);

    await host.kill();
    await startConsoleHost(workspace, ['--conformance-kit']);
    const after = await status(workspace, '--json');
    expect(after.code).toBe(0);
    expect(after.report!.editors[0]!.unknownOutcomes).toEqual([expect.objectContaining({ callId, state: 'interrupted', agent: AGENT })]);
    expect((await status(workspace)).stdout).toMatch(/tether_conformance_block\s+test-agent 1\.0\s+interrupted/);
  });
});
