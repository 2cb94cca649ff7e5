/**
 * `tether mcp` against a client that gets things wrong, found by a review that drove it over
 * stdio: each bad line gets its JSON-RPC error and the session goes on (the SDK skipped a line
 * that was not JSON and only logged an invalid message, so a client waited for ever); a
 * request id a running request has is refused, not run again (a retried build ran twice); a
 * line longer than the SDK reads is refused (the SDK ended the session, and the process stayed
 * on, orphaned); a client gone from stdout ends the process; and a SIGTERM while answers are
 * still going out leaves whole lines on stdout. On the fast path and on the SDK's alike.
 */
import { spawn } from 'node:child_process';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, TetherProcess, buildLog, cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';

afterEach(cleanupProcesses);

interface Reply {
  id?: unknown;
  result?: unknown;
  error?: { code: number; message: string };
}

const INITIALIZE = { jsonrpc: '2.0', id: 'init', method: 'initialize', params: { protocolVersion: '2025-11-25', capabilities: {}, clientInfo: { name: 'careless', version: '1' } } };

/** A `tether mcp` on the sandbox, initialized, speaking raw lines. */
async function rawMcp(workspace: Workspace, fastPath: boolean): Promise<{ mcp: TetherProcess; send(line: string): void; reply(id: unknown): Promise<Reply> }> {
  const mcp = new TetherProcess(['mcp', '--project', workspace.project], { ...workspace.env, TETHER_FAST_PATH: fastPath ? '1' : '0' }, { stdin: 'pipe' });
  const send = (line: string): void => void mcp.child.stdin!.write(`${line}\n`);
  const reply = async (id: unknown): Promise<Reply> => JSON.parse(await mcp.waitForLine((line) => (JSON.parse(line) as Reply).id === id && !('method' in JSON.parse(line)))) as Reply;
  send(JSON.stringify(INITIALIZE));
  await reply('init');
  send(JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' }));
  return { mcp, send, reply };
}

/** The replies with `id`, in the order they came. */
const repliesTo = (mcp: TetherProcess, id: unknown): Reply[] => mcp.lines.map((line) => JSON.parse(line) as Reply).filter((message) => message.id === id && !('method' in message));

describe.each([
  ['the fast path', true],
  ["the SDK's path", false],
])('tether mcp on %s', (_path, fastPath) => {
  it('answers each bad line with its JSON-RPC error, and goes on serving', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { mcp, send, reply } = await rawMcp(workspace, fastPath);
    send('garbage');
    send(JSON.stringify({ jsonrpc: '2.0', id: 16, method: 'tools/call', params: { name: 'get_hierarchy', arguments: {} }, extra: 1 }));
    send(JSON.stringify([{ jsonrpc: '2.0', id: 17, method: 'ping' }]));
    send(JSON.stringify({ jsonrpc: '2.0', id: 9.5, method: 'ping' }));
    send(JSON.stringify({ jsonrpc: '2.0', id: 'after', method: 'ping' }));
    expect(await reply('after')).toMatchObject({ result: {} });
    const errors = mcp.lines.map((line) => JSON.parse(line) as Reply).filter((message) => message.error);
    expect(errors).toEqual([
      { jsonrpc: '2.0', id: null, error: { code: -32700, message: expect.stringContaining('Parse error: the line is not JSON') } },
      { jsonrpc: '2.0', id: 16, error: { code: -32600, message: expect.stringMatching(/^Invalid Request: .*Nothing was done\.$/) } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('a batch (an array): send each message on its own line') } },
      { jsonrpc: '2.0', id: null, error: { code: -32600, message: expect.stringContaining('Invalid Request') } },
    ]);
  });

  it('refuses a request whose id a running one has, and runs the build once', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '2']);
    const { mcp, send, reply } = await rawMcp(workspace, fastPath);
    const build = JSON.stringify({ jsonrpc: '2.0', id: 40, method: 'tools/call', params: { name: 'build_player', arguments: { target: 'WebGL' } } });
    send(build);
    send(build);
    const refused = await reply(40);
    expect(refused.error).toMatchObject({ code: -32600, message: expect.stringContaining('the id 40 is already used by a request still running, so this one was not run') });
    await expect.poll(() => repliesTo(mcp, 40).length, { timeout: 15_000 }).toBe(2);
    expect(repliesTo(mcp, 40)[1]).toMatchObject({ result: { structuredContent: { status: 'succeeded' } } });
    expect(buildLog(workspace)).toHaveLength(1);
    // Answered, the id is free again.
    send(JSON.stringify({ jsonrpc: '2.0', id: 40, method: 'ping' }));
    await expect.poll(() => repliesTo(mcp, 40).length).toBe(3);
  });

  it('refuses a line longer than the SDK reads, unread, and goes on serving', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { send, reply, mcp } = await rawMcp(workspace, fastPath);
    const huge = JSON.stringify({
      jsonrpc: '2.0',
      id: 3,
      method: 'tools/call',
      params: { name: 'create_script', arguments: { path: 'Assets/Scripts/Huge.cs', contents: 'x'.repeat(11 * 1024 * 1024) } },
    });
    send(huge);
    send(JSON.stringify({ jsonrpc: '2.0', id: 4, method: 'ping' }));
    expect(await reply(4)).toMatchObject({ result: {} });
    expect(mcp.lines.map((line) => JSON.parse(line) as Reply).find((message) => message.error)).toMatchObject({
      id: null,
      error: { code: -32600, message: expect.stringContaining(`a message of ${huge.length} bytes, more than the`) },
    });
    expect(mcp.child.exitCode).toBeNull();
  });
});

