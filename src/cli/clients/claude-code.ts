/**
 * Claude Code. Configuration (https://code.claude.com/docs/en/mcp, "MCP installation scopes"
 * and "Environment variable expansion in .mcp.json"):
 * - project scope: `.mcp.json` at the project root, meant to be committed (shared with the team);
 * - local scope (the default of `claude mcp add`): `~/.claude.json`, under `projects["<dir>"].mcpServers`;
 * - user scope: `~/.claude.json`, top-level `mcpServers`.
 * `~/.claude.json` is `%USERPROFILE%\.claude.json` on Windows; `$CLAUDE_CONFIG_DIR` moves it.
 * `projects` is keyed by Claude Code's working directory, with forward slashes on Windows
 * (`C:/work/Game`, the drive letter as the directory was opened): an entry under the
 * backslashed path is never read (FunplayAI/funplay-cocos-mcp#22, PrefectHQ/fastmcp#5094;
 * the drive-letter case: anthropics/claude-code#67749, #76994).
 * Entries: `{"type": "stdio", "command", "args", "env"}` or `{"type": "http", "url", "headers"}`;
 * `${VAR}` and `${VAR:-default}` are expanded in command, args, env, url and headers. Claude
 * Code gives a stdio server its own environment plus `env`.
 */
import { readFileSync } from 'node:fs';
import { homedir } from 'node:os';
import path from 'node:path';
import { bearerFrom, dollarBrace, inheritedEnvironment, readMcpServersEntry, stdioEntry, variableAdvice } from './entries.js';
import { TOKEN_VARIABLE, type ClientContext, type McpClient, type Scope } from './types.js';

function userFile(ctx: ClientContext): string {
  return ctx.paths.join(ctx.env.CLAUDE_CONFIG_DIR ?? ctx.home, '.claude.json');
}

/** This machine (registry.ts's currentContext, which this module cannot import: the registry imports it). */
function hostContext(): ClientContext {
  return { platform: process.platform, home: homedir(), env: process.env, paths: process.platform === 'win32' ? path.win32 : path.posix };
}

/** How two spellings of one folder compare as `projects` keys: on Windows, either slash and any case. */
function sameFolderKey(platform: NodeJS.Platform): (key: string) => string {
  if (platform !== 'win32') return (key) => key;
  return (key) => key.replaceAll('\\', '/').toLowerCase().replace(/\/+$/, '');
}

/**
 * The key of `project` in `~/.claude.json`'s `projects`, for the writer and every reader: the
 * key already there for the same folder (on Windows: either slash, any case; one spelled as
 * Claude Code spells it first), else the path as Claude Code spells it (forward slashes on Windows).
 */
export function projectKey(project: string, ctx: ClientContext, projects: unknown): string {
  const preferred = ctx.platform === 'win32' ? project.replaceAll('\\', '/') : project;
  if (typeof projects !== 'object' || projects === null || Array.isArray(projects)) return preferred;
  const keys = Object.keys(projects);
  if (keys.includes(preferred)) return preferred;
  const norm = sameFolderKey(ctx.platform);
  const same = keys.filter((k) => norm(k) === norm(preferred));
  return same.find((k) => !k.includes('\\')) ?? same[0] ?? preferred;
}

/** `projects` of `~/.claude.json` as it is now; nothing when it is missing or unreadable (the caller's read says why). */
function projectsNow(ctx: ClientContext): unknown {
  try {
    const text = readFileSync(userFile(ctx), 'utf8');
    return (JSON.parse(text.startsWith('\uFEFF') ? text.slice(1) : text) as { projects?: unknown } | null)?.projects;
  } catch {
    return undefined;
  }
}

/** `serversPath` takes the machine too, for tests of another OS's keys. */
export const claudeCode: McpClient & { serversPath(scope: Scope, project: string, ctx?: ClientContext): string[] } = {
  id: 'claude-code',
  name: 'Claude Code',
  docs: ['https://code.claude.com/docs/en/mcp'],
  scopes: ['local', 'project', 'user'],
  format: 'json',
  configPath(scope: Scope, project: string, ctx: ClientContext): string {
    return scope === 'project' ? ctx.paths.join(project, '.mcp.json') : userFile(ctx);
  },
  // `ctx`: the machine the key is for; tether setup and doctor pass none, which is this one.
  serversPath(scope: Scope, project: string, ctx: ClientContext = hostContext()): string[] {
    return scope === 'local' ? ['projects', projectKey(project, ctx, projectsNow(ctx)), 'mcpServers'] : ['mcpServers'];
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
