/**
 * Where Claude Code and Claude Desktop are set up on another OS than this one, and how doctor
 * tells that its editor is the project's. Windows is exercised through an injected platform:
 * path.win32 where only strings are computed, path.posix over a real temporary folder where
 * the file system is read (Claude Desktop's MSIX package folders, ~/.claude.json).
 */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path, { dirname, join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { claudeCode, projectKey } from '../../src/cli/clients/claude-code.js';
import { AmbiguousClaudeDesktopConfigError, claudeDesktop } from '../../src/cli/clients/claude-desktop.js';
import { parseDocument, valueAt, withServer } from '../../src/cli/clients/config-document.js';
import { fileChecks, samePath, windowsHomeCheck } from '../../src/cli/clients/doctor-checks.js';
import type { ClientContext, ServerSpec } from '../../src/cli/clients/types.js';
import { run as doctor } from '../../src/cli/commands/doctor.js';
import { listClients } from '../../src/cli/commands/setup-client.js';
import { writeHostRecord } from '../../src/discovery/host-record.js';
import { ExitError } from '../../src/cli/exit-error.js';

const folders: string[] = [];
function folder(): string {
  const dir = mkdtempSync(join(tmpdir(), 'tether-xp-'));
  folders.push(dir);
  return dir;
}
afterEach(() => {
  vi.restoreAllMocks();
  for (const dir of folders.splice(0)) rmSync(dir, { recursive: true, force: true });
});

const windows: ClientContext = { platform: 'win32', home: 'C:\\Users\\ada', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, paths: path.win32 };
const STDIO: ServerSpec = { transport: 'stdio', command: 'C:\\Program Files\\nodejs\\node.exe', args: ['C:\\tether\\bin\\tether.js', 'mcp', '--project', 'C:\\work\\Game'], env: {} };

describe('Claude Code’s local scope on Windows: the projects key Claude Code reads', () => {
  it('is the project path with forward slashes, the drive letter as given', () => {
    expect(projectKey('C:\\work\\Game', windows, undefined)).toBe('C:/work/Game');
    expect(projectKey('d:\\work\\Game', windows, {})).toBe('d:/work/Game');
    expect(projectKey('\\\\server\\share\\Game', windows, {})).toBe('//server/share/Game');
    expect(projectKey('/work/Game', { ...windows, platform: 'linux', paths: path.posix }, { '/work/game': {} })).toBe('/work/Game');
  });

  it('is the key already there for the folder, whatever its slashes and case', () => {
    expect(projectKey('C:\\work\\Game', windows, { 'c:/work/game': {} })).toBe('c:/work/game');
    expect(projectKey('C:\\work\\Game', windows, { 'C:\\work\\Game': {} })).toBe('C:\\work\\Game');
    expect(projectKey('C:\\work\\Game', windows, { 'C:\\work\\Game': {}, 'c:/work/Game/': {} })).toBe('c:/work/Game/');
    expect(projectKey('C:\\work\\Game', windows, { 'C:/work/Game': {}, 'c:/work/game': {} })).toBe('C:/work/Game');
    expect(projectKey('C:\\work\\Game', windows, { 'C:/work/Game2': {} })).toBe('C:/work/Game');
  });

  it('tether setup writes into the entry Claude Code made, and doctor and the listing read it there', () => {
    const dir = folder();
    const file = join(dir, '.claude.json');
    const existing = `${JSON.stringify({ projects: { 'C:/work/Game': { allowedTools: [], mcpServers: {} } } }, null, 2)}\n`;
    writeFileSync(file, existing);
    // Windows, reading a real ~/.claude.json: CLAUDE_CONFIG_DIR points at it.
    const ctx: ClientContext = { platform: 'win32', home: dir, env: { CLAUDE_CONFIG_DIR: dir }, paths: path.posix };
    const keys = claudeCode.serversPath('local', 'C:\\work\\Game', ctx);
    expect(keys).toEqual(['projects', 'C:/work/Game', 'mcpServers']);
    const change = withServer({ path: file, format: 'json', exists: true, text: existing, document: parseDocument(existing, 'json', file) }, claudeCode, keys, 'tether', claudeCode.entry(STDIO));
    if (change.kind === 'unchanged') throw new Error('expected a change');
    const written = parseDocument(change.text, 'json', file);
    expect(Object.keys(written.projects as object)).toEqual(['C:/work/Game']);
    writeFileSync(file, change.text);
    expect(valueAt(written, [...claudeCode.serversPath('local', 'C:\\work\\Game', ctx), 'tether'])).toEqual(claudeCode.entry(STDIO));
  });
});

describe('Claude Desktop on Windows: the MSIX package’s configuration when there is one', () => {
  function machine(): { ctx: ClientContext; local: string; roaming: string } {
    const dir = folder();
    const local = join(dir, 'AppData', 'Local');
    const roaming = join(dir, 'AppData', 'Roaming');
    mkdirSync(join(local, 'Packages', 'Microsoft.WindowsTerminal_8wekyb3d8bbwe'), { recursive: true });
    return { ctx: { platform: 'win32', home: dir, env: { APPDATA: roaming, LOCALAPPDATA: local, TETHER_HOME: join(dir, 'tether') }, paths: path.posix }, local, roaming };
  }
  const msix = (local: string, id: string): string => {
    const dir = join(local, 'Packages', id, 'LocalCache', 'Roaming', 'Claude');
    mkdirSync(dir, { recursive: true });
    return dir;
  };

  it('%APPDATA%\\Claude without a package (an older install), and with a package folder the app never ran in', () => {
    const { ctx, local, roaming } = machine();
    expect(claudeDesktop.configPath('user', 'C:\\work\\Game', ctx)).toBe(join(roaming, 'Claude', 'claude_desktop_config.json'));
    mkdirSync(join(local, 'Packages', 'Claude_pzs8sxrjxfjjc'), { recursive: true });
    expect(claudeDesktop.configPath('user', 'C:\\work\\Game', ctx)).toBe(join(roaming, 'Claude', 'claude_desktop_config.json'));
    expect(claudeDesktop.configPath('user', 'C:\\work\\Game', windows)).toBe('C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json');
  });

  it('LocalCache\\Roaming\\Claude of the one package, for setup, doctor and the listing alike', async () => {
    const { ctx, local } = machine();
    const dir = msix(local, 'Claude_pzs8sxrjxfjjc');
    const file = join(dir, 'claude_desktop_config.json');
    expect(claudeDesktop.configPath('user', 'C:\\work\\Game', ctx)).toBe(file);
    expect(claudeDesktop.installedMarks(ctx).dirs).toContain(dir);
    writeFileSync(file, JSON.stringify({ mcpServers: { tether: { command: '/gone/node', args: ['/gone/tether.js', 'mcp'] } } }));
    const project = folder();
    expect(listClients(project, 'tether', ctx).find((l) => l.includes('Claude Desktop'))).toContain(`has "tether" (user scope, ${file})`);
    let out = '';
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk) => ((out += String(chunk)), true));
    expect(await doctor({ client: 'claude-desktop', project, json: true }, ctx)).toBe(1);
    const report = JSON.parse(out) as { checks: Array<{ ok: boolean; title: string; detail: string }> };
    expect(report.checks[0]).toEqual({ ok: true, title: 'configuration', detail: `${file}: "tether" (stdio)` });
  });

  it('refuses to guess between several packages, naming them (setup, doctor and the listing)', async () => {
    const { ctx, local } = machine();
    const a = msix(local, 'Claude_pzs8sxrjxfjjc');
    const b = msix(local, 'Claude_0123456789abc');
    const refusal = (): unknown => {
      try {
        claudeDesktop.configPath('user', 'C:\\work\\Game', ctx);
      } catch (error) {
        return error;
      }
      return undefined;
    };
    const error = refusal();
    expect(error).toBeInstanceOf(AmbiguousClaudeDesktopConfigError);
    expect(error).toBeInstanceOf(ExitError);
    expect((error as AmbiguousClaudeDesktopConfigError).folders).toEqual([b, a]);
    expect((error as Error).message).toContain(`cannot tell which one the app reads: ${b}, ${a}`);
    const project = folder();
    // The listing says so on Claude Desktop's line, and still lists the other clients.
    const listed = listClients(project, 'tether', ctx);
    expect(listed.find((line) => line.trimStart().startsWith('Claude Desktop'))).toContain(`cannot tell which one the app reads: ${b}, ${a}`);
    expect(listed.some((line) => line.trimStart().startsWith('Cursor'))).toBe(true);
    await expect(doctor({ client: 'claude-desktop', project }, ctx)).rejects.toThrow(AmbiguousClaudeDesktopConfigError);
  });
});

