/**
 * `tether start` (what `npm start` runs): the sandbox editor on a copy of the bundled sample
 * project, and how to connect an MCP client to it.
 */
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { tetherHome } from '../../discovery/tether-home.js';
import { run as runSandbox } from './sandbox.js';

const PACKAGE_ROOT = fileURLToPath(new URL('../../../', import.meta.url));

export async function run(options: { project?: string; buildSeconds?: number }): Promise<void> {
  const project = options.project ? resolve(options.project) : sampleProjectCopy();
  const editor = await runSandbox({ project, ...(options.buildSeconds === undefined ? {} : { buildSeconds: options.buildSeconds }), logLevel: 'warn' });
  const bin = join(PACKAGE_ROOT, 'bin', 'tether.js');
  const stdioConfig = { mcpServers: { unity: { command: process.execPath, args: [bin, 'mcp', '--project', project] } } };
  process.stdout.write(
    [
      '',
      `Tether sandbox editor is running on 127.0.0.1:${editor.port} for ${project}`,
      `Its host record (port and token, mode 0600) is in ${join(tetherHome(), 'hosts')}/`,
      '',
      'Connect an MCP client over stdio with this configuration (Claude Code, Cursor, VS Code…):',
      JSON.stringify(stdioConfig, null, 2),
      '',
      `Or from a terminal: node ${bin} call get_hierarchy --project ${project}`,
      'Press Ctrl+C to quit the editor.',
      '',
    ].join('\n'),
  );
}

/** The sample project is copied once, so running it never edits the repository. */
function sampleProjectCopy(): string {
  const target = join(tetherHome(), 'projects', 'sample-project');
  if (!existsSync(target)) cpSync(join(PACKAGE_ROOT, 'samples', 'sample-project'), target, { recursive: true });
  return target;
}