describe('tether mcp whose client is gone', () => {
  it('exits when its client stops reading stdout for good, though stdin stays open', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '10', '--heartbeat-ms', '100']);
    const { mcp, send } = await rawMcp(workspace, true);
    // Progress flows while the build runs: a write to a pipe nobody reads fails (EPIPE).
    send(JSON.stringify({ jsonrpc: '2.0', id: 7, method: 'tools/call', params: { name: 'build_player', arguments: { target: 'WebGL' }, _meta: { progressToken: 'p' } } }));
    await mcp.waitForLine((line) => line.includes('"progressToken":"p"'));
    mcp.child.stdout!.destroy();
    expect(await mcp.exited).toBe(0);
    expect(mcp.child.stdin!.writableEnded).toBe(false);
  });

  it('leaves whole lines on stdout when stopped by SIGTERM while answers are still going out', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const child = spawn(process.execPath, [TETHER_BIN, 'mcp', '--project', workspace.project], { env: workspace.env, stdio: ['pipe', 'pipe', 'ignore'] });
    const exited = new Promise<number | null>((resolve) => child.once('close', resolve));
    const stdout: Buffer[] = [];
    const lineCount = (): number => Buffer.concat(stdout).toString().split('\n').length - 1;
    child.stdout.on('data', (chunk: Buffer) => stdout.push(chunk));
    child.stdin.write(`${JSON.stringify(INITIALIZE)}\n${JSON.stringify({ jsonrpc: '2.0', method: 'notifications/initialized' })}\n`);
    await expect.poll(lineCount).toBeGreaterThanOrEqual(1);
    // Twenty long answers; the client reads the first, then stops reading, and the rest wait in `tether mcp`.
    for (let id = 0; id < 20; id++) child.stdin.write(`${JSON.stringify({ jsonrpc: '2.0', id, method: 'tools/list' })}\n`);
    await expect.poll(lineCount).toBeGreaterThanOrEqual(2);
    child.stdout.pause();
    child.kill('SIGTERM');
    setTimeout(() => child.stdout.resume(), 200);
    expect(await exited).toBe(0);
    const text = Buffer.concat(stdout).toString();
    expect(text.endsWith('\n')).toBe(true);
    for (const line of text.split('\n').filter(Boolean)) expect(() => JSON.parse(line), line.slice(0, 80)).not.toThrow();
  });
});
