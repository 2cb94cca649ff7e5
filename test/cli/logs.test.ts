/**
 * `tether logs`: every call a front answered is one line in its log, read back by `tether logs`
 * with the tool, the agent, the duration, the outcome (a tool's failure, an unknown outcome,
 * a success) and the bytes; `--follow` prints calls as they finish.
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { appendFileSync, mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { CALL_LOG_MESSAGE } from '../../src/mcp/call-log.js';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { TETHER_BIN, TetherProcess, cleanupProcesses, createWorkspace, runToExit, startSandbox } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

interface Line {
  tool: string;
  agent?: string;
  outcome: string;
  code?: string;
  durationMs: number;
  bytes?: number;
  callId: string;
}

describe('tether logs', () => {
  it('prints one line per call from every front, with agent, outcome and bytes, and follows new ones', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    // A front at warn still keeps its per-call lines in its file.
    const { client } = await connectMcp(workspace, { args: ['--log-level', 'warn'], clientInfo: { name: 'claude-code', version: '2.1' } });
    const follow = new TetherProcess(['logs', '--follow', '--json'], workspace.env);
    expect((await client.callTool({ name: 'get_hierarchy', arguments: { depth: 1 } })).isError).toBeFalsy();
    const failed = await client.callTool({ name: 'delete_gameobject', arguments: { path: '/Nowhere' } });
    expect(failed.isError).toBe(true);

    const followed = JSON.parse(await follow.waitForLine((line) => line.includes('"delete_gameobject"'), 10_000)) as Line;
    expect(followed).toMatchObject({ tool: 'delete_gameobject', outcome: 'tool_error', agent: 'claude-code 2.1' });

    const run = await runToExit(process.execPath, [TETHER_BIN, 'logs', '--json'], { env: workspace.env });
    expect(run.code, run.stderr).toBe(0);
    const lines = run.stdout
      .trim()
      .split('\n')
      .map((line) => JSON.parse(line) as Line);
    const hierarchy = lines.find((line) => line.tool === 'get_hierarchy');
    expect(hierarchy).toMatchObject({ outcome: 'success', agent: 'claude-code 2.1' });
    expect(hierarchy!.bytes).toBeGreaterThan(10);
    expect(hierarchy!.durationMs).toBeGreaterThanOrEqual(0);
    expect(lines.find((line) => line.tool === 'delete_gameobject')?.code).toBe('NOT_FOUND');

    const pretty = await runToExit(process.execPath, [TETHER_BIN, 'logs', '--lines', '1'], { env: workspace.env });
    expect(pretty.stdout.trim().split('\n')).toHaveLength(1);
    expect(pretty.stdout).toMatch(/^\d\d:\d\d:\d\d {2}tool_error \[NOT_FOUND\] {2}delete_gameobject {2}\d+ ms {2}claude-code 2\.1/);
  });

  it('--follow stops, exit 0 and quietly, once its reader has gone (| head)', async () => {
    const workspace = createWorkspace();
    const log = join(workspace.home, 'logs', 'mcp.log');
    const callLine = (n: number) =>
      `${JSON.stringify({ level: 30, time: Date.now(), name: 'mcp', msg: CALL_LOG_MESSAGE, callId: `c${n}`, tool: 'get_hierarchy', durationMs: 1, outcome: 'success', bytes: 10 })}\n`;
    mkdirSync(dirname(log), { recursive: true });
    writeFileSync(log, callLine(1));
    const follow = spawn(process.execPath, [TETHER_BIN, 'logs', '--follow', '--json'], { env: workspace.env, stdio: ['ignore', 'pipe', 'pipe'] });
    let stderr = '';
    follow.stderr.setEncoding('utf8').on('data', (chunk: string) => (stderr += chunk));
    onTestFinished(() => void follow.kill('SIGKILL'));
    const closed = once(follow, 'close');
    // Its first line read, the reader goes, as `head -1` does; the next call's line meets a closed pipe.
    await once(follow.stdout, 'data');
    follow.stdout.destroy();
    appendFileSync(log, callLine(2));
    const [code] = (await closed) as [number | null];
    expect({ code, stderr }).toEqual({ code: 0, stderr: '' });
  });

  it('says where it looked when nothing was logged yet', async () => {
    const workspace = createWorkspace();
    const run = await runToExit(process.execPath, [TETHER_BIN, 'logs'], { env: workspace.env });
    expect(run.code).toBe(0);
    expect(run.stdout).toContain('No tool calls logged yet');
  });
});
