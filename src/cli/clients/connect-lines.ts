/**
 * How to connect an agent, as `tether start` prints it: the `tether setup` line per client
 * (which writes each client's own format), and, for those who write it by hand, the stdio
 * entry in the `mcpServers` shape and Claude Code's `claude mcp add` line. Nothing printed
 * holds the bearer token: HTTP configurations read it from TETHER_TOKEN.
 */
import { CLIENTS } from './registry.js';
import { DEFAULT_SERVER_NAME, stdioSpec } from './server-spec.js';
import { TOKEN_VARIABLE } from './types.js';
import { shellWord as quoted } from '../shell-word.js';

export function connectLines(options: { bin: string; project: string; tokenFile: string; env?: NodeJS.ProcessEnv }): string[] {
  const env = options.env ?? process.env;
  const spec = stdioSpec(options.project, env);
  if (spec.transport !== 'stdio') return [];
  // With a TETHER_HOME of its own, `tether setup` must see it too: it goes into the written entry.
  const prefix = env.TETHER_HOME ? `TETHER_HOME=${quoted(env.TETHER_HOME)} ` : '';
  const tether = `${prefix}${quoted(spec.command)} ${quoted(options.bin)}`;
  const project = quoted(options.project);
  const ids = CLIENTS.map((c) => c.id);
  const entry = { mcpServers: { [DEFAULT_SERVER_NAME]: { command: spec.command, args: spec.args, ...(Object.keys(spec.env).length > 0 ? { env: spec.env } : {}) } } };
  const envFlags = Object.entries(spec.env)
    .map(([k, v]) => `--env ${k}=${quoted(v)} `)
    .join('');
  return [
    "Connect an agent: tether setup writes the client's own configuration file (merged, with a backup; --dry-run shows the change):",
    `  ${tether} setup ${ids[0]} --project ${project}`,
    `    (or ${ids.slice(1).join(', ')}; ${tether} setup alone lists the clients found here)`,
    `  ${tether} doctor --client ${ids[0]} --project ${project}   (starts what the client would, and checks each step)`,
    `Add --http to reach this server instead, for several agents at once: the client reads the token from the`,
    `${TOKEN_VARIABLE} environment variable, never from its file: export ${TOKEN_VARIABLE}="$(cat ${quoted(options.tokenFile)})"`,
    '',
    'By hand, stdio, in the "mcpServers" shape of Claude Code (.mcp.json), Claude Desktop, Cursor, Windsurf and Gemini CLI:',
    JSON.stringify(entry, null, 2),
    // The name goes before --env, which takes several values and would take the name for one.
    `  Claude Code: claude mcp add --transport stdio ${DEFAULT_SERVER_NAME} ${envFlags}-- ${quoted(spec.command)} ${spec.args.map((arg) => quoted(arg)).join(' ')}`,
    '  VS Code wants "servers" and "type": "stdio"; Codex wants TOML ([mcp_servers.tether]): tether setup vscode and tether setup codex write those.',
  ];
}
