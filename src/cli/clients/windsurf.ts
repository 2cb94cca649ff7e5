/**
 * Windsurf (Cascade). Configuration (https://docs.windsurf.com/windsurf/cascade/mcp):
 * `~/.codeium/windsurf/mcp_config.json` (`%USERPROFILE%\.codeium\windsurf\mcp_config.json`),
 * user scope only, in Claude Desktop's `mcpServers` shape; remote servers use `serverUrl`
 * and `headers`. `${env:VAR}` is interpolated in command, args, env, serverUrl, url and
 * headers. Stdio servers get Windsurf's own environment plus `env`.
 */
import { bearerFrom, envColon, inheritedEnvironment, readMcpServersEntry, stdioEntry, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type ClientContext, type McpClient } from './types.js';

function configDir(ctx: ClientContext): string {
  return ctx.paths.join(ctx.home, '.codeium', 'windsurf');
}

export const windsurf: McpClient = {
  id: 'windsurf',
  name: 'Windsurf',
  docs: ['https://docs.windsurf.com/windsurf/cascade/mcp'],
  scopes: ['user'],
  format: 'json',
  configPath: (_scope, _project, ctx) => ctx.paths.join(configDir(ctx), 'mcp_config.json'),
  serversPath: () => ['mcpServers'],
  entry(spec) {
    if (spec.transport === 'stdio') return stdioEntry(spec);
    return { serverUrl: spec.url, headers: { ...bearerFrom(`\${env:${TOKEN_VARIABLE}}`), ...spec.headers } };
  },
  read: (entry, env) => readMcpServersEntry(entry, env, ['serverUrl', 'url'], envColon),
  serverEnvironment: inheritedEnvironment,
  installedMarks: (ctx) => ({ dirs: [configDir(ctx)], commands: ['windsurf'] }),
  howToCheck: 'Windsurf Settings > Cascade > MCP servers: press refresh, the server lists its tools',
  tokenAdvice: (tokenFile) => [...variableAdvice('Windsurf', tokenFile), '  then start Windsurf from that environment.'],
};
