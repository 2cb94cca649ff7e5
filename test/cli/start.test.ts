/**
 * `tether start`, what `npm start` runs: the sandbox editor on a copy of the sample project
 * and `tether serve` beside it. What it prints must work, and stopping it (or failing to
 * start) must leave nothing behind: no editor, host record, project lock or serve.json.
 */
import { createServer, type Server } from 'node:net';
import { existsSync, readFileSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { Client } from '@modelcontextprotocol/client';
import { StdioClientTransport } from '@modelcontextprotocol/client/stdio';
import { afterEach, describe, expect, it } from 'vitest';
import { TetherProcess, cleanupProcesses, createWorkspace, runToExit, type Workspace } from '../helpers/processes.js';

const servers: Server[] = [];
afterEach(async () => {
  await cleanupProcesses();
  for (const server of servers.splice(0)) server.close();
});

function leftBehind(workspace: Workspace, project: string): string[] {
  const hosts = existsSync(join(workspace.home, 'hosts')) ? readdirSync(join(workspace.home, 'hosts')) : [];
  return [...hosts, ...(existsSync(join(workspace.home, 'serve.json')) ? ['serve.json'] : []), ...(existsSync(join(project, 'Temp', 'TetherEditorLock')) ? ['lock'] : [])];
}

describe('tether start', () => {
  it('serves the sample project over HTTP and stdio as it prints, and leaves nothing behind when stopped', async () => {
    const workspace = createWorkspace();
    // A home with a space in its path, as macOS's default (~/Library/Application Support/tether) has.
    workspace.env.TETHER_HOME = workspace.home = join(workspace.home, 'Application Support', 'tether');
    const start = new TetherProcess(['start', '--port', '0'], workspace.env);
    await start.waitForLine((line) => line === 'Press Ctrl+C to stop.');
    const project = join(workspace.home, 'projects', 'sample-project');
    const url = /^Tether HTTP endpoint: +(\S+)$/.exec(start.lines.find((line) => line.startsWith('Tether HTTP endpoint:')) ?? '')?.[1];
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/mcp$/);
    const { token } = JSON.parse(readFileSync(join(workspace.home, 'serve.json'), 'utf8')) as { token: string };
    await expect.poll(async () => (await fetch(url!.replace('/mcp', '/healthz'), { headers: { authorization: `Bearer ${token}` } })).status).toBe(200);
    // The stdio configuration it prints, started as an MCP client would (from its own
    // environment, which has no TETHER_HOME), reaches that editor; so does tether call.
    // Nothing it prints holds the token: configurations read it from TETHER_TOKEN.
    expect(start.lines.join('\n')).not.toContain(token);
    const from = start.lines.findIndex((line) => line.startsWith('By hand, stdio, in the "mcpServers" shape')) + 1;
    const printed = JSON.parse(start.lines.slice(from, start.lines.indexOf('}', from) + 1).join('\n')) as {
      mcpServers: { tether: { command: string; args: string[]; env?: Record<string, string> } };
    };
    const { command, args, env } = printed.mcpServers.tether;
    expect(args).toEqual([expect.stringMatching(/bin\/tether\.js$/), 'mcp', '--project', project]);
    const client = new Client({ name: 'start-test', version: '1' });
    await client.connect(new StdioClientTransport({ command, args, env: { PATH: process.env.PATH ?? '', HOME: workspace.project, ...env }, stderr: 'ignore' }));
    try {
      expect((await client.listTools()).tools.map((tool) => tool.name)).toContain('get_hierarchy');
    } finally {
      await client.close();
    }
    // The terminal line it prints, pasted into a shell.
    const pasted = /^ +(node .* call get_hierarchy .*)$/.exec(start.lines.find((line) => line.includes(' call get_hierarchy ')) ?? '')?.[1];
    expect(pasted).toBeDefined();
    const called = await runToExit('sh', ['-c', pasted!], { env: workspace.env });
    expect(called.code, called.stderr).toBe(0);
    expect(called.stdout).toContain('"scene": "SampleScene"');

    expect(await start.stop()).toBe(0);
    expect(leftBehind(workspace, project)).toEqual([]);
  });

  it('exits 2 when its port is taken, and takes the editor it started down with it', async () => {
    const workspace = createWorkspace();
    const taken = createServer();
    servers.push(taken);
    await new Promise<void>((resolve) => taken.listen(0, '127.0.0.1', resolve));
    const { port } = taken.address() as { port: number };
    const start = new TetherProcess(['start', '--port', String(port)], workspace.env);
    expect(await start.exited).toBe(2);
    expect(start.stderr).toContain(`Port ${port} is taken`);
    expect(leftBehind(workspace, join(workspace.home, 'projects', 'sample-project'))).toEqual([]);
  });
});
