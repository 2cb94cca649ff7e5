/**
 * How to connect an agent, as `tether start` prints it: the `tether setup` line per client
 * (which writes each client's own format), and, for those who write it by hand, the stdio
 * entry in the `mcpServers` shape and Claude Code's `claude mcp add` line. Nothing printed
 * holds the bearer token: HTTP configurations read it from TETHER_TOKEN. The command lines are
 * for a POSIX shell, and on Windows for PowerShell (shell-word.ts).
 */
import { CLIENTS } from './registry.js';
import { DEFAULT_SERVER_NAME, stdioSpec } from './server-spec.js';
import { TOKEN_VARIABLE } from './types.js';
import { shellFor } from '../shell-word.js';

/** `platform`: the shell the lines are for (see shell-word.ts); the one running here by default. */
export function connectLines(options: { bin: string; project: string; tokenFile: string; env?: NodeJS.ProcessEnv; platform?: NodeJS.Platform }): string[] {
  const env = options.env ?? process.env;
  const shell = shellFor(options.platform);
  const spec = stdioSpec(options.project, env, options.platform);
  if (spec.transport !== 'stdio') return [];
  // With a TETHER_HOME of its own, `tether setup` must see it too: it goes into the written entry.
  const home: Record<string, string> = env.TETHER_HOME ? { TETHER_HOME: env.TETHER_HOME } : {};
  const tether = (...args: string[]): string => shell.command([spec.command, options.bin, ...args], home);
  const [first = '', ...others] = CLIENTS.map((c) => c.id);
  const entry = { mcpServers: { [DEFAULT_SERVER_NAME]: { command: spec.command, args: spec.args, ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}) } } };
  const envFlags = Object.entries(spec.env)
    .map(([k, v]) => `--env ${k}=${shell.word(v)} `)
    .join('');
  return [
    "Connect an agent: tether setup writes the client's own configuration file (merged, with a backup; --dry-run shows the change):",
    ...shell.envLines(home).map((line) => `  ${line}`),
    `  ${tether('setup', first, '--project', options.project)}`,
    `    (or ${others.join(', ')}; ${tether('setup')} alone lists the clients found here)`,
    `  ${tether('doctor', '--client', first, '--project', options.project)}   (starts what the client would, and checks each step)`,
    `Add --http to reach this server instead, for several agents at once: the client reads the token from the`,
    `${TOKEN_VARIABLE} environment variable, never from its file: ${shell.variableFromFile(TOKEN_VARIABLE, options.tokenFile)}`,
    '',
    'By hand, stdio, in the "mcpServers" shape of Claude Code (.mcp.json), Claude Desktop, Cursor, Windsurf and Gemini CLI:',
    JSON.stringify(entry, null, 2),
    // The name goes before --env, which takes several values and would take the name for one.
    `  Claude Code: claude mcp add --transport stdio ${DEFAULT_SERVER_NAME} ${envFlags}${shell.endOfOptions} ${[spec.command, ...spec.args].map((arg) => shell.word(arg)).join(' ')}`,
    '  VS Code wants "servers" and "type": "stdio"; Codex wants TOML ([mcp_servers.tether]): tether setup vscode and tether setup codex write those.',
  ];
}

/** The lines for a terminal, after connectLines: the tools, and a call, by `tether` itself. */
export function terminalLines(options: { bin: string; project: string; home?: string; platform?: NodeJS.Platform }): string[] {
  const shell = shellFor(options.platform);
  const node = (...args: string[]): string => shell.command(['node', options.bin, ...args, '--project', options.project]);
  return [`From a terminal${options.home ? ` (with TETHER_HOME=${options.home})` : ''}: ${node('tools')}   (the tools and their arguments)`, `                 ${node('call', 'get_hierarchy')}`];
}
