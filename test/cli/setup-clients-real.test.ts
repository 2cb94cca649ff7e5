/**
 * The real clients, from their npm packages, read what `tether setup` wrote and report what
 * they see, with HOME in the test's folder so no real configuration is read or touched:
 * - Claude Code (`claude mcp list`, which starts each server and checks it, and `claude mcp get`):
 *   stdio reaches the sandbox; HTTP reaches `tether serve` with the token from TETHER_TOKEN, and
 *   is refused without it;
 * - Codex (`codex mcp list --json`, `codex mcp get --json`): the stdio and HTTP tables as Codex
 *   parses them (it lists, it does not connect);
 * - Gemini CLI (`gemini mcp list`, which connects): stdio, and HTTP with `${TETHER_TOKEN}` expanded;
 * - the MCP Inspector v2 CLI (Node 22): the project .mcp.json as its catalog, tools listed.
 * Each is skipped, with the reason in its name, only where its binary cannot run here.
 */
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { connectLines } from '../../src/cli/clients/connect-lines.js';
import { NODE22, NODE22_MISSING } from '../helpers/node22.js';
import { REPO_ROOT, TETHER_BIN, cleanupProcesses, createWorkspace, runToExit, startSandbox } from '../helpers/processes.js';
import { startServe } from '../helpers/serve.js';
import { clientEnv, tether } from './setup-clients-helpers.js';

const require = createRequire(import.meta.url);

afterEach(cleanupProcesses);

/** A package's binary, and why it cannot run here when it cannot. */
function binary(pkg: string, relative: string, viaNode: boolean): { path?: string; missing: string } {
  let path: string;
  try {
    path = join(dirname(require.resolve(`${pkg}/package.json`)), relative);
  } catch {
    return { missing: `${pkg} is not installed` };
  }
  const run = viaNode ? spawnSync(process.execPath, [path, '--version'], { encoding: 'utf8', timeout: 30_000 }) : spawnSync(path, ['--version'], { encoding: 'utf8', timeout: 30_000 });
  if (run.status !== 0) return { missing: `${pkg} does not run on ${process.platform}-${process.arch} (${(run.error?.message ?? run.stderr).trim().split('\n')[0]})` };
  return { path, missing: '' };
}

const CLAUDE = binary('@anthropic-ai/claude-code', 'bin/claude.exe', false);
const CODEX = binary('@openai/codex', 'bin/codex.js', true);
const GEMINI = geminiBinary();
const INSPECTOR = join(dirname(require.resolve('@modelcontextprotocol/inspector/package.json')), 'clients', 'launcher', 'build', 'index.js');

/** Gemini CLI's entry point, from its package's bin. */
function geminiBinary(): { path?: string; missing: string } {
  try {
    const manifest = require('@google/gemini-cli/package.json') as { bin: Record<string, string> };
    return binary('@google/gemini-cli', manifest.bin.gemini!, true);
  } catch {
    return { missing: '@google/gemini-cli is not installed' };
  }
}

/** What Claude Code needs to run offline in the test's home: no updater, no telemetry. */
function claudeEnv(env: NodeJS.ProcessEnv): NodeJS.ProcessEnv {
  return { ...env, DISABLE_AUTOUPDATER: '1', CLAUDE_CODE_DISABLE_NONESSENTIAL_TRAFFIC: '1', DISABLE_TELEMETRY: '1' };
}

