/**
 * `tether logs`: the tool calls the fronts on this machine answered (one line a call, from
 * the per-call lines of `$TETHER_HOME/logs/`), the latest last; `--follow` keeps printing
 * new ones as they come, across rotations.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import type { CallLogLine } from '../../mcp/call-log.js';
import { logsDir } from '../logger.js';
import { CallLogFollower } from '../../mcp/call-log-reader.js';
import { stdoutReaderGone } from '../broken-pipe.js';

export interface LogsOptions {
  follow?: boolean;
  json?: boolean;
  lines?: number;
  /** How often --follow looks for new lines (tests make it short). */
  pollMs?: number;
  signal?: AbortSignal;
}

const DEFAULT_LINES = 50;

function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)} ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(1)} s`;
  return `${Math.floor(ms / 60_000)} min ${Math.round((ms % 60_000) / 1000)} s`;
}

function formatBytes(bytes: number | undefined): string {
  if (bytes === undefined) return '';
  if (bytes < 1024) return `${bytes} B`;
  if (bytes < 1024 * 1024) return `${(bytes / 1024).toFixed(1)} kB`;
  return `${(bytes / 1024 / 1024).toFixed(1)} MB`;
}

/** One call as a person reads it: `10:02:03  success  build_player  12.3 s  claude-code 2.1  1.2 kB  <callId>`. */
export function formatCallLine(line: CallLogLine): string {
  const time = new Date(line.time).toTimeString().slice(0, 8);
  const outcome = line.outcome === 'unknown' ? 'UNKNOWN (may have run)' : line.outcome;
  const code = line.code && line.outcome !== 'success' ? ` [${line.code}]` : '';
  return [time, `${outcome}${code}`, line.tool, formatDuration(line.durationMs), line.agent ?? 'unnamed agent', formatBytes(line.bytes), line.callId].filter(Boolean).join('  ');
}

function print(lines: CallLogLine[], json: boolean | undefined): void {
  if (lines.length === 0 || stdoutReaderGone()) return;
  process.stdout.write(lines.map((line) => (json ? JSON.stringify(line) : formatCallLine(line))).join('\n') + '\n');
}

export async function run(options: LogsOptions): Promise<void> {
  const follower = new CallLogFollower(logsDir());
  const past = follower.poll();
  const shown = past.slice(-(options.lines ?? DEFAULT_LINES));
  if (shown.length === 0 && !options.follow && !options.json) {
    process.stdout.write(`No tool calls logged yet in ${logsDir()}. Calls through tether mcp or tether serve appear here.\n`);
  }
  print(shown, options.json);
  if (!options.follow) return;
  const signal = options.signal;
  // Until stopped, or until its reader is gone (`| head`): there is no one left to print for.
  while (!signal?.aborted && !stdoutReaderGone()) {
    try {
      await sleep(options.pollMs ?? 250, undefined, { signal });
    } catch {
      return;
    }
    print(follower.poll(), options.json);
  }
}
