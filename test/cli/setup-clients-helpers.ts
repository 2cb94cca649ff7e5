/** What the setup-clients and doctor tests share: a user home of their own, and the tether CLI run in it. */
import { mkdirSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { TETHER_BIN, runToExit, type Run, type Workspace } from '../helpers/processes.js';

/** A user home of the test's own: clients' user-scope files land there, never in the real one. */
export function clientEnv(workspace: Workspace): { home: string; env: NodeJS.ProcessEnv } {
  const home = join(dirname(workspace.home), 'user');
  mkdirSync(home, { recursive: true });
  const env: NodeJS.ProcessEnv = { ...workspace.env, HOME: home, USERPROFILE: home };
  for (const name of ['XDG_CONFIG_HOME', 'APPDATA', 'CLAUDE_CONFIG_DIR', 'CODEX_HOME', 'TETHER_TOKEN']) delete env[name];
  return { home, env };
}

export function tether(env: NodeJS.ProcessEnv, cwd: string, ...args: string[]): Promise<Run> {
  return runToExit(process.execPath, [TETHER_BIN, ...args], { env, cwd, timeoutMs: 40_000 });
}
