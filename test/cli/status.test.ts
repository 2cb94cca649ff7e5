/**
 * `tether status` through the real CLI: a real sandbox with a call running from an MCP client
 * named "test-agent", then a crash mid-call and a restart (test/unity/console-host-status.test.ts
 * does the same against the C# console host).
 */
import { spawn } from 'node:child_process';
import { once } from 'node:events';
import { afterEach, describe, expect, it, onTestFinished } from 'vitest';
import { createServer } from 'node:net';
import { join } from 'node:path';
import { writeHostRecord } from '../../src/discovery/host-record.js';
import { hostsDir } from '../../src/discovery/tether-home.js';
import type { StatusReport } from '../../src/cli/status/gather.js';
import { AGENT, blockFromAgent, status } from '../helpers/status-cli.js';
import { closeMcpSessions } from '../helpers/mcp-client.js';
import { ChildWithLines, TETHER_BIN, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';
import { closeHttpClients, connectHttp, startServe } from '../helpers/serve.js';

afterEach(async () => {
  await closeHttpClients();
  await closeMcpSessions();
  await cleanupProcesses();
});

describe('tether status', () => {
  it('shows the editor, its connections and a call with its agent; after a crash mid-call, the call as outcome unknown', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--conformance-kit']);
    const { callId, report } = await blockFromAgent(workspace);
    const [editor] = report.editors;
    expect(editor).toMatchObject({ kind: 'sandbox', project: expect.stringContaining('project'), pid: sandbox.pid, answered: true, state: 'ready' });
    // The MCP client's front ("tether", tether mcp's link); tether status's own connection is left out.
    expect(editor!.connections.map((c) => c.client.name)).toEqual(['tether']);
    expect(editor!.calls.find((c) => c.callId === callId)?.agent).toEqual(AGENT);
    expect(report.serve).toBeNull();

    const human = await status(workspace);
    expect(human.code).toBe(0);
    expect(human.stdout).toMatch(/sandbox Tether Sandbox 1\.0\.0 — .*project/);
    expect(human.stdout).toMatch(/tether_conformance_block\s+test-agent 1\.0\s+running/);
    expect(human.stdout).toContain(`callId ${callId}`);
    expect(human.stdout).toContain('tether serve is not running.');

    await sandbox.kill();
    await startSandbox(workspace, ['--conformance-kit']);
    const after = await status(workspace, '--json');
    expect(after.code).toBe(0);
    expect(after.report!.editors).toHaveLength(1);
    expect(after.report!.editors[0]!.unknownOutcomes).toEqual([expect.objectContaining({ callId, tool: 'tether_conformance_block', state: 'interrupted', agent: AGENT })]);
    const text = (await status(workspace)).stdout;
    expect(text).toContain('outcome unknown (1)');
    expect(text).toMatch(/tether_conformance_block\s+test-agent 1\.0\s+interrupted/);
    expect(text).toContain("Check the editor's state");
  });

  it("shows tether serve's sessions with their client names and calls", async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--conformance-kit']);
    const served = await startServe(workspace);
    const { client } = await connectHttp(served);
    void client.callTool({ name: 'tether_conformance_block', arguments: { ms: 20_000 } }).catch(() => undefined);
    let report: StatusReport | undefined;
    await expect
      .poll(async () => ((report = (await status(workspace, '--json')).report), report?.serve?.status?.fronts[0]?.calls[0]?.agent), { timeout: 10_000, interval: 200 })
      .toEqual({ name: 'http-test', version: '1' });
    expect(report!.serve).toMatchObject({ answered: true, url: served.url });
    expect(report!.serve!.status!.fronts[0]!.clients).toContainEqual({ name: 'http-test', version: '1' });
    // At the editor: serve's link, and the call with the HTTP client as its agent.
    expect(report!.editors[0]!.connections.map((c) => c.client.name)).toEqual(['tether-serve']);
    expect(report!.editors[0]!.calls[0]?.agent).toEqual({ name: 'http-test', version: '1' });
    const text = (await status(workspace)).stdout;
    expect(text).toContain(`tether serve — ${served.url}`);
    expect(text).toContain('clients: http-test 1');
  });

  it('redraws with --watch until Ctrl-C, then exits', async () => {
    const workspace = createWorkspace();
    const watching = new ChildWithLines(process.execPath, [TETHER_BIN, 'status', '--watch', '--json'], workspace.env);
    // One JSON report a line, a second apart: the second shows the process stayed up between them.
    const reports = () => watching.lines.filter((line) => line.startsWith('{')).length;
    await watching.waitForLine(() => reports() >= 2);
    watching.child.kill('SIGINT');
    expect(await watching.exited).toBe(0);
    expect((JSON.parse(watching.lines[1]!) as StatusReport).editors).toEqual([]);
  });

  it('--watch stops once its reader has gone (| head)', async () => {
    const watching = spawn(process.execPath, [TETHER_BIN, 'status', '--watch', '--json'], { env: createWorkspace().env, stdio: ['ignore', 'pipe', 'pipe'] });
    onTestFinished(() => void watching.kill('SIGKILL'));
    const closed = once(watching, 'close');
    await once(watching.stdout, 'data');
    // Its first report read, the reader goes: the next redraw meets a closed pipe.
    watching.stdout.destroy();
    expect(((await closed) as [number | null])[0]).toBe(0);
  });

  it('exits 1 when an editor does not answer, still printing the rest', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    // A record whose process lives (this one) but whose port nobody answers on.
    const closed = createServer();
    const port = await new Promise<number>((resolve) => closed.listen(0, '127.0.0.1', () => resolve((closed.address() as { port: number }).port)));
    await new Promise((resolve) => closed.close(resolve));
    writeHostRecord(
      {
        instanceId: 'silent',
        pid: process.pid,
        port,
        host: '127.0.0.1',
        token: 'x'.repeat(32),
        projectPath: '/nowhere/silent',
        kind: 'unity',
        name: 'Silent',
        protocolVersion: 1,
        startedAt: new Date().toISOString(),
        auth: 'proof',
      },
      hostsDir(workspace.home),
    );
    const run = await status(workspace);
    expect(run.code).toBe(1);
    expect(run.stdout).toContain('NOT ANSWERING');
    expect(run.stdout).toContain('sandbox Tether Sandbox');
    const json = await status(workspace, '--json');
    expect(json.code).toBe(1);
    expect(json.report!.editors.map((e) => [e.kind, e.answered]).sort()).toEqual([
      ['sandbox', true],
      ['unity', false],
    ]);
  });

  it('--project with no editor for it says so, and how many run for other projects, rather than that none runs', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const elsewhere = join(workspace.home, 'no-such-project');
    const run = await status(workspace, '--project', elsewhere);
    expect(run.code).toBe(0);
    expect(run.stdout).toContain(`No editor is running for ${elsewhere}; 1 runs for other projects (\`tether status\` shows it).`);
    expect(run.stdout).not.toContain('No editor is running.');
    const json = await status(workspace, '--project', elsewhere, '--json');
    expect(json.report).toMatchObject({ project: elsewhere, otherEditors: 1, editors: [] });
    // With nothing running at all, it says that.
    expect((await status(createWorkspace(), '--project', elsewhere)).stdout).toContain(`No editor is running for ${elsewhere}; none runs for another project either.`);
  });
});
