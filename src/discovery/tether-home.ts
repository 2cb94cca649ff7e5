/** Where Tether keeps its per-user state: host records, logs, tokens, caches. */
import { homedir } from 'node:os';
import { join } from 'node:path';

/** $TETHER_HOME, or the platform's per-user state directory. */
export function tetherHome(env: NodeJS.ProcessEnv = process.env): string {
  if (env.TETHER_HOME) return env.TETHER_HOME;
  const home = homedir();
  switch (process.platform) {
    case 'darwin':
      return join(home, 'Library', 'Application Support', 'tether');
    case 'win32':
      return join(env.LOCALAPPDATA ?? join(home, 'AppData', 'Local'), 'tether');
    default:
      return join(env.XDG_STATE_HOME ?? join(home, '.local', 'state'), 'tether');
  }
}

export function hostsDir(home = tetherHome()): string {
  return join(home, 'hosts');
}
