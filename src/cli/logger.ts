/**
 * Structured logs (pino): to stderr, so stdout stays free for protocol, and to a file under
 * $TETHER_HOME/logs/. The level comes from --log-level or TETHER_LOG_LEVEL.
 */
import { mkdirSync, openSync } from 'node:fs';
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { tetherHome } from '../discovery/tether-home.js';

export type { Logger };

export function createLogger(name: string, level = process.env.TETHER_LOG_LEVEL ?? 'info'): Logger {
  const dir = join(tetherHome(), 'logs');
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  // Opened here, not by pino: given a path, pino opens the file asynchronously, and a process
  // that exited before the open finished (stdin closed at once) threw "sonic boom is not ready
  // yet" from pino's exit hook onto stderr and lost its last lines. Writes stay asynchronous.
  const file = openSync(join(dir, `${name}.log`), 'a', 0o600);
  const streams = pino.multistream([
    { level: level as pino.Level, stream: pino.destination({ dest: 2, sync: true }) },
    { level: level as pino.Level, stream: pino.destination({ dest: file, sync: false }) },
  ]);
  return pino({ name, level, base: { pid: process.pid } }, streams);
}