describe('doctor: the editor’s project and --project, as one folder however named', () => {
  it('follows links, as editor selection does (macOS: /tmp is /private/tmp; the on-disk case on APFS and NTFS)', () => {
    const dir = folder();
    const real = join(dir, 'Unity', 'MyGame');
    mkdirSync(real, { recursive: true });
    const link = join(dir, 'unity');
    symlinkSync(join(dir, 'Unity'), link);
    expect(samePath(real, join(link, 'MyGame'))).toBe(true);
    expect(samePath(`${real}/`, real)).toBe(true);
    expect(samePath(real, join(dir, 'Unity'))).toBe(false);

    // The host record of the editor, found for the project named the other way.
    const home = join(dir, 'tether');
    mkdirSync(home, { mode: 0o700 });
    const record = { instanceId: 'i', pid: process.pid, port: 1, host: '127.0.0.1', token: 't', projectPath: real, kind: 'unity', protocolVersion: 1, startedAt: new Date().toISOString() };
    writeHostRecord(record, join(home, 'hosts'));
    expect(fileChecks(home, join(link, 'MyGame')).map((c) => c.title)).toContain('host protocol');
  });

  it("says on Windows what keeps TETHER_HOME private, the profile's access list, instead of modes it cannot check", () => {
    const home = folder();
    const inside = fileChecks(home, home, true, dirname(home));
    expect(inside.find((c) => c.title === 'TETHER_HOME private')).toMatchObject({ ok: true, detail: expect.stringContaining('under your user profile') });
    expect(inside.find((c) => c.title === 'record and token files private')).toMatchObject({ skipped: true, detail: expect.stringContaining('Windows has no file modes') });
    expect(windowsHomeCheck('C:\\Users\\Ana\\AppData\\Local\\tether', 'c:\\users\\ana')).toMatchObject({ ok: true });
    expect(windowsHomeCheck('C:\\tether', 'C:\\Users\\ana')).toMatchObject({ ok: false, detail: expect.stringContaining('outside your user profile'), fix: expect.stringContaining('icacls') });
    expect(windowsHomeCheck('C:\\Users\\anatole\\tether', 'C:\\Users\\ana')).toMatchObject({ ok: false });
  });
});
