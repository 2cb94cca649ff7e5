/**
 * The dashboard's one-time login link, as `tether status --open` and `tether start` print it:
 * asked of the running `tether serve` with the bearer token from $TETHER_HOME/serve.json, so
 * the link carries a code that works once, for two minutes, and never the token itself.
 */
import { spawn } from 'node:child_process';
import { OPEN_TO_OTHERS, readPrivateFile } from '../../discovery/secure-file.js';
import { serveStatePath } from '../../http/serve-state.js';
import { TetherError } from '../../protocol/index.js';

const ANSWER_MS = 3_000;

/** Asks tether serve (the one serve.json names, or the one at `url` with `token`) for a login link. */
export async function requestLoginLink(home: string, server?: { url: string; token: string }): Promise<string> {
  const target = server ?? readServeState(home);
  const response = await fetch(new URL('/dashboard/login-codes', target.url), { method: 'POST', headers: { authorization: `Bearer ${target.token}` }, signal: AbortSignal.timeout(ANSWER_MS) }).catch(
    (error: Error) => {
      throw new TetherError('HOST_UNAVAILABLE', `tether serve at ${target.url} did not answer (${error.message}). Start it with \`tether serve\` or \`npm start\`.`, { url: target.url });
    },
  );
  if (!response.ok)
    throw new TetherError('HOST_UNAVAILABLE', `tether serve at ${target.url} refused a login link (HTTP ${response.status}); is it an older tether serve without the dashboard?`, {
      url: target.url,
      status: response.status,
    });
  const { url } = (await response.json()) as { url: string };
  return url;
}

function readServeState(home: string): { url: string; token: string } {
  const read = readPrivateFile(serveStatePath(home), OPEN_TO_OTHERS);
  if (read.status === 'read') {
    try {
      const state = JSON.parse(read.content.toString('utf8')) as { url?: unknown; token?: unknown };
      if (typeof state.url === 'string' && typeof state.token === 'string') return { url: state.url, token: state.token };
    } catch {
      // Said below, as a missing file is.
    }
  }
  throw new TetherError('HOST_NOT_FOUND', 'No tether serve is running for this user (no readable $TETHER_HOME/serve.json). Start it with `tether serve` or `npm start`, then run this again.', {
    path: serveStatePath(home),
  });
}

/**
 * Opens a URL in the person's browser, best effort: the link is printed either way, and a
 * machine without a desktop (ssh, CI) just keeps the printed one. On Windows, url.dll's handler
 * rather than `start`, whose command line would need `&`, `^` and quotes escaped.
 */
export function openInBrowser(url: string, platform: NodeJS.Platform = process.platform): void {
  const [command, args] = platform === 'darwin' ? ['open', [url]] : platform === 'win32' ? ['rundll32', ['url.dll,FileProtocolHandler', url]] : ['xdg-open', [url]];
  try {
    const child = spawn(command, args, { stdio: 'ignore', detached: true, windowsHide: true });
    child.on('error', () => undefined);
    child.unref();
  } catch {
    // No opener: the printed link is enough.
  }
}
