/**
 * `tether start` (what `npm start` runs): the sandbox editor on a copy of the bundled sample
 * project and `tether serve` beside it, then how to connect MCP clients over stdio or HTTP.
 */
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { serveStatePath, tokenPath } from '../../http/serve-state.js';
import { run as runSandbox } from './sandbox.js';
import { packageRoot } from '../package-root.js';
import { run as runServe } from './serve.js';

export async function run(options: { project?: string; buildSeconds?: number; port?: number }): Promise<void> {
  const project = options.project ? resolve(options.project) : sampleProjectCopy();
  const editor = await runSandbox({ project, ...(options.buildSeconds === undefined ? {} : { buildSeconds: options.buildSeconds }), logLevel: 'warn' });
  let server: Awaited<ReturnType<typeof runServe>>;
  try {
    server = await runServe({ project, port: options.port ?? 7420, logLevel: 'warn', quiet: true });
  } catch (error) {
    // The port is taken, say: the editor it started goes too, record and project lock with it.
    await editor.quit();
    throw error;
  }
  const bin = join(packageRoot(), 'bin', 'tether.js');
  // A TETHER_HOME of its own is where the editor's record is: the client's `tether mcp` must look there too.
  const env = process.env.TETHER_HOME ? { env: { TETHER_HOME: tetherHome() } } : {};
  const stdioConfig = { mcpServers: { unity: { command: process.execPath, args: [bin, 'mcp', '--project', project], ...env } } };
  const httpConfig = { mcpServers: { unity: { type: 'http', url: server.url, headers: { Authorization: `Bearer ${server.token}` } } } };
  process.stdout.write(
    [
      '',
      `Tether sandbox editor: running on 127.0.0.1:${editor.port} for ${project}`,
      `Tether HTTP endpoint:  ${server.url}`,
      `Bearer token:          in ${tokenPath(tetherHome())} (0600), also in ${serveStatePath(tetherHome())}`,
      '',
      'Connect an MCP client over stdio (Claude Code, Cursor, VS Code…):',
      JSON.stringify(stdioConfig, null, 2),
      '',
      'Or over HTTP, for several agents at once:',
      JSON.stringify(httpConfig, null, 2),
      `  (Claude Code: claude mcp add --transport http unity ${server.url} --header "Authorization: Bearer $(cat ${tokenPath(tetherHome())})")`,
      '',
      `From a terminal${process.env.TETHER_HOME ? ` (with TETHER_HOME=${tetherHome()})` : ''}: node ${bin} tools --project ${project}   (the tools and their arguments)`,
      `                 node ${bin} call get_hierarchy --project ${project}`,
      'Press Ctrl+C to stop.',
      '',
    ].join('\n'),
  );
}

/** The sample project is copied once, so running it never edits the repository. */
function sampleProjectCopy(): string {
  const target = join(tetherHome(), 'projects', 'sample-project');
  const sample = join(packageRoot(), 'samples', 'sample-project');
  // Without what an editor running on the sample itself made (its state, its project lock).
  const editorMade = new Set(['Library', 'Temp'].map((dir) => join(sample, dir)));
  if (!existsSync(target)) cpSync(sample, target, { recursive: true, filter: (source) => !editorMade.has(source) });
  return target;
}
