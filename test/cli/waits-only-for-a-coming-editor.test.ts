/**
 * "The first ten minutes": errors that are not transient waited. A --project with no editor
 * and no record, or several editors when one is needed, waited 10 s (20 s in tether mcp) and
 * then said "not reachable". Tether waits only for an editor of that project known to be
 * coming (reloading, restarting, its record present); otherwise it answers at once with what
 * to do. And `tether call` during an ordinary domain reload said `connect ECONNREFUSED … Is the
 * editor running?` where the MCP path says "reloading": both say "reloading" now.
 */
import { mkdirSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { writeHostRecord, type HostRecord } from '../../src/discovery/host-record.js';
import { hostsDir } from '../../src/discovery/tether-home.js';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { refuses } from '../helpers/port-probe.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, startSandbox, startTwoSandboxes, type Workspace } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

function call(workspace: Workspace, args: string[], cwd?: string): ReturnType<typeof runToExit> {
  return runToExit(process.execPath, [TETHER_BIN, 'call', ...args], { env: workspace.env, ...(cwd ? { cwd } : {}), timeoutMs: 30_000 });
}

describe('no editor is coming', () => {
  it('tether call answers at once, not after --wait-ms, that no editor runs for the project and how to start one', async () => {
    const workspace = createWorkspace();
    const started = Date.now();
    const result = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '20000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/^tether: No editor is running for project .*\[HOST_NOT_FOUND\]\n$/s);
    expect(result.stderr).toContain(`tether sandbox --project ${workspace.project}`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('tether call answers at once when several editors run and none is named', async () => {
    const [first] = await startTwoSandboxes();
    const elsewhere = join(first.project, '..', 'elsewhere');
    mkdirSync(elsewhere);
    const started = Date.now();
    const result = await call(first, ['get_hierarchy', '--wait-ms', '20000'], elsewhere);
    expect(result.code).toBe(1);
    expect(result.stderr).toMatch(/Several editors are running; pass --project DIR to choose one\..*\[HOST_AMBIGUOUS\]/s);
    expect(Date.now() - started).toBeLessThan(5_000);
  });

  it('tether mcp answers a tool call at once, not after its 20 s wait, with what to do', async () => {
    const workspace = createWorkspace();
    const session = await connectMcp(workspace);
    const started = Date.now();
    const result = await session.client.callTool({ name: 'get_hierarchy', arguments: {} });
    expect(result.isError).toBe(true);
    expect(textOf(result)).toContain(`No editor is running for project ${workspace.project}. Start it`);
    expect(Date.now() - started).toBeLessThan(5_000);
  });
});

describe('an editor that crashed, its pid now another process', () => {
  /** A record as a crashed editor left it: its pid is a live process's (this one's), its port refuses. */
  async function crashedRecord(workspace: Workspace, extra: Partial<HostRecord> = {}): Promise<void> {
    const port = await new Promise<number>((resolve) => {
      const server = createServer().listen(0, '127.0.0.1', () => {
        const { port: free } = server.address() as AddressInfo;
        server.close(() => resolve(free));
      });
    });
    const record: HostRecord = {
      instanceId: 'crashed',
      pid: process.pid,
      port,
      host: '127.0.0.1',
      token: 't',
      projectPath: workspace.project,
      kind: 'unity',
      protocolVersion: 1,
      startedAt: new Date().toISOString(),
      auth: 'proof',
      ...extra,
    };
    writeHostRecord(record, hostsDir(workspace.home));
  }

  it('is not waited for as a reload: its record has no reload mark, so tether call answers within --wait-ms', async () => {
    const workspace = createWorkspace();
    await crashedRecord(workspace);
    const started = Date.now();
    const result = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '500', '--reload-wait-ms', '20000']);
    expect(result.code).toBe(1);
    expect(result.stderr).toContain('[HOST_UNAVAILABLE]');
    expect(result.stderr).not.toContain('reloading');
    expect(Date.now() - started).toBeLessThan(10_000);
  });

  it('is waited for, up to --reload-wait-ms, while its record says it is reloading; not once the mark is old', async () => {
    const workspace = createWorkspace();
    await crashedRecord(workspace, { reloadingSince: new Date().toISOString() });
    const started = Date.now();
    const waited = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '500', '--reload-wait-ms', '2000']);
    expect(waited.code).toBe(1);
    expect(waited.stderr).toContain('is reloading its code domain');
    expect(Date.now() - started).toBeGreaterThanOrEqual(2_000);

    // Marked eleven minutes ago: a host that died while reloading, whatever its pid says.
    await crashedRecord(workspace, { reloadingSince: new Date(Date.now() - 11 * 60_000).toISOString() });
    const stale = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '500', '--reload-wait-ms', '20000']);
    expect(stale.code).toBe(1);
    expect(stale.stderr).not.toContain('reloading');
  });
});

describe('an editor that is coming', () => {
  it('tether call says the editor is reloading while its port refuses connections, and runs the call once it is back', async () => {
    const workspace = createWorkspace();
    const { sandbox, ready } = await startSandbox(workspace, ['--reload-ms', '4000']);
    // compile_scripts ends with a domain reload: the editor says bye and stops listening for 4 s
    // (the compile's own call re-attaches once it is back).
    const compiling = call(workspace, ['compile_scripts', '--project', workspace.project]);
    await expect.poll(() => refuses(ready.port), { timeout: 10_000, interval: 50 }).toBe(true);

    // Not waiting for the reload either (--reload-wait-ms goes on while the editor's process runs).
    const impatient = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '500', '--reload-wait-ms', '500']);
    expect(impatient.code).toBe(1);
    expect(impatient.stderr).toContain(`is reloading its code domain: it runs, but its port does not take connections yet`);
    expect(impatient.stderr).toContain(`The editor (process ${sandbox.pid})`);
    expect(impatient.stderr).not.toContain('Is the editor running?');
    expect(impatient.stderr).toContain('[HOST_UNAVAILABLE]');

    const patient = await call(workspace, ['get_hierarchy', '--project', workspace.project, '--wait-ms', '20000']);
    expect(patient.code, patient.stderr).toBe(0);
    expect(patient.stdout).toContain('"scene": "SampleScene"');
    expect((await compiling).code).toBe(0);
  });
});
