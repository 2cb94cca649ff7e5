/**
 * How the `tether` command line reads its options' values (commander parsers and shared
 * options), apart from the commands that use them (tether.ts).
 */
import { InvalidArgumentError, Option } from 'commander';

/** A parser for an option that takes an integer from `min` to `max`; `expected` says which, when it is not. */
function integerFrom(min: number, max: number, expected: string): (value: string) => number {
  return (value) => {
    const parsed = Number(value);
    if (!Number.isInteger(parsed) || parsed < min || parsed > max) throw new InvalidArgumentError(expected);
    return parsed;
  };
}

export const integer = integerFrom(0, Number.POSITIVE_INFINITY, 'expected a non-negative integer');
export const positive = integerFrom(1, Number.POSITIVE_INFINITY, 'expected a positive integer');
export const port = integerFrom(0, 65_535, 'expected a port number from 0 to 65535 (0: any free port)');

export function number(value: string): number {
  const parsed = Number(value);
  if (!Number.isFinite(parsed) || parsed < 0) throw new InvalidArgumentError('expected a non-negative number');
  return parsed;
}

const LOG_LEVELS = ['trace', 'debug', 'info', 'warn', 'error', 'fatal', 'silent'];

export function logLevelOption(where = 'stderr and $TETHER_HOME/logs/'): Option {
  return new Option('--log-level <level>', `what to log (to ${where}, whose files keep at least info; env TETHER_LOG_LEVEL; default: info)`).choices(LOG_LEVELS);
}

/** What the terminal gets: readable lines for a person, JSON lines for a script (the log file always gets JSON). */
export function logFormatOption(): Option {
  return new Option('--log-format <format>', 'log (and ready) lines on stderr/stdout as JSON or readable text (env TETHER_LOG_FORMAT; default: pretty on a terminal, json otherwise)').choices([
    'json',
    'pretty',
  ]);
}

/** A repeatable option's values, in the order given. */
export function collect(value: string, previous: string[] | undefined): string[] {
  return [...(previous ?? []), value];
}
