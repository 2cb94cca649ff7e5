/** `tether status` run through the real CLI, and a call from an MCP client named "test-agent" for it to show. */
import { expect } from 'vitest';
import type { StatusReport } from '../../src/cli/status/gather.js';
import { connectMcp, type McpSession } from './mcp-client.js';
import { TETHER_BIN, runToExit, type Workspace } from './processes.js';

export const AGENT = { name: 'test-agent', version: '1.0' };

export async function status(workspace: Workspace, ...args: string[]): Promise<{ code: number | null; stdout: string; report?: StatusReport }> {
  const run = await runToExit(process.execPath, [TETHER_BIN, 'status', ...args], { env: workspace.env, timeoutMs: 15_000 });
  return { code: run.code, stdout: run.stdout, ...(args.includes('--json') ? { report: JSON.parse(run.stdout) as StatusReport } : {}) };
}

/** Starts a 20 s block from an MCP client named test-agent, and waits until status shows it running. */
export async function blockFromAgent(workspace: Workspace): Promise<{ mcp: McpSession; callId: string; report: StatusReport }> {
  const mcp = await connectMcp(workspace, { clientInfo: AGENT });
  void mcp.client.callTool({ name: 'tether_conformance_block', arguments: { ms: 20_000 } }).catch(() => undefined);
  let report: StatusReport | undefined;
  await expect
    .poll(
      async () => {
        report = (await status(workspace, '--json', '--project', workspace.project)).report;
        return report?.editors[0]?.calls.find((c) => c.tool === 'tether_conformance_block')?.state;
      },
      { timeout: 10_000, interval: 200 },
    )
    .toBe('running');
  const call = report!.editors[0]!.calls.find((c) => c.tool === 'tether_conformance_block')!;
  return { mcp, callId: call.callId, report: report! };
}
