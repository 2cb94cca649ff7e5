/**
 * `tether start` (what `npm start` runs): the sandbox editor on a copy of the bundled sample
 * project and `tether serve` beside it, then how to connect MCP clients over stdio or HTTP.
 */
import { cpSync, existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { serveStatePath, tokenPath } from '../../http/serve-state.js';
import { TetherError } from '../../protocol/index.js';
import { connectLines, terminalLines } from '../clients/connect-lines.js';
import { requestLoginLink } from '../status/dashboard-link.js';
import { run as runSandbox } from './sandbox.js';
import { packageRoot } from '../package-root.js';
import { mayReadTerminal } from '../terminal-foreground.js';
import { run as runServe } from './serve.js';

export async function run(options: { project?: string; buildSeconds?: number; port?: number; logFormat?: string }): Promise<void> {
  const project = options.project ? resolve(options.project) : sampleProjectCopy();
  const editor = await runSandbox({
    project,
    ...(options.buildSeconds === undefined ? {} : { buildSeconds: options.buildSeconds }),
    logLevel: 'warn',
    ...(options.logFormat ? { logFormat: options.logFormat } : {}),
    quietFirstReady: true,
  });
  let server: Awaited<ReturnType<typeof runServe>>;
  try {
    server = await runServe({ project, port: options.port ?? 7420, logLevel: 'warn', ...(options.logFormat ? { logFormat: options.logFormat } : {}), quiet: true });
  } catch (error) {
    // The port is taken, say: the editor it started goes too, record and project lock with it.
    await editor.quit();
    throw error;
  }
  const bin = join(packageRoot(), 'bin', 'tether.js');
  // No snippet holds the token: HTTP configurations read it from TETHER_TOKEN (clients/connect-lines.ts).
  const connect = connectLines({ bin, project, tokenFile: tokenPath(tetherHome()) });
  // On a terminal, Enter shows it again: reload lines and logs scroll it away. Not in the
  // background (`npm start &`), where reading the terminal would stop every part of it.
  const again = mayReadTerminal();
  const banner = (): string =>
    [
      '',
      `Tether sandbox editor: running on 127.0.0.1:${editor.port} for ${project}`,
      `Tether HTTP endpoint:  ${server.url}`,
      `Bearer token:          in ${tokenPath(tetherHome())} (0600), also in ${serveStatePath(tetherHome())}`,
      '',
      ...connect,
      '',
      ...terminalLines({ bin, project, ...(process.env.TETHER_HOME ? { home: tetherHome() } : {}) }),
      again ? 'Press Enter to show this again, Ctrl+C to stop.' : 'Press Ctrl+C to stop.',
      '',
    ].join('\n');
  process.stdout.write(banner());
  process.stdout.write(`${await dashboardLine()}\n`);
  if (again) process.stdin.on('data', () => void dashboardLine().then((line) => process.stdout.write(`${banner()}${line}\n`)));
}

/** A fresh one-time login link to the dashboard each time it is shown (a link works once). */
async function dashboardLine(): Promise<string> {
  try {
    return `Dashboard (one-time link, two minutes; \`tether status --open\` gives another): ${await requestLoginLink(tetherHome())}`;
  } catch (error) {
    return `Dashboard: not available (${TetherError.from(error).message})`;
  }
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
