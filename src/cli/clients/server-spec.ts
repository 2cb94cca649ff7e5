/**
 * What `tether setup` writes and `tether doctor` expects: this installation's `tether mcp` for
 * a project, by absolute paths (node and the CLI), since a client may start it from any folder
 * and with a PATH of its own; or `tether serve`'s endpoint, whose token the client reads from
 * TETHER_TOKEN. TETHER_HOME goes along when it is set, so the client's Tether looks where the
 * editor's record is.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { tetherHome } from '../../discovery/tether-home.js';
import { serveStatePath } from '../../http/serve-state.js';
import { packageRoot } from '../package-root.js';
import type { ServerSpec } from './types.js';

export const DEFAULT_SERVER_NAME = 'tether';
export const DEFAULT_SERVE_URL = 'http://127.0.0.1:7420/mcp';

export function tetherBin(): string {
  return join(packageRoot(), 'bin', 'tether.js');
}

/** `platform` and `home`: the client's machine (this one, but for lines printed for another's shell, and in tests). */
export function stdioSpec(project: string, env: NodeJS.ProcessEnv = process.env, platform: NodeJS.Platform = process.platform, home?: string): ServerSpec {
  return {
    transport: 'stdio',
    command: process.execPath,
    args: [tetherBin(), 'mcp', '--project', project],
    env: env.TETHER_HOME ? { TETHER_HOME: tetherHome(env, platform, home) } : {},
  };
}

/** The URL of the running `tether serve` (its serve.json), else the default. */
export function serveUrl(env: NodeJS.ProcessEnv = process.env): string {
  try {
    const state = JSON.parse(readFileSync(serveStatePath(tetherHome(env)), 'utf8')) as { url?: unknown };
    if (typeof state.url === 'string') return state.url;
  } catch {
    // not running
  }
  return DEFAULT_SERVE_URL;
}

/**
 * The project goes in the X-Tether-Project header as it is when it is printable ASCII (a
 * configuration a person can read, as before), else percent-encoded (encodeURIComponent): a
 * header value is bytes, which a non-ASCII path (a Windows user name, a macOS name in NFD)
 * does not survive as. `tether serve` takes a value with a slash as it is, and decodes any
 * other (http/mcp-requests.ts): an encoded path has no slash left.
 */
export function httpSpec(project: string, url: string): ServerSpec {
  const header = /^[\x20-\x7e]*$/.test(project) ? project : encodeURIComponent(project);
  return { transport: 'http', url, headers: { 'X-Tether-Project': header } };
}
