/**
 * Cursor. Configuration (https://cursor.com/docs/mcp): `.cursor/mcp.json` in the
 * project, or `~/.cursor/mcp.json` (`%USERPROFILE%\.cursor\mcp.json`) for every project.
 * Entries: `{"command", "args", "env"}` or `{"url", "headers"}`; `${env:NAME}`,
 * `${userHome}` and `${workspaceFolder}` are interpolated in command, args, env, url and
 * headers. Stdio servers get Cursor's own environment plus `env`.
 */
import { bearerFrom, envColon, inheritedEnvironment, readMcpServersEntry, stdioEntry, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type McpClient } from './types.js';

export const cursor: McpClient = {
  id: 'cursor',
  name: 'Cursor',
  docs: ['https://cursor.com/docs/mcp'],
  scopes: ['project', 'user'],
  format: 'json',
  configPath: (scope, project, ctx) => ctx.paths.join(scope === 'project' ? project : ctx.home, '.cursor', 'mcp.json'),
  serversPath: () => ['mcpServers'],
  entry(spec) {
    if (spec.transport === 'stdio') return stdioEntry(spec);
    return { url: spec.url, headers: { ...bearerFrom(`\${env:${TOKEN_VARIABLE}}`), ...spec.headers } };
  },
  read: (entry, env) => readMcpServersEntry(entry, env, ['url'], envColon),
  serverEnvironment: inheritedEnvironment,
  installedMarks: (ctx) => ({ dirs: [ctx.paths.join(ctx.home, '.cursor')], commands: ['cursor'] }),
  howToCheck: 'Cursor Settings > MCP (Tools & Integrations): the server shows green with its tools',
  tokenAdvice: (tokenFile) => [...variableAdvice('Cursor', tokenFile), '  then start Cursor from that environment (on macOS, from a terminal: open -a Cursor).'],
};
