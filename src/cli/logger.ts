/**
 * Structured logs (pino): to stderr, so stdout stays free for protocol, and to a file under
 * $TETHER_HOME/logs/. The level comes from --log-level or TETHER_LOG_LEVEL; what stderr gets,
 * from --log-format or TETHER_LOG_FORMAT: readable lines on a terminal, JSON lines otherwise
 * (the file always gets JSON).
 */
import { join } from 'node:path';
import pino, { type Logger } from 'pino';
import { ensurePrivateDir } from '../discovery/secure-file.js';
import { TetherError } from '../protocol/index.js';
import { acceptCallLines, type PreformattedInfoWriter } from '../mcp/call-log.js';
import { tetherHome } from '../discovery/tether-home.js';
import { ExitError } from './exit-error.js';
import { EXIT_CODES } from './exit-codes.js';
import { prettyLogLine } from './log-pretty.js';
import { RotatingLogFile, logRotationFromEnv } from './rotating-log-file.js';

export type { Logger };

export const LOG_FORMATS = ['json', 'pretty'] as const;
export type LogFormat = (typeof LOG_FORMATS)[number];

/**
 * The format of what goes to `stream` (stderr for logs, stdout for a command's ready or
 * listening line): --log-format, else TETHER_LOG_FORMAT, else pretty on a terminal and JSON
 * for a pipe or a file, where scripts and tests read.
 */
export function outputFormat(option: string | undefined, stream: NodeJS.WriteStream): LogFormat {
  const chosen = option ?? (process.env.TETHER_LOG_FORMAT || undefined);
  if (chosen === undefined) return stream.isTTY ? 'pretty' : 'json';
  if ((LOG_FORMATS as readonly string[]).includes(chosen)) return chosen as LogFormat;
  throw new ExitError(`TETHER_LOG_FORMAT is "${chosen}"; it takes ${LOG_FORMATS.join(' or ')}.`, EXIT_CODES.usage);
}

/** Where every process's log file is: `$TETHER_HOME/logs/<command>.log`, rotated by size. */
export function logsDir(): string {
  return join(tetherHome(), 'logs');
}

export function createLogger(name: string, level = process.env.TETHER_LOG_LEVEL ?? 'info', format?: string): Logger {
  const pretty = outputFormat(format, process.stderr) === 'pretty';
  const dir = logsDir();
  // Opened here, not by pino: given a path, pino opens the file asynchronously, and a process
  // that exited before the open finished (stdin closed at once) threw "sonic boom is not ready
  // yet" from pino's exit hook onto stderr and lost its last lines.
  const path = join(dir, `${name}.log`);
  let file: RotatingLogFile | undefined;
  let unopened: string | undefined;
  try {
    ensurePrivateDir(dir);
    file = new RotatingLogFile(path, logRotationFromEnv());
  } catch (error) {
    // A log file that cannot be opened (a link, a folder not ours, a full disk) costs the
    // file, not the process.
    unopened = TetherError.from(error).message;
  }
  const stderr = pino.destination({ dest: 2, sync: true });
  // The file keeps at least info, whatever stderr gets: the per-call lines `tether logs` and
  // the dashboard read are info lines, and `tether start` runs its processes at warn.
  const fileLevel = file !== undefined && !(level in pino.levels.values && pino.levels.values[level]! <= pino.levels.values.info!) ? 'info' : level;
  const color = pretty && process.stderr.isTTY === true && !process.env.NO_COLOR;
  const destinations = [
    { level: level as pino.Level, stream: pretty ? { write: (line: string) => stderr.write(prettyLogLine(line, color)) } : stderr },
    ...(file === undefined ? [] : [{ level: fileLevel as pino.Level, stream: file }]),
  ];
  const settings = { name, level: fileLevel, base: { pid: process.pid } };
  const logger = pino(settings, pino.multistream(destinations));
  // The per-call lines (call-log.ts) go to the file only: it is what `tether logs` and the
  // dashboard read. On stderr they would repeat it, and cost a write before each answer goes
  // out; an MCP client keeps `tether mcp`'s stderr in its own log (Claude Code's debug log, an
  // editor's MCP output panel) and wakes to read every line. Without a file, stderr is their
  // only record.
  const callDestinations = file === undefined ? destinations : [{ level: 'info', stream: file }];
  acceptCallLines(logger, { write: preformattedInfoWriter(logger, callDestinations), logger: file === undefined ? logger : pino({ ...settings, level: 'info' }, file) });
  if (unopened) logger.warn({ path, error: unopened }, 'log file not opened (its error says why); logging to stderr only');
  return logger;
}

const INFO = pino.levels.values.info!;

/**
 * Writes info lines whose fields are JSON already, as this logger's pino would: its level,
 * time and bindings (`,"pid":…,"name":…`), the fields, the message, to every destination
 * that takes info (as pino's multistream routes them). Only for the loggers made above: no
 * formatters, mixins or hooks change their lines.
 */
function preformattedInfoWriter(logger: Logger, destinations: Array<{ level: string; stream: { write(line: string): unknown } }>): PreformattedInfoWriter {
  const streams = destinations.filter((destination) => (pino.levels.values[destination.level] ?? Number.POSITIVE_INFINITY) <= INFO).map((destination) => destination.stream);
  return (fieldsJson, msg) => {
    const bindings = (logger as unknown as Record<symbol, string>)[pino.symbols.chindingsSym];
    const line = `{"level":${INFO},"time":${Date.now()}${bindings},${fieldsJson},"msg":${JSON.stringify(msg)}}\n`;
    for (const stream of streams) stream.write(line);
  };
}
