/**
 * Claude Desktop. Configuration: `claude_desktop_config.json` in
 * `~/Library/Application Support/Claude/` (macOS) or `%APPDATA%\Claude\` (Windows)
 * (https://modelcontextprotocol.io/docs/develop/connect-local-servers); Anthropic ships no
 * Linux build, and the community builds read `~/.config/Claude/`. User scope only. The file
 * takes stdio servers only (`command`, `args`, `env`, absolute paths, no variable expansion):
 * remote servers are added as custom connectors in Settings, which Anthropic's cloud reaches,
 * so never a server on this machine's loopback. Stdio servers get a small environment
 * (HOME, PATH, USER and a few more), not the user's shell's.
 *
 * On Windows, the MSIX package (the official installer's since February 2026) runs with its
 * file system virtualised: the app reads
 * `%LOCALAPPDATA%\Packages\Claude_<id>\LocalCache\Roaming\Claude\claude_desktop_config.json`
 * and never the `%APPDATA%` file, which its own "Edit Config" may still open
 * (anthropics/claude-code#26073; akitaonrails/ai-memory#250; taiste/harvest-mcp-server#12,
 * Claude_pzs8sxrjxfjjc). That folder is used when there is one; with several, Tether refuses
 * rather than guess which the app reads.
 */
import { existsSync, readdirSync } from 'node:fs';
import { ExitError } from '../exit-error.js';
import { appData, environmentOf, macApplicationSupport, readMcpServersEntry, stdioEntry, xdgConfig } from './entries.js';
import type { ClientContext, McpClient } from './types.js';

/** Several MSIX package folders of Claude Desktop, so no telling which one the app reads. */
export class AmbiguousClaudeDesktopConfigError extends ExitError {
  constructor(readonly folders: readonly string[]) {
    super(
      `Claude Desktop has ${folders.length} MSIX configuration folders, and Tether cannot tell which one the app reads: ${folders.join(', ')}. Remove the package folders of installations that are gone (Get-AppxPackage Claude* lists the installed one), or add the entry by hand to claude_desktop_config.json in the right folder.`,
    );
  }
}

/** Each `%LOCALAPPDATA%\Packages\Claude_*\LocalCache\Roaming\Claude` there is, sorted. */
function msixConfigDirs(ctx: ClientContext): string[] {
  const packages = ctx.paths.join(ctx.env.LOCALAPPDATA ?? ctx.paths.join(ctx.home, 'AppData', 'Local'), 'Packages');
  let names: string[];
  try {
    names = readdirSync(packages);
  } catch {
    return [];
  }
  return names
    .filter((name) => /^claude_/i.test(name))
    .sort()
    .map((name) => ctx.paths.join(packages, name, 'LocalCache', 'Roaming', 'Claude'))
    .filter((dir) => existsSync(dir));
}

/** Where the app reads its configuration; on Windows, throws AmbiguousClaudeDesktopConfigError for several MSIX folders. */
function configDir(ctx: ClientContext): string {
  if (ctx.platform === 'darwin') return ctx.paths.join(macApplicationSupport(ctx), 'Claude');
  if (ctx.platform === 'win32') {
    const msix = msixConfigDirs(ctx);
    if (msix.length > 1) throw new AmbiguousClaudeDesktopConfigError(msix);
    return msix[0] ?? ctx.paths.join(appData(ctx), 'Claude');
  }
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
  installedMarks: (ctx) => ({ dirs: ctx.platform === 'win32' ? [...msixConfigDirs(ctx), ctx.paths.join(appData(ctx), 'Claude')] : [configDir(ctx)], commands: [] }),
  howToCheck: 'quit and reopen Claude Desktop, then look for the tools under "Search and tools" in a chat',
  tokenAdvice: () => [],
};
