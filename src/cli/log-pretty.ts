/**
 * Pino's JSON lines as a person reads them in a terminal:
 * `10:02:03 WARN  sandbox: log file not opened  path=/x error="…"`.
 *
 * Ours rather than pino-pretty: this is one small function over the lines pino already
 * writes, while pino-pretty would add a dozen packages to the bundle every `tether mcp` start
 * loads and, used as a pino transport, a worker thread (which the one-file bundle cannot
 * load). The log file keeps JSON whatever the terminal gets.
 */

const LEVELS: Record<number, { label: string; color: string }> = {
  10: { label: 'TRACE', color: '90' },
  20: { label: 'DEBUG', color: '90' },
  30: { label: 'INFO ', color: '36' },
  40: { label: 'WARN ', color: '33' },
  50: { label: 'ERROR', color: '31' },
  60: { label: 'FATAL', color: '35' },
};

/** Fields every line has, said by the line's shape rather than as key=value. */
const OMITTED = new Set(['level', 'time', 'pid', 'hostname', 'name', 'msg', 'v']);

/** One pino JSON line (with its newline) as a readable line; a line that is not JSON passes as it is. */
export function prettyLogLine(line: string, color: boolean): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line;
  }
  if (typeof record !== 'object' || record === null) return line;
  const level = LEVELS[record.level as number] ?? { label: String(record.level).padEnd(5), color: '0' };
  const time = typeof record.time === 'number' ? new Date(record.time).toTimeString().slice(0, 8) : '';
  const name = typeof record.name === 'string' ? `${record.name}: ` : '';
  const fields: string[] = [];
  let stack = '';
  for (const [key, value] of Object.entries(record)) {
    if (OMITTED.has(key) || value === undefined) continue;
    if ((key === 'err' || key === 'error') && typeof value === 'object' && value !== null && 'message' in value) {
      const error = value as { message: unknown; stack?: unknown };
      fields.push(`${key}=${show(error.message)}`);
      // The stack is for what went wrong, not for every warning that carries an error.
      if ((record.level as number) >= 50 && typeof error.stack === 'string') stack = `\n${error.stack.split('\n').slice(1).join('\n')}`;
      continue;
    }
    fields.push(`${key}=${show(value)}`);
  }
  const label = color ? `\x1b[${level.color}m${level.label}\x1b[0m` : level.label;
  return `${time} ${label} ${name}${String(record.msg ?? '')}${fields.length > 0 ? `  ${fields.join(' ')}` : ''}${stack}\n`;
}

/** A value in a few characters: bare when it has no spaces or quotes, JSON otherwise. */
function show(value: unknown): string {
  if (typeof value === 'string') return /^[^\s"=]+$/.test(value) ? value : JSON.stringify(value);
  return JSON.stringify(value) ?? String(value);
}