describe('Claude Code reads what tether setup wrote', () => {
  it.skipIf(!CLAUDE.path)(
    `claude mcp list connects to the stdio entry (local scope) and claude mcp get shows it${CLAUDE.path ? '' : ` (skipped: ${CLAUDE.missing})`}`,
    { timeout: 90_000 },
    async () => {
      const workspace = createWorkspace();
      await startSandbox(workspace);
      const { env } = clientEnv(workspace);
      expect((await tether(env, workspace.project, 'setup', 'claude-code')).code).toBe(0);
      const list = await runToExit(CLAUDE.path!, ['mcp', 'list'], { env: claudeEnv(env), cwd: workspace.project, timeoutMs: 60_000 });
      expect(list.code, list.stderr).toBe(0);
      expect(list.stdout).toMatch(new RegExp(`^tether: ${escape(process.execPath)} ${escape(TETHER_BIN)} mcp --project ${escape(workspace.project)} - ✔ Connected$`, 'm'));
      const get = await runToExit(CLAUDE.path!, ['mcp', 'get', 'tether'], { env: claudeEnv(env), cwd: workspace.project, timeoutMs: 60_000 });
      expect(get.stdout).toContain('Scope: Local config (private to you in this project)');
      expect(get.stdout).toContain('Type: stdio');
      expect(get.stdout).toContain(`TETHER_HOME=${workspace.home}`);
    },
  );

  it.skipIf(!CLAUDE.path)(
    `reaches tether serve over HTTP with the token from TETHER_TOKEN, and is refused without it${CLAUDE.path ? '' : ` (skipped: ${CLAUDE.missing})`}`,
    { timeout: 90_000 },
    async () => {
      const workspace = createWorkspace();
      await startSandbox(workspace);
      const served = await startServe(workspace);
      const { env } = clientEnv(workspace);
      expect((await tether(env, workspace.project, 'setup', 'claude-code', '--http')).code).toBe(0);
      const withToken = await runToExit(CLAUDE.path!, ['mcp', 'list'], { env: claudeEnv({ ...env, TETHER_TOKEN: served.token }), cwd: workspace.project, timeoutMs: 60_000 });
      expect(withToken.stdout).toMatch(new RegExp(`^tether: ${escape(served.url)} \\(HTTP\\) - ✔ Connected$`, 'm'));
      const without = await runToExit(CLAUDE.path!, ['mcp', 'list'], { env: claudeEnv(env), cwd: workspace.project, timeoutMs: 60_000 });
      expect(without.stdout).toMatch(/^tether: .* - ✘ Failed to connect .*401/m);
      expect(without.stdout).toContain('Missing environment variables: TETHER_TOKEN');
    },
  );
});

describe('the claude mcp add line tether start prints', () => {
  it.skipIf(!CLAUDE.path)(`adds the stdio server as printed${CLAUDE.path ? '' : ` (skipped: ${CLAUDE.missing})`}`, { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    const { env } = clientEnv(workspace);
    const lines = connectLines({ bin: TETHER_BIN, project: workspace.project, tokenFile: join(workspace.home, 'serve-token'), env });
    const printed = lines.find((l) => l.trimStart().startsWith('Claude Code: claude mcp add'))!;
    const args = printed.trim().slice('Claude Code: claude '.length).split(' ');
    const add = await runToExit(CLAUDE.path!, args, { env: claudeEnv(env), cwd: workspace.project, timeoutMs: 40_000 });
    expect(add.code, add.stdout + add.stderr).toBe(0);
    const get = await runToExit(CLAUDE.path!, ['mcp', 'get', 'tether'], { env: claudeEnv(env), cwd: workspace.project, timeoutMs: 40_000 });
    expect(get.stdout).toContain(`Command: ${process.execPath}`);
    expect(get.stdout).toContain(`Args: ${TETHER_BIN} mcp --project ${workspace.project}`);
    expect(get.stdout).toContain(`TETHER_HOME=${workspace.home}`);
  });
});

describe('Codex reads what tether setup wrote', () => {
  it.skipIf(!CODEX.path)(`codex mcp list and get show the stdio and HTTP tables as written${CODEX.path ? '' : ` (skipped: ${CODEX.missing})`}`, { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    mkdirSync(join(home, '.codex'), { recursive: true });
    expect((await tether(env, workspace.project, 'setup', 'codex')).code).toBe(0);
    expect((await tether(env, workspace.project, 'setup', 'codex', '--http', '--name', 'tether-http', '--url', 'http://127.0.0.1:7420/mcp')).code).toBe(0);
    const codex = (...args: string[]) => runToExit(process.execPath, [CODEX.path!, ...args], { env, cwd: workspace.project, timeoutMs: 40_000 });
    const list = await codex('mcp', 'list', '--json');
    expect(list.code, list.stderr).toBe(0);
    const servers = JSON.parse(list.stdout) as Array<{ name: string; enabled: boolean; transport: Record<string, unknown> }>;
    expect(servers.map((s) => s.name).sort()).toEqual(['tether', 'tether-http']);
    expect(servers.find((s) => s.name === 'tether')).toMatchObject({
      enabled: true,
      transport: { type: 'stdio', command: process.execPath, args: [TETHER_BIN, 'mcp', '--project', workspace.project], env: { TETHER_HOME: workspace.home } },
    });
    expect(servers.find((s) => s.name === 'tether-http')).toMatchObject({
      enabled: true,
      transport: { type: 'streamable_http', url: 'http://127.0.0.1:7420/mcp', bearer_token_env_var: 'TETHER_TOKEN', http_headers: { 'X-Tether-Project': workspace.project } },
    });
    const get = await codex('mcp', 'get', 'tether', '--json');
    expect(JSON.parse(get.stdout)).toMatchObject({ name: 'tether', transport: { type: 'stdio' } });
    expect(existsSync(join(home, '.codex', 'config.toml'))).toBe(true);
  });
});

