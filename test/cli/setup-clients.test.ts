/**
 * The MCP clients `tether setup` writes for, without running them: where each keeps its
 * configuration on macOS, Windows and Linux (path.posix and path.win32), each entry checked
 * against the client's documented schema (written out below from its pages, cited in each
 * client's module), no token in any of them, and the merge: other servers and settings kept,
 * nothing changed when the entry is right, TOML comments kept.
 */
import { readFileSync } from 'node:fs';
import path, { join } from 'node:path';
import { Ajv } from 'ajv';
import { parse as parseToml } from 'smol-toml';
import { describe, expect, it } from 'vitest';
import { parseDocument, withServer, type ConfigFile } from '../../src/cli/clients/config-document.js';
import { dollarBrace, envColon, shellStyle } from '../../src/cli/clients/entries.js';
import { CLIENTS, findClient } from '../../src/cli/clients/registry.js';
import type { ClientContext, McpClient, Scope, ServerSpec } from '../../src/cli/clients/types.js';
import { REPO_ROOT } from '../helpers/processes.js';

const mac: ClientContext = { platform: 'darwin', home: '/Users/ada', env: {}, paths: path.posix };
const linux: ClientContext = { platform: 'linux', home: '/home/ada', env: {}, paths: path.posix };
const windows: ClientContext = { platform: 'win32', home: 'C:\\Users\\ada', env: { APPDATA: 'C:\\Users\\ada\\AppData\\Roaming' }, paths: path.win32 };

const STDIO: ServerSpec = { transport: 'stdio', command: '/opt/node/bin/node', args: ['/opt/tether/bin/tether.js', 'mcp', '--project', '/work/Game'], env: { TETHER_HOME: '/tmp/th' } };
const HTTP: ServerSpec = { transport: 'http', url: 'http://127.0.0.1:7420/mcp', headers: { 'X-Tether-Project': '/work/Game' } };
const TOKEN = 'secret-token-value-that-must-never-be-written';

function client(id: string): McpClient {
  const found = findClient(id);
  if (!found) throw new Error(`no client ${id}`);
  return found;
}

describe('where each client keeps its configuration', () => {
  const cases: Array<[string, Scope, ClientContext, string]> = [
    ['claude-code', 'project', linux, '/work/Game/.mcp.json'],
    ['claude-code', 'local', linux, '/home/ada/.claude.json'],
    ['claude-code', 'user', windows, 'C:\\Users\\ada\\.claude.json'],
    ['claude-desktop', 'user', mac, '/Users/ada/Library/Application Support/Claude/claude_desktop_config.json'],
    ['claude-desktop', 'user', windows, 'C:\\Users\\ada\\AppData\\Roaming\\Claude\\claude_desktop_config.json'],
    ['claude-desktop', 'user', linux, '/home/ada/.config/Claude/claude_desktop_config.json'],
    ['cursor', 'project', linux, '/work/Game/.cursor/mcp.json'],
    ['cursor', 'user', windows, 'C:\\Users\\ada\\.cursor\\mcp.json'],
    ['vscode', 'project', mac, '/work/Game/.vscode/mcp.json'],
    ['vscode', 'user', mac, '/Users/ada/Library/Application Support/Code/User/mcp.json'],
    ['vscode', 'user', windows, 'C:\\Users\\ada\\AppData\\Roaming\\Code\\User\\mcp.json'],
    ['vscode', 'user', linux, '/home/ada/.config/Code/User/mcp.json'],
    ['windsurf', 'user', mac, '/Users/ada/.codeium/windsurf/mcp_config.json'],
    ['windsurf', 'user', windows, 'C:\\Users\\ada\\.codeium\\windsurf\\mcp_config.json'],
    ['codex', 'user', linux, '/home/ada/.codex/config.toml'],
    ['codex', 'user', windows, 'C:\\Users\\ada\\.codex\\config.toml'],
    ['codex', 'project', linux, '/work/Game/.codex/config.toml'],
    ['gemini', 'project', linux, '/work/Game/.gemini/settings.json'],
    ['gemini', 'user', windows, 'C:\\Users\\ada\\.gemini\\settings.json'],
  ];
  it.each(cases)('%s, %s scope, %s', (id, scope, ctx, expected) => {
    const project = ctx.paths === path.win32 ? 'C:\\work\\Game' : '/work/Game';
    const actual = client(id).configPath(scope, project, ctx);
    expect(actual).toBe(ctx.paths === path.win32 ? expected.replace('\\work\\Game', project.slice(2)) : expected);
  });

  it('follows the variables that move them: CLAUDE_CONFIG_DIR, CODEX_HOME, XDG_CONFIG_HOME', () => {
    const env = { CLAUDE_CONFIG_DIR: '/cfg/claude', CODEX_HOME: '/cfg/codex', XDG_CONFIG_HOME: '/cfg/xdg' };
    const ctx = { ...linux, env };
    expect(client('claude-code').configPath('user', '/p', ctx)).toBe('/cfg/claude/.claude.json');
    expect(client('codex').configPath('user', '/p', ctx)).toBe('/cfg/codex/config.toml');
    expect(client('vscode').configPath('user', '/p', ctx)).toBe('/cfg/xdg/Code/User/mcp.json');
  });

  it('README\'s "Connect your agent" has a tether setup line for each client', () => {
    const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
    const section = readme.slice(readme.indexOf('## Connect your agent'), readme.indexOf('\n## ', readme.indexOf('## Connect your agent') + 1));
    for (const c of CLIENTS) expect(section, c.id).toContain(`| ${c.name} | \`tether setup ${c.id}\` |`);
  });

  it('names each client once, with its documentation', () => {
    expect(CLIENTS.map((c) => c.id)).toEqual(['claude-code', 'claude-desktop', 'cursor', 'vscode', 'windsurf', 'codex', 'gemini']);
    for (const c of CLIENTS) expect(c.docs.length, c.id).toBeGreaterThan(0);
    expect(findClient('claude')?.id).toBe('claude-code');
    expect(findClient('gemini-cli')?.id).toBe('gemini');
  });
});

