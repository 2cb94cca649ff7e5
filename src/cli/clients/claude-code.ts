/**
 * Claude Code. Configuration (https://code.claude.com/docs/en/mcp, "MCP installation scopes"
 * and "Environment variable expansion in .mcp.json"):
 * - project scope: `.mcp.json` at the project root, meant to be committed (shared with the team);
 * - local scope (the default of `claude mcp add`): `~/.claude.json`, under `projects["<dir>"].mcpServers`;
 * - user scope: `~/.claude.json`, top-level `mcpServers`.
 * `~/.claude.json` is `%USERPROFILE%\.claude.json` on Windows; `$CLAUDE_CONFIG_DIR` moves it.
 * Entries: `{"type": "stdio", "command", "args", "env"}` or `{"type": "http", "url", "headers"}`;
 * `${VAR}` and `${VAR:-default}` are expanded in command, args, env, url and headers. Claude
 * Code gives a stdio server its own environment plus `env`.
 */
import { bearerFrom, dollarBrace, inheritedEnvironment, readMcpServersEntry, stdioEntry, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type ClientContext, type McpClient, type Scope } from './types.js';

function userFile(ctx: ClientContext): string {
  return ctx.paths.join(ctx.env.CLAUDE_CONFIG_DIR ?? ctx.home, '.claude.json');
}

export const claudeCode: McpClient = {
  id: 'claude-code',
  name: 'Claude Code',
  docs: ['https://code.claude.com/docs/en/mcp'],
  scopes: ['local', 'project', 'user'],
  format: 'json',
  configPath(scope: Scope, project: string, ctx: ClientContext): string {
    return scope === 'project' ? ctx.paths.join(project, '.mcp.json') : userFile(ctx);
  },
  serversPath(scope: Scope, project: string): string[] {
    return scope === 'local' ? ['projects', project, 'mcpServers'] : ['mcpServers'];
  },
  entry(spec) {
    if (spec.transport === 'stdio') return stdioEntry(spec, 'stdio');
    return { type: 'http', url: spec.url, headers: { ...bearerFrom(`\${${TOKEN_VARIABLE}}`), ...spec.headers } };
  },
  read: (entry, env) => readMcpServersEntry(entry, env, ['url'], dollarBrace),
  serverEnvironment: inheritedEnvironment,
  installedMarks: (ctx) => ({ dirs: [ctx.paths.join(ctx.home, '.claude'), userFile(ctx)], commands: ['claude'] }),
  howToCheck: 'claude mcp list (in the project folder), or /mcp inside Claude Code',
  tokenAdvice: (tokenFile) => variableAdvice('Claude Code', tokenFile),
};
