/** Where Tether keeps its per-user state: host records, logs, tokens, caches. */
import { homedir } from 'node:os';
import { join, posix, win32 } from 'node:path';

/**
 * $TETHER_HOME, or the platform's per-user state directory. Every Tether process of a user must
 * agree on it (an editor's working directory is its project, a terminal's anything), so nothing
 * here depends on the working directory: a `~` at the start of TETHER_HOME is the user's home
 * (an MCP client's env block does not expand it as a shell would), and a TETHER_HOME that is
 * still relative is taken from the home directory. LOCALAPPDATA and XDG_STATE_HOME count only
 * when absolute (the XDG spec: a relative one is invalid, and ignored). The Unity package's
 * TetherHome.Resolve says the same.
 */
export function tetherHome(env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, userHome = homedir()): string {
  const path = platform === 'win32' ? win32 : posix;
  const given = env.TETHER_HOME;
  if (given) {
    const tilde = platform === 'win32' ? /^~(?:$|[/\\])/ : /^~(?:$|\/)/;
    const expanded = tilde.test(given) ? path.join(userHome, given.slice(1)) : given;
    return path.isAbsolute(expanded) ? expanded : path.join(userHome, expanded);
  }
  const absolute = (value: string | undefined): string | undefined => (value && path.isAbsolute(value) ? value : undefined);
  switch (platform) {
    case 'darwin':
      return path.join(userHome, 'Library', 'Application Support', 'tether');
    case 'win32':
      return path.join(absolute(env.LOCALAPPDATA) ?? path.join(userHome, 'AppData', 'Local'), 'tether');
    default:
      return path.join(absolute(env.XDG_STATE_HOME) ?? path.join(userHome, '.local', 'state'), 'tether');
  }
}

export function hostsDir(home = tetherHome()): string {
  return join(home, 'hosts');
}