/** Each client's entry schema, from its documentation. */
const stdioMcpServers = {
  type: 'object',
  required: ['command'],
  additionalProperties: false,
  properties: { command: { type: 'string' }, args: { type: 'array', items: { type: 'string' } }, env: { type: 'object', additionalProperties: { type: 'string' } } },
};
const headers = { type: 'object', additionalProperties: { type: 'string' } };
const SCHEMAS: Record<string, { stdio: object; http?: object; document?: (d: Record<string, unknown>) => void }> = {
  'claude-code': {
    stdio: { ...stdioMcpServers, required: ['type', 'command'], properties: { ...stdioMcpServers.properties, type: { const: 'stdio' } } },
    http: { type: 'object', required: ['type', 'url'], additionalProperties: false, properties: { type: { const: 'http' }, url: { type: 'string' }, headers } },
  },
  'claude-desktop': { stdio: stdioMcpServers },
  cursor: { stdio: stdioMcpServers, http: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string' }, headers } } },
  windsurf: { stdio: stdioMcpServers, http: { type: 'object', required: ['serverUrl'], additionalProperties: false, properties: { serverUrl: { type: 'string' }, headers } } },
  gemini: { stdio: stdioMcpServers, http: { type: 'object', required: ['httpUrl'], additionalProperties: false, properties: { httpUrl: { type: 'string' }, headers } } },
  vscode: {
    stdio: { ...stdioMcpServers, required: ['type', 'command'], properties: { ...stdioMcpServers.properties, type: { const: 'stdio' } } },
    http: { type: 'object', required: ['type', 'url'], additionalProperties: false, properties: { type: { const: 'http' }, url: { type: 'string' }, headers } },
  },
  codex: {
    stdio: stdioMcpServers,
    http: { type: 'object', required: ['url'], additionalProperties: false, properties: { url: { type: 'string' }, bearer_token_env_var: { type: 'string' }, http_headers: headers } },
  },
};

function written(c: McpClient, spec: ServerSpec, scope: Scope = c.scopes[0]!, existing = ''): { text: string; document: Record<string, unknown> } {
  const file: ConfigFile = { path: 'config', format: c.format, exists: existing !== '', text: existing, document: parseDocument(existing, c.format, 'config') };
  const change = withServer(file, c, c.serversPath(scope, '/work/Game'), 'tether', c.entry(spec), c.addExtras ? (d) => c.addExtras!(d, spec) : undefined);
  if (change.kind === 'unchanged') throw new Error('expected a change');
  return { text: change.text, document: parseDocument(change.text, c.format, 'config') };
}

describe('each client’s entry, checked against its documented schema', () => {
  const ajv = new Ajv({ strict: false });
  for (const c of CLIENTS) {
    it(`${c.id}: stdio${c.noHttp ? '' : ' and HTTP'}, in the file's documented place, with no token`, () => {
      const schemas = SCHEMAS[c.id]!;
      for (const [spec, schema] of [[STDIO, schemas.stdio], ...(c.noHttp ? [] : [[HTTP, schemas.http!]])] as Array<[ServerSpec, object]>) {
        const { text, document } = written(c, spec);
        const servers = c.id === 'claude-code' ? (document.projects as Record<string, Record<string, unknown>>)['/work/Game']!.mcpServers : document[c.serversPath(c.scopes[0]!, '/work/Game')[0]!];
        const entry = (servers as Record<string, unknown>).tether;
        const validate = ajv.compile(schema);
        expect(validate(entry), `${c.id} ${spec.transport}: ${JSON.stringify(validate.errors)}\n${text}`).toBe(true);
        expect(text).not.toContain(TOKEN);
        expect(text).not.toMatch(/bearer_token\s*=/);
      }
    });
  }

  it('VS Code: "servers" (not "mcpServers"), and the token as a password input', () => {
    const { document } = written(client('vscode'), HTTP);
    expect(Object.keys(document)).toEqual(['servers', 'inputs']);
    expect(document.inputs).toEqual([{ type: 'promptString', id: 'tether-token', description: expect.any(String), password: true }]);
    expect((document.servers as Record<string, { headers: Record<string, string> }>).tether!.headers.Authorization).toBe('Bearer ${input:tether-token}');
  });

  it('the HTTP token is referenced in each client’s own syntax', () => {
    const authorization = (id: string): string => {
      const entry = client(id).entry(HTTP) as { headers: Record<string, string> };
      return entry.headers.Authorization!;
    };
    expect(authorization('claude-code')).toBe('Bearer ${TETHER_TOKEN}');
    expect(authorization('cursor')).toBe('Bearer ${env:TETHER_TOKEN}');
    expect(authorization('windsurf')).toBe('Bearer ${env:TETHER_TOKEN}');
    expect(authorization('gemini')).toBe('Bearer ${TETHER_TOKEN}');
    const codex = parseToml(written(client('codex'), HTTP).text) as { mcp_servers: { tether: Record<string, unknown> } };
    expect(codex.mcp_servers.tether).toEqual({ url: HTTP.url, bearer_token_env_var: 'TETHER_TOKEN', http_headers: { 'X-Tether-Project': '/work/Game' } });
  });

  it('Claude Desktop takes no HTTP entry, and says why', () => {
    expect(client('claude-desktop').noHttp).toMatch(/stdio servers only/);
  });

  it('reads back what it wrote as the client would, with the variables expanded', () => {
    const env = { TETHER_TOKEN: TOKEN };
    for (const c of CLIENTS) {
      expect(c.read(c.entry(STDIO), env), c.id).toEqual({ transport: 'stdio', command: STDIO.command, args: STDIO.args, env: STDIO.env });
      if (c.noHttp) continue;
      const server = c.read(c.entry(HTTP), env);
      if ('error' in server || server.transport !== 'http') throw new Error(`${c.id}: ${JSON.stringify(server)}`);
      expect(server.url, c.id).toBe(HTTP.url);
      if (c.id === 'vscode') expect(server.tokenSource.kind).toBe('prompt');
      else {
        expect(server.headers.Authorization, c.id).toBe(`Bearer ${TOKEN}`);
        expect(server.tokenSource, c.id).toEqual({ kind: 'variable', name: 'TETHER_TOKEN', value: TOKEN });
      }
    }
  });

  it('expands each syntax, and only its own', () => {
    const env = { A: 'x' };
    expect(dollarBrace('${A}-${B:-dflt}-$A-${env:A}', env).value).toBe('x-dflt-$A-${env:A}');
    expect(envColon('${env:A}-${A}', env).value).toBe('x-${A}');
    expect(shellStyle('$A-${A}', env).value).toBe('x-x');
  });

  it('gives a stdio server the environment the client gives it: all of its own, or a short list', () => {
    const own = { HOME: '/h', PATH: '/bin', SECRET: 's' };
    expect(client('claude-code').serverEnvironment({ X: '1' }, own)).toEqual({ ...own, X: '1' });
    expect(client('codex').serverEnvironment({ X: '1' }, own)).toEqual({ HOME: '/h', PATH: '/bin', X: '1' });
    expect(client('claude-desktop').serverEnvironment({}, own)).toEqual({ HOME: '/h', PATH: '/bin' });
  });
});

describe('merging into a file that is there', () => {
  it('keeps other servers and settings, its indentation and line endings; writes nothing when it is right', () => {
    const c = client('cursor');
    const existing = '{\r\n    "mcpServers": {\r\n        "github": { "command": "npx", "args": ["gh"] }\r\n    },\r\n    "theme": "dark"\r\n}\r\n';
    const { text, document } = written(c, STDIO, 'project', existing);
    expect(document).toEqual({ mcpServers: { github: { command: 'npx', args: ['gh'] }, tether: c.entry(STDIO) }, theme: 'dark' });
    expect(text).toContain('\r\n        "github": {');
    expect(text.endsWith('}\r\n')).toBe(true);
    const again = withServer({ path: 'x', format: 'json', exists: true, text, document }, c, ['mcpServers'], 'tether', c.entry(STDIO));
    expect(again.kind).toBe('unchanged');
    const http = withServer({ path: 'x', format: 'json', exists: true, text, document }, c, ['mcpServers'], 'tether', c.entry(HTTP));
    expect(http).toMatchObject({ kind: 'replaced', previous: c.entry(STDIO) });
  });

  it('puts Claude Code’s local scope under projects[dir] and keeps the rest of ~/.claude.json', () => {
    const c = client('claude-code');
    const existing = JSON.stringify({ numStartups: 3, projects: { '/other': { mcpServers: { x: { command: 'y' } } } } });
    const { document } = written(c, STDIO, 'local', existing);
    expect(document).toEqual({ numStartups: 3, projects: { '/other': { mcpServers: { x: { command: 'y' } } }, '/work/Game': { mcpServers: { tether: c.entry(STDIO) } } } });
  });

  it('edits Codex’s TOML as text: comments and other tables stay, the old Tether table is replaced', () => {
    const c = client('codex');
    const existing = [
      '# my settings',
      'model = "o3"',
      '',
      '[mcp_servers.tether]',
      'command = "old"',
      '',
      '[mcp_servers.tether.env]',
      'A = "1"',
      '',
      '[mcp_servers.docs] # the docs server',
      'url = "https://example.com/mcp"',
      '',
    ].join('\n');
    const { text, document } = written(c, STDIO, 'user', existing);
    expect(text).toContain('# my settings\nmodel = "o3"');
    expect(text).toContain('[mcp_servers.docs] # the docs server');
    expect(text).not.toContain('command = "old"');
    expect(document).toEqual({ model: 'o3', mcp_servers: { docs: { url: 'https://example.com/mcp' }, tether: { command: STDIO.command, args: STDIO.args, env: STDIO.env } } });
    const again = withServer({ path: 'x', format: 'toml', exists: true, text, document }, c, ['mcp_servers'], 'tether', c.entry(STDIO));
    expect(again.kind).toBe('unchanged');
  });

  it('refuses a file it cannot parse, saying so', () => {
    expect(() => parseDocument('{ "mcpServers": {}, // mine\n}', 'json', '/x/mcp.json')).toThrow(/not valid JSON \(it seems to hold comments/);
    expect(() => parseDocument('[1]', 'json', '/x/mcp.json')).toThrow(/does not hold a JSON object/);
    expect(parseDocument('\uFEFF', 'json', 'x')).toEqual({});
  });
});
