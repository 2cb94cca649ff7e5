/**
 * `tether doctor` through the real CLI, against real sandboxes and `tether serve`, reading the
 * configurations `tether setup` wrote (HOME in the test's folder): every step passes when all
 * is well, and each broken step is a ✗ line with its fix and exit 1.
 */
import { chmodSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, cleanupProcesses, createWorkspace, startSandbox } from '../helpers/processes.js';
import { startServe } from '../helpers/serve.js';
import { clientEnv, tether } from './setup-clients-helpers.js';

afterEach(cleanupProcesses);

interface Report {
  ok: boolean;
  checks: Array<{ ok: boolean; skipped?: boolean; title: string; detail: string; fix?: string }>;
}

function line(stdout: string, title: string): string {
  return stdout.split('\n').find((l) => l.slice(2).startsWith(`${title}:`)) ?? `(no "${title}" line in)\n${stdout}`;
}

describe('tether doctor', () => {
  it('passes every step for a client set up with tether setup, with its editor running', { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { env } = clientEnv(workspace);
    expect((await tether(env, workspace.project, 'setup', 'claude-code')).code).toBe(0);
    const result = await tether(env, workspace.project, 'doctor', '--client', 'claude-code');
    expect(result.code, result.stdout + result.stderr).toBe(0);
    expect(line(result.stdout, 'configuration')).toMatch(/^✓ configuration: .*\.claude\.json: "tether" \(stdio\)$/);
    expect(line(result.stdout, 'command')).toBe(`✓ command: ${process.execPath} ${TETHER_BIN} mcp --project ${workspace.project}`);
    expect(line(result.stdout, 'MCP initialize')).toMatch(/^✓ MCP initialize: tether \S+ \(stdio\)$/);
    expect(line(result.stdout, 'tools listed')).toMatch(/^✓ tools listed: \d+ tools$/);
    expect(line(result.stdout, 'editor reached')).toBe(`✓ editor reached: sandbox "Tether Sandbox" (ready) for ${workspace.project}`);
    expect(line(result.stdout, 'versions')).toMatch(/^✓ versions: /);
    expect(line(result.stdout, 'record and token files private')).toMatch(/^✓ /);
    expect(line(result.stdout, 'host protocol')).toMatch(/^✓ host protocol: the editor speaks protocol 1/);
    expect(line(result.stdout, 'HTTP endpoint')).toMatch(/^- HTTP endpoint: tether serve is not running/);
    expect(result.stdout.trimEnd().endsWith('All checks passed.')).toBe(true);
  });

  it('says what is missing and how to fix it: no configuration, no editor (exit 1; --json too)', { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    const missing = await tether(env, workspace.project, 'doctor', '--client', 'windsurf', '--json');
    expect(missing.code).toBe(1);
    const report = JSON.parse(missing.stdout) as Report;
    expect(report.ok).toBe(false);
    expect(report.checks[0]).toEqual({
      ok: false,
      title: 'configuration',
      detail: `${join(home, '.codeium', 'windsurf', 'mcp_config.json')} does not exist`,
      fix: `tether setup windsurf --project ${workspace.project}`,
    });

    expect((await tether(env, workspace.project, 'setup', 'cursor')).code).toBe(0);
    const noEditor = await tether(env, workspace.project, 'doctor', '--client', 'cursor', '--timeout-ms', '3000');
    expect(noEditor.code).toBe(1);
    expect(line(noEditor.stdout, 'MCP initialize')).toMatch(/^✓ /);
    expect(line(noEditor.stdout, 'editor reached')).toMatch(new RegExp(`^✗ editor reached: no editor answered for ${workspace.project}`));
    expect(noEditor.stdout).toContain(`    fix: open the project in Unity with the Tether package (tether setup unity --project ${workspace.project}), or run the sandbox (npm start)`);
  });

  it('catches a command that no longer exists, before starting anything', async () => {
    const workspace = createWorkspace();
    const { env } = clientEnv(workspace);
    const path = join(workspace.project, '.cursor', 'mcp.json');
    mkdirSync(join(workspace.project, '.cursor'), { recursive: true });
    writeFileSync(path, JSON.stringify({ mcpServers: { tether: { command: '/gone/node', args: [TETHER_BIN, 'mcp'] } } }));
    const result = await tether(env, workspace.project, 'doctor', '--client', 'cursor');
    expect(result.code).toBe(1);
    expect(line(result.stdout, 'command')).toBe('✗ command: /gone/node does not exist (node moved or was upgraded?)');
    expect(result.stdout).toContain('fix: run tether setup for this client again');
  });

  it('checks the HTTP entry with the token the client would send, the endpoint, and the files being private', { timeout: 60_000 }, async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const served = await startServe(workspace);
    const { env } = clientEnv(workspace);
    expect((await tether(env, workspace.project, 'setup', 'codex', '--http')).code).toBe(0);
    const good = await tether({ ...env, TETHER_TOKEN: served.token }, workspace.project, 'doctor', '--client', 'codex');
    expect(good.code, good.stdout).toBe(0);
    expect(line(good.stdout, 'configuration')).toMatch(/config\.toml: "tether" \(http\)$/);
    expect(line(good.stdout, 'MCP initialize')).toMatch(/^✓ MCP initialize: tether \S+ \(http\)$/);
    expect(line(good.stdout, 'editor reached')).toMatch(/^✓ /);
    expect(line(good.stdout, 'HTTP token')).toBe("✓ HTTP token: TETHER_TOKEN holds serve's token");
    expect(line(good.stdout, 'HTTP endpoint')).toBe(`✓ HTTP endpoint: ${served.url} answers /healthz with the token (every editor link up)`);
    expect(line(good.stdout, 'HTTP token required')).toBe('✓ HTTP token required: a request without the token is refused (401)');
    expect(good.stdout).not.toContain(served.token);

    // VS Code keeps the token it asked for in its secret storage: doctor checks with serve's own.
    expect((await tether(env, workspace.project, 'setup', 'vscode', '--http')).code).toBe(0);
    const vscode = await tether(env, workspace.project, 'doctor', '--client', 'vscode');
    expect(vscode.code, vscode.stdout).toBe(0);
    expect(line(vscode.stdout, 'HTTP token')).toMatch(/^- HTTP token: VS Code asks for the token/);

    const noToken = await tether(env, workspace.project, 'doctor', '--client', 'codex');
    expect(noToken.code).toBe(1);
    expect(line(noToken.stdout, 'MCP initialize')).toMatch(/^✗ MCP initialize: .*UNAUTHORIZED/);
    expect(line(noToken.stdout, 'HTTP token')).toBe('✗ HTTP token: TETHER_TOKEN is not set in this environment');

    chmodSync(join(workspace.home, 'serve-token'), 0o644);
    const exposed = await tether({ ...env, TETHER_TOKEN: served.token }, workspace.project, 'doctor', '--client', 'codex');
    expect(exposed.code).toBe(1);
    expect(line(exposed.stdout, 'record and token files private')).toMatch(new RegExp(`^✗ record and token files private: ${join(workspace.home, 'serve-token')} \\(`));
  });
});
