/**
 * Claude Desktop. Configuration: `claude_desktop_config.json` in
 * `~/Library/Application Support/Claude/` (macOS) or `%APPDATA%\Claude\` (Windows)
 * (https://modelcontextprotocol.io/docs/develop/connect-local-servers); Anthropic ships no
 * Linux build, and the community builds read `~/.config/Claude/`. User scope only. The file
 * takes stdio servers only (`command`, `args`, `env`, absolute paths, no variable expansion):
 * remote servers are added as custom connectors in Settings, which Anthropic's cloud reaches,
 * so never a server on this machine's loopback. Stdio servers get a small environment
 * (HOME, PATH, USER and a few more), not the user's shell's.
 */
import { appData, environmentOf, macApplicationSupport, readMcpServersEntry, stdioEntry, xdgConfig } from './entries.js';
import type { ClientContext, McpClient } from './types.js';

function configDir(ctx: ClientContext): string {
  if (ctx.platform === 'darwin') return ctx.paths.join(macApplicationSupport(ctx), 'Claude');
  if (ctx.platform === 'win32') return ctx.paths.join(appData(ctx), 'Claude');
  return ctx.paths.join(xdgConfig(ctx), 'Claude');
}

export const claudeDesktop: McpClient = {
  id: 'claude-desktop',
  name: 'Claude Desktop',
  docs: ['https://modelcontextprotocol.io/docs/develop/connect-local-servers'],
  scopes: ['user'],
  format: 'json',
  noHttp:
    "Claude Desktop's claude_desktop_config.json takes stdio servers only, and its remote connectors are reached from Anthropic's cloud, which cannot reach tether serve on this machine. Use stdio (drop --http): every Claude Desktop conversation shares the one tether mcp it starts.",
  configPath: (_scope, _project, ctx) => ctx.paths.join(configDir(ctx), 'claude_desktop_config.json'),
  serversPath: () => ['mcpServers'],
  entry(spec) {
    if (spec.transport !== 'stdio') throw new Error('Claude Desktop takes stdio servers only');
    return stdioEntry(spec);
  },
  read: (entry, env) => readMcpServersEntry(entry, env, []),
  serverEnvironment: environmentOf(['HOME', 'LOGNAME', 'PATH', 'SHELL', 'TERM', 'USER', 'USERNAME', 'USERPROFILE', 'APPDATA', 'LOCALAPPDATA', 'SystemRoot', 'TEMP', 'TMP']),
  installedMarks: (ctx) => ({ dirs: [configDir(ctx)], commands: [] }),
  howToCheck: 'quit and reopen Claude Desktop, then look for the tools under "Search and tools" in a chat',
  tokenAdvice: () => [],
};
