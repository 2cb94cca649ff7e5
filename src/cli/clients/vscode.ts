/**
 * VS Code (GitHub Copilot's agent mode). Configuration
 * (https://code.visualstudio.com/docs/copilot/reference/mcp-configuration): `mcp.json`, in the
 * workspace (`.vscode/mcp.json`) or in the user profile (`Code/User/mcp.json` under
 * `~/Library/Application Support` on macOS, `%APPDATA%` on Windows, `~/.config` on Linux).
 * Top-level `servers` (not `mcpServers`) and `inputs`; entries `{"type": "stdio", "command",
 * "args", "env"}` or `{"type": "http", "url", "headers"}`. A secret is an input
 * `{"type": "promptString", "id", "password": true}` referenced as `${input:id}`: VS Code asks
 * for it once and keeps it in its secret storage, so it never sits in the file.
 */
import { appData, envColon, inheritedEnvironment, macApplicationSupport, readMcpServersEntry, stdioEntry, xdgConfig, type Expander } from './entries.js';
import type { ClientContext, ConfiguredServer, McpClient } from './types.js';

export const VSCODE_TOKEN_INPUT = 'tether-token';

function userDir(ctx: ClientContext): string {
  if (ctx.platform === 'darwin') return ctx.paths.join(macApplicationSupport(ctx), 'Code', 'User');
  if (ctx.platform === 'win32') return ctx.paths.join(appData(ctx), 'Code', 'User');
  return ctx.paths.join(xdgConfig(ctx), 'Code', 'User');
}

/** `${env:VAR}` as VS Code expands it; `${input:…}` is left for the prompt. */
const expand: Expander = (value, env) => envColon(value, env);

export const vscode: McpClient = {
  id: 'vscode',
  name: 'VS Code',
  docs: ['https://code.visualstudio.com/docs/copilot/reference/mcp-configuration', 'https://code.visualstudio.com/docs/copilot/chat/mcp-servers'],
  scopes: ['project', 'user'],
  format: 'json',
  configPath: (scope, project, ctx) => (scope === 'project' ? ctx.paths.join(project, '.vscode', 'mcp.json') : ctx.paths.join(userDir(ctx), 'mcp.json')),
  serversPath: () => ['servers'],
  entry(spec) {
    if (spec.transport === 'stdio') return stdioEntry(spec, 'stdio');
    return { type: 'http', url: spec.url, headers: { Authorization: `Bearer \${input:${VSCODE_TOKEN_INPUT}}`, ...spec.headers } };
  },
  addExtras(document, spec) {
    if (spec.transport !== 'http') return;
    const input = { type: 'promptString', id: VSCODE_TOKEN_INPUT, description: "Tether's bearer token (the contents of the serve-token file under TETHER_HOME)", password: true };
    const inputs = Array.isArray(document.inputs) ? (document.inputs as unknown[]) : [];
    const others = inputs.filter((i) => !(typeof i === 'object' && i !== null && (i as { id?: unknown }).id === VSCODE_TOKEN_INPUT));
    document.inputs = [...others, input];
  },
  read(entry, env): ConfiguredServer | { error: string } {
    const server = readMcpServersEntry(entry, env, ['url'], expand);
    if ('error' in server || server.transport !== 'http') return server;
    const authorization = Object.entries((entry as { headers?: Record<string, unknown> }).headers ?? {}).find(([k]) => k.toLowerCase() === 'authorization')?.[1];
    if (typeof authorization === 'string' && authorization.includes('${input:')) {
      return { ...server, tokenSource: { kind: 'prompt', note: 'VS Code asks for the token the first time it starts the server and keeps it in its secret storage' } };
    }
    return server;
  },
  serverEnvironment: inheritedEnvironment,
  installedMarks: (ctx) => ({ dirs: [userDir(ctx)], commands: ['code'] }),
  howToCheck: 'in VS Code, run "MCP: List Servers" from the Command Palette (the server starts, its tools appear in Chat > Tools)',
  tokenAdvice: (tokenFile) => [`VS Code asks for the token the first time it starts the server: paste the contents of ${tokenFile}. It keeps it in its secret storage, not in mcp.json.`],
};
