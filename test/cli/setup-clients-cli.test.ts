/**
 * `tether setup <client>` and `tether setup` through the real CLI, with HOME (and every
 * variable that moves a client's files) pointed into the test's folder: the files it writes,
 * merged with what was there, the backup, nothing written when the entry is right or on
 * --dry-run, no token anywhere, and usage errors with exit 2.
 */
import { existsSync, mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { TETHER_BIN, cleanupProcesses, createWorkspace } from '../helpers/processes.js';
import { clientEnv, tether } from './setup-clients-helpers.js';

afterEach(cleanupProcesses);

function filesUnder(dir: string): string[] {
  if (!existsSync(dir)) return [];
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((d) => d.isFile())
    .map((d) => join(d.parentPath, d.name));
}

describe('tether setup <client>', () => {
  it('merges into the file that is there, keeps a backup, and changes nothing the second time', async () => {
    const workspace = createWorkspace();
    const { env } = clientEnv(workspace);
    const path = join(workspace.project, '.cursor', 'mcp.json');
    mkdirSync(dirname(path), { recursive: true });
    const original = `${JSON.stringify({ mcpServers: { github: { command: 'npx', args: ['-y', 'gh-mcp'] } }, other: true }, null, 2)}\n`;
    writeFileSync(path, original);

    const first = await tether(env, workspace.project, 'setup', 'cursor');
    expect(first.code, first.stderr).toBe(0);
    expect(first.stdout).toContain(`Cursor (project scope): Added "tether" to ${path}`);
    const written = JSON.parse(readFileSync(path, 'utf8')) as { mcpServers: Record<string, { command: string; args: string[]; env?: Record<string, string> }>; other: boolean };
    expect(written.other).toBe(true);
    expect(written.mcpServers.github).toEqual({ command: 'npx', args: ['-y', 'gh-mcp'] });
    expect(written.mcpServers.tether).toEqual({ command: process.execPath, args: [TETHER_BIN, 'mcp', '--project', workspace.project], env: { TETHER_HOME: workspace.home } });
    const backups = readdirSync(dirname(path)).filter((f) => f.startsWith('mcp.json.tether-backup-'));
    expect(backups).toHaveLength(1);
    expect(readFileSync(join(dirname(path), backups[0]!), 'utf8')).toBe(original);

    const second = await tether(env, workspace.project, 'setup', 'cursor');
    expect(second.code).toBe(0);
    expect(second.stdout).toContain('nothing to change');
    expect(readdirSync(dirname(path)).filter((f) => f.includes('tether-backup'))).toHaveLength(1);
  });

  it('--dry-run shows the change and writes nothing', async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    const result = await tether(env, workspace.project, 'setup', 'windsurf', '--dry-run');
    expect(result.code, result.stderr).toBe(0);
    const path = join(home, '.codeium', 'windsurf', 'mcp_config.json');
    expect(result.stdout).toContain(`Dry run: Windsurf (user scope) would create ${path}:`);
    expect(result.stdout).toContain('+ "tether": {');
    expect(result.stdout).toContain('Nothing was written.');
    expect(existsSync(path)).toBe(false);
  });

  it('--http references the token through each client’s own variable syntax and never writes it', async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    const token = 'the-token-that-must-stay-in-tether-home-0123456789';
    mkdirSync(workspace.home, { recursive: true, mode: 0o700 });
    writeFileSync(join(workspace.home, 'serve-token'), `${token}\n`, { mode: 0o600 });
    for (const id of ['claude-code', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini']) {
      const result = await tether({ ...env, TETHER_TOKEN: token }, workspace.project, 'setup', id, '--http', '--url', 'http://127.0.0.1:7999/mcp');
      expect(result.code, `${id}: ${result.stderr}`).toBe(0);
      expect(result.stdout, id).not.toContain(token);
    }
    const files = [...filesUnder(home), ...filesUnder(workspace.project)].filter((f) => /mcp|settings\.json|config\.toml|claude\.json/.test(f));
    expect(files.length).toBeGreaterThanOrEqual(6);
    for (const file of files) expect(readFileSync(file, 'utf8'), file).not.toContain(token);
    expect(readFileSync(join(home, '.codex', 'config.toml'), 'utf8')).toContain('bearer_token_env_var = "TETHER_TOKEN"');
    expect(readFileSync(join(workspace.project, '.vscode', 'mcp.json'), 'utf8')).toContain('"password": true');
  });

  it('refuses, with exit 2, an unknown client, a scope the client lacks, HTTP for Claude Desktop, a file it cannot parse', async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    const unknown = await tether(env, workspace.project, 'setup', 'notepad');
    expect(unknown.code).toBe(2);
    const scope = await tether(env, workspace.project, 'setup', 'windsurf', '--scope', 'project');
    expect(scope.code).toBe(2);
    expect(scope.stderr).toContain("'project' is invalid");
    const desktop = await tether(env, workspace.project, 'setup', 'claude-desktop', '--http');
    expect(desktop.code).toBe(2);
    expect(desktop.stderr).toContain('stdio servers only');
    const path = join(home, '.gemini', 'settings.json');
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, '{ "theme": "x", }');
    const broken = await tether(env, workspace.project, 'setup', 'gemini', '--scope', 'user');
    expect(broken.code).toBe(1);
    expect(broken.stderr).toContain(`${path} is not valid JSON`);
    expect(broken.stderr).toContain('"tether": {');
    expect(readFileSync(path, 'utf8')).toBe('{ "theme": "x", }');
  });

  it('alone, lists the clients it finds and which have Tether', async () => {
    const workspace = createWorkspace();
    const { home, env } = clientEnv(workspace);
    mkdirSync(join(home, '.cursor'), { recursive: true });
    expect((await tether(env, workspace.project, 'setup', 'codex')).code).toBe(0);
    const result = await tether({ ...env, PATH: '/nonexistent' }, workspace.project, 'setup');
    expect(result.code, result.stderr).toBe(0);
    expect(result.stdout).toMatch(/Cursor +installed; no "tether" for this project: tether setup cursor/);
    expect(result.stdout).toMatch(new RegExp(`Codex +installed; has "tether" \\(user scope, ${join(home, '.codex', 'config.toml')}\\)`));
    expect(result.stdout).toMatch(/Claude Desktop +not found \(tether setup claude-desktop writes /);
  });
});
