/**
 * `tether mcp` keeps its per-call lines in mcp.log, not on stderr: its MCP client keeps the
 * server's stderr in a log of its own, where a line per call would repeat `tether logs`.
 * stderr still gets the front's lifecycle lines at info (the link's states).
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const callLines = (text: string): Array<{ msg: string; tool: string; agent?: string }> =>
  text
    .split('\n')
    .filter((line) => line.startsWith('{'))
    .map((line) => JSON.parse(line) as { msg: string; tool: string; agent?: string })
    .filter((line) => line.msg === 'call');

describe('tether mcp’s per-call lines', () => {
  it('go to mcp.log and not to stderr, whether written by hand or by pino, at info', async () => {
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
});