describe('Gemini CLI reads what tether setup wrote', () => {
  it.skipIf(!GEMINI.path)(
    `gemini mcp list connects to the stdio entry, and to tether serve with the token from TETHER_TOKEN${GEMINI.path ? '' : ` (skipped: ${GEMINI.missing})`}`,
    { timeout: 120_000 },
    async () => {
      const workspace = createWorkspace();
      await startSandbox(workspace);
      const served = await startServe(workspace);
      const { home, env } = clientEnv(workspace);
      expect((await tether(env, workspace.project, 'setup', 'gemini')).code).toBe(0);
      expect((await tether(env, workspace.project, 'setup', 'gemini', '--http', '--name', 'tether-http')).code).toBe(0);
      // Gemini CLI starts no server of a folder the user has not trusted.
      mkdirSync(join(home, '.gemini'), { recursive: true });
      writeFileSync(join(home, '.gemini', 'trustedFolders.json'), JSON.stringify({ [workspace.project]: 'TRUST_FOLDER' }));
      const gemini = (extra: NodeJS.ProcessEnv) => runToExit(process.execPath, [GEMINI.path!, 'mcp', 'list'], { env: { ...env, ...extra }, cwd: workspace.project, timeoutMs: 90_000 });
      const withToken = await gemini({ TETHER_TOKEN: served.token });
      const out = withToken.stdout + withToken.stderr;
      expect(withToken.code, out).toBe(0);
      expect(out).toContain(`✓ tether: ${process.execPath} ${TETHER_BIN} mcp --project ${workspace.project} (stdio) - Connected`);
      expect(out).toContain(`✓ tether-http: ${served.url} (http) - Connected`);
      const without = await gemini({});
      expect(without.stdout + without.stderr).toContain(`✗ tether-http: ${served.url} (http) - Disconnected`);
    },
  );
});

describe('the MCP Inspector CLI reads what tether setup wrote', () => {
  it.skipIf(!NODE22)(`lists the editor's tools from the project .mcp.json as its catalog${NODE22 ? '' : ` (skipped: ${NODE22_MISSING})`}`, { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { home, env } = clientEnv(workspace);
    expect((await tether(env, workspace.project, 'setup', 'claude-code', '--scope', 'project')).code).toBe(0);
    const inspectorEnv = { ...env, MCP_CATALOG_PATH: join(home, 'inspector-catalog.json'), MCP_CLIENT_CONFIG_PATH: join(home, 'inspector-client.json'), MCP_INSPECTOR_SECRET_STORE: 'memory' };
    const run = await runToExit(NODE22!, [INSPECTOR, '--cli', '--format', 'json', '-q', '--catalog', join(workspace.project, '.mcp.json'), '--server', 'tether', '--method', 'tools/list'], {
      env: inspectorEnv,
      cwd: REPO_ROOT,
      timeoutMs: 40_000,
    });
    expect(run.code, `${run.stdout}\n${run.stderr}`).toBe(0);
    const { result } = JSON.parse(run.stdout) as { result: { tools: Array<{ name: string }> } };
    expect(result.tools.map((t) => t.name)).toEqual(expect.arrayContaining(['get_hierarchy', 'tether_status']));
  });
});

function escape(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
}
