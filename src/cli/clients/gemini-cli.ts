/**
 * Gemini CLI. Configuration (https://geminicli.com/docs/tools/mcp-server/, the same as
 * docs/tools/mcp-server.md in google-gemini/gemini-cli, and its docs/cli/configuration.md): `mcpServers` in
 * `.gemini/settings.json` (project) or `~/.gemini/settings.json` (user); stdio entries
 * `{"command", "args", "env"}`, Streamable HTTP `{"httpUrl", "headers"}` (`url` means SSE).
 * String values in settings.json may name environment variables as `$VAR` or `${VAR}`.
 * Stdio servers get Gemini CLI's environment (less variables that look like secrets) plus `env`.
 */
import { bearerFrom, inheritedEnvironment, readMcpServersEntry, shellStyle, stdioEntry, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type McpClient } from './types.js';

export const geminiCli: McpClient = {
  id: 'gemini',
  name: 'Gemini CLI',
  docs: ['https://geminicli.com/docs/tools/mcp-server/', 'https://github.com/google-gemini/gemini-cli/blob/main/docs/cli/configuration.md'],
  scopes: ['project', 'user'],
  format: 'json',
  configPath: (scope, project, ctx) => ctx.paths.join(scope === 'project' ? project : ctx.home, '.gemini', 'settings.json'),
  serversPath: () => ['mcpServers'],
  entry(spec) {
    if (spec.transport === 'stdio') return stdioEntry(spec);
    return { httpUrl: spec.url, headers: { ...bearerFrom(`\${${TOKEN_VARIABLE}}`), ...spec.headers } };
  },
  read: (entry, env) => readMcpServersEntry(entry, env, ['httpUrl', 'url'], shellStyle),
  serverEnvironment: inheritedEnvironment,
  installedMarks: (ctx) => ({ dirs: [ctx.paths.join(ctx.home, '.gemini')], commands: ['gemini'] }),
  howToCheck: 'gemini mcp list (in the project folder; Gemini CLI starts servers only in folders you trust), or /mcp inside Gemini CLI',
  tokenAdvice: (tokenFile) => variableAdvice('Gemini CLI', tokenFile),
};
