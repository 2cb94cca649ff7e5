/**
 * The fronts keep their per-call lines in their log files, not on stderr: `tether mcp`'s MCP
 * client keeps the server's stderr in a log of its own, where a line per call would repeat
 * `tether logs`, and `tether serve` wrote each one to stderr before the answer went out. stderr still
 * gets the fronts' lifecycle lines at info (the link's states).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, startServe } from '../helpers/serve.js';

afterEach(async () => {
  await closeMcpSessions();
  await closeHttpClients();
  await cleanupProcesses();
});

const callLines = (text: string): Array<{ msg: string; tool: string; agent?: string }> =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; tool: string; agent?: string })
    .filter((line) => line.msg === 'call');

describe('the per-call lines', () => {
  it('of tether mcp go to mcp.log and not to stderr, whether written by hand or by pino, at info', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    // The helper runs tether mcp with --log-level info; a quote in the agent's name takes pino's path.
    const plain = await connectMcp(workspace, { clientInfo: { name: 'claude-code', version: '2.1' } });
    const quoted = await connectMcp(workspace, { clientInfo: { name: 'say "hi"', version: '1' } });
    for (const session of [plain, quoted]) expect((await session.client.callTool({ name: 'get_hierarchy', arguments: { depth: 1 } })).isError).toBeFalsy();
    await Promise.all([plain.close(), quoted.close()]);

    const logged = callLines(readFileSync(join(workspace.home, 'logs', 'mcp.log'), 'utf8'));
    expect(logged.map((line) => line.agent).sort()).toEqual(['claude-code 2.1', 'say "hi" 1']);
    for (const session of [plain, quoted]) {
      expect(callLines(session.stderr())).toEqual([]);
      expect(session.stderr()).toContain('"state":"authenticated"');
    }
  });

  it('of tether serve go to serve.log and not to stderr, at info', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await startServe(workspace, ['--log-level', 'info']);
    const { client } = await connectHttp(served);
    expect((await client.callTool({ name: 'get_hierarchy', arguments: { depth: 1 } })).isError).toBeFalsy();

    const logFile = join(workspace.home, 'logs', 'serve.log');
    await expect.poll(() => callLines(readFileSync(logFile, 'utf8')).map((line) => line.tool)).toEqual(['get_hierarchy']);
    expect(callLines(served.server.stderr)).toEqual([]);
    expect(served.server.stderr).toContain('"state":"authenticated"');
  });
});
