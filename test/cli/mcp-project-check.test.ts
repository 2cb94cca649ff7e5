/**
 * "The first ten minutes": `tether mcp --project` naming a folder that does not exist started,
 * and Claude Code showed "Connected". A --project that does not exist, or is not a project (no
 * Unity, sandbox or Tether project in it, and no editor running for it), is an error at start:
 * exit 2 and the reason on stderr, before any MCP traffic.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { closeMcpSessions, connectMcp } from '../helpers/mcp-client.js';
import { TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

function mcp(workspace: Workspace, project: string): ReturnType<typeof runToExit> {
  return runToExit(process.execPath, [TETHER_BIN, 'mcp', '--project', project], { env: workspace.env, timeoutMs: 10_000 });
}

describe('tether mcp --project', () => {
  it('exits 2 at start, saying why, for a folder that does not exist, a file, or a folder that is no project', async () => {
    const workspace = createWorkspace();
    const root = join(workspace.project, '..');
    const missing = await mcp(workspace, join(root, 'no-such-project'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Project folder ${join(root, 'no-such-project')} does not exist.`);
    expect(missing.stdout).toBe('');

    writeFileSync(join(root, 'a-file'), 'x');
    const file = await mcp(workspace, join(root, 'a-file'));
    expect(file.code).toBe(2);
    expect(file.stderr).toContain(`${join(root, 'a-file')} is a file, not a project folder.`);

    mkdirSync(join(root, 'documents'));
    const notAProject = await mcp(workspace, join(root, 'documents'));
    expect(notAProject.code).toBe(2);
    expect(notAProject.stderr).toContain(`${join(root, 'documents')} is not a project: it has no ProjectSettings/ProjectVersion.txt (Unity), no Assets/ (sandbox)`);
  });

  it('serves a Unity project, a sandbox project, and any folder an editor is running for', async () => {
    const workspace = createWorkspace();
    const root = join(workspace.project, '..');
    // A Unity project with no editor yet (Unity may be starting): served, the editor awaited.
    const unity = join(root, 'unity-project');
    mkdirSync(join(unity, 'ProjectSettings'), { recursive: true });
    writeFileSync(join(unity, 'ProjectSettings', 'ProjectVersion.txt'), 'm_EditorVersion: 2022.3.20f1\n');
    const unitySession = await connectMcp({ ...workspace, project: unity });
    expect((await unitySession.client.listTools()).tools.map((t) => t.name)).toContain('tether_status');

    // An editor running for a bare folder (a host of another kind) makes it a project.
    const bare = join(root, 'bare');
    mkdirSync(bare);
    await startSandbox({ ...workspace, project: bare });
    const session = await connectMcp({ ...workspace, project: bare });
    expect((await session.client.listTools()).tools.map((t) => t.name)).toContain('get_hierarchy');
  });
});

describe('tether serve --project', () => {
  it('exits 2 at start, saying why, for a folder that does not exist or is no project', async () => {
    const workspace = createWorkspace();
    const root = join(workspace.project, '..');
    const serve = (project: string) => runToExit(process.execPath, [TETHER_BIN, 'serve', '--port', '0', '--project', project], { env: workspace.env, timeoutMs: 10_000 });
    const missing = await serve(join(root, 'no-such-project'));
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain(`Project folder ${join(root, 'no-such-project')} does not exist.`);
    mkdirSync(join(root, 'documents-for-serve'));
    const notAProject = await serve(join(root, 'documents-for-serve'));
    expect(notAProject.code).toBe(2);
    expect(notAProject.stderr).toContain('is not a project');
  });
});
