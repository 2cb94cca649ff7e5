/**
 * Codex (CLI, IDE extension and app share one configuration). Configuration
 * (https://developers.openai.com/codex/mcp):
 * TOML, `[mcp_servers.NAME]` tables in `~/.codex/config.toml` (`$CODEX_HOME/config.toml`;
 * `%USERPROFILE%\.codex\config.toml` on Windows), or in the project's `.codex/config.toml`,
 * which Codex reads only once the project is trusted. Stdio: `command`, `args`, `env`,
 * `env_vars` (variables of Codex's environment to pass on); Streamable HTTP: `url`,
 * `bearer_token_env_var` (the NAME of the variable holding the token: Codex refuses an inline
 * `bearer_token`), `http_headers`. A stdio server gets a short list of Codex's variables
 * (HOME, PATH, USER…), plus `env` and `env_vars`.
 */
import { environmentOf, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type ClientContext, type ConfiguredServer, type McpClient } from './types.js';

/** What Codex passes to a stdio server by default (codex-rs/rmcp-client, DEFAULT_ENV_VARS). */
const DEFAULT_ENV = [
  'HOME',
  'LOGNAME',
  'PATH',
  'SHELL',
  'USER',
  '__CF_USER_TEXT_ENCODING',
  'LANG',
  'LC_ALL',
  'TERM',
  'TMPDIR',
  'TZ',
  'PATHEXT',
  'USERNAME',
  'USERDOMAIN',
  'USERPROFILE',
  'TEMP',
  'TMP',
  'SYSTEMROOT',
  'APPDATA',
  'LOCALAPPDATA',
  'PROGRAMDATA',
  'COMSPEC',
];

function codexHome(ctx: ClientContext): string {
  return ctx.env.CODEX_HOME ?? ctx.paths.join(ctx.home, '.codex');
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function strings(value: unknown): Record<string, string> {
  return isRecord(value) ? Object.fromEntries(Object.entries(value).filter((e): e is [string, string] => typeof e[1] === 'string')) : {};
}

export const codex: McpClient = {
  id: 'codex',
  name: 'Codex',
  docs: ['https://developers.openai.com/codex/mcp'],
  scopes: ['user', 'project'],
  format: 'toml',
  configPath: (scope, project, ctx) => (scope === 'project' ? ctx.paths.join(project, '.codex', 'config.toml') : ctx.paths.join(codexHome(ctx), 'config.toml')),
  serversPath: () => ['mcp_servers'],
  entry(spec) {
    if (spec.transport === 'stdio') return { command: spec.command, args: spec.args, ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}) };
    return { url: spec.url, bearer_token_env_var: TOKEN_VARIABLE, ...(Object.keys(spec.headers).length > 0 ? { http_headers: spec.headers } : {}) };
  },
  read(entry, env): ConfiguredServer | { error: string } {
    if (!isRecord(entry)) return { error: 'the entry is not a table' };
    if (typeof entry.command === 'string') {
      const args = Array.isArray(entry.args) ? entry.args.filter((a): a is string => typeof a === 'string') : [];
      const passed = Array.isArray(entry.env_vars) ? entry.env_vars.filter((v): v is string => typeof v === 'string' && env[v] !== undefined) : [];
      return { transport: 'stdio', command: entry.command, args, env: { ...Object.fromEntries(passed.map((v) => [v, env[v]!])), ...strings(entry.env) } };
    }
    if (typeof entry.url !== 'string') return { error: 'the table has neither "command" nor "url"' };
    const headers = strings(entry.http_headers);
    for (const [name, variable] of Object.entries(strings(entry.env_http_headers))) if (env[variable] !== undefined) headers[name] = env[variable]!;
    const variable = typeof entry.bearer_token_env_var === 'string' ? entry.bearer_token_env_var : undefined;
    if (variable && env[variable] !== undefined) headers.Authorization = `Bearer ${env[variable]}`;
    return { transport: 'http', url: entry.url, headers, tokenSource: variable ? { kind: 'variable', name: variable, value: env[variable] } : { kind: 'none' } };
  },
  serverEnvironment: environmentOf(DEFAULT_ENV),
  installedMarks: (ctx) => ({ dirs: [codexHome(ctx)], commands: ['codex'] }),
  howToCheck: 'codex mcp list, or /mcp inside Codex (a project .codex/config.toml is read only once you trust the project)',
  tokenAdvice: (tokenFile) => [...variableAdvice('Codex', tokenFile), `  (bearer_token_env_var names ${TOKEN_VARIABLE}; Codex takes the token from no other place)`],
};
