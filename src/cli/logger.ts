/**
 * Structured logs (pino): to stderr, so stdout stays free for protocol, and to a file under
 * $TETHER_HOME/logs/. The level comes from --log-level or TETHER_LOG_LEVEL.
 */
import { constants, openSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { ensurePrivateDir } from '../discovery/secure-file.js';
import { TetherError } from '../protocol/index.js';
import { tetherHome } from '../discovery/tether-home.js';

// Logs hold project paths and tool arguments: a link planted in their place is not followed.
const APPEND_NO_FOLLOW = constants.O_WRONLY | constants.O_CREAT | constants.O_APPEND | (constants.O_NOFOLLOW ?? 0);

export type { Logger };

export function createLogger(name: string, level = process.env.TETHER_LOG_LEVEL ?? 'info'): Logger {
  const dir = join(tetherHome(), 'logs');
  // Opened here, not by pino: given a path, pino opens the file asynchronously, and a process
  // that exited before the open finished (stdin closed at once) threw "sonic boom is not ready
  // yet" from pino's exit hook onto stderr and lost its last lines. Writes stay asynchronous.
  const path = join(dir, `${name}.log`);
  let file: number | undefined;
  let unopened: string | undefined;
  try {
    ensurePrivateDir(dir);
    file = openSync(path, APPEND_NO_FOLLOW, 0o600);
  } catch (error) {
    // A log file that cannot be opened (a link, a folder not ours, a full disk) costs the
    // file, not the process.
    unopened = TetherError.from(error).message;
  }
  const streams = pino.multistream([
    { level: level as pino.Level, stream: pino.destination({ dest: 2, sync: true }) },
    ...(file === undefined ? [] : [{ level: level as pino.Level, stream: pino.destination({ dest: file, sync: false }) }]),
  ]);
  const logger = pino({ name, level, base: { pid: process.pid } }, streams);
  if (unopened) logger.warn({ path, error: unopened }, 'log file not opened (a symbolic link is never followed); logging to stderr only');
  return logger;
}
