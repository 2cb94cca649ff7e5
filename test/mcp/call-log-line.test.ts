/**
 * The per-call log line is written out by hand (call-log.ts), not by pino's generic path: the
 * bytes must be pino's, for `tether logs`, the dashboard and anyone reading the file. Each case
 * writes the same fields both ways through a logger made by createLogger, at the same instant,
 * and the two lines in its file must be identical.
 */
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import pino from 'pino';
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from 'vitest';
import { createLogger, type Logger } from '../../src/cli/logger.js';
import { CALL_LOG_MESSAGE, callLineSink, writeCallLine, type CallLogFields } from '../../src/mcp/call-log.js';

let home: string;
let previousHome: string | undefined;
/** stderr takes warn; the file takes info (as under `tether start`). */
let logger: Logger;
const logFile = (): string => join(home, 'logs', 'call-log-test.log');

beforeAll(() => {
  home = mkdtempSync(join(tmpdir(), 'tether-call-log-'));
  previousHome = process.env.TETHER_HOME;
  process.env.TETHER_HOME = home;
  logger = createLogger('call-log-test', 'warn', 'json');
});

afterEach(() => vi.restoreAllMocks());

afterAll(() => {
  if (previousHome === undefined) delete process.env.TETHER_HOME;
  else process.env.TETHER_HOME = previousHome;
  rmSync(home, { recursive: true, force: true });
});

/** Writes what the log file holds back (it gathers lines for a moment: rotating-log-file.ts). */
const flushed = (): void => (logger as unknown as Record<symbol, { flushSync(): void }>)[pino.symbols.streamSym]!.flushSync();

const uuid = '3f0c2a64-5a8e-4f4e-9d43-1b2c3d4e5f60';
/** The fields, and whether the line is left to pino (a string it escapes its own way). */
const cases: Array<[string, CallLogFields, 'by hand' | 'by pino']> = [
  ['a success with bytes and an agent', { callId: uuid, tool: 'echo', agent: 'claude-code 2.1', durationMs: 12, outcome: 'success', bytes: 4 }, 'by hand'],
  ['a success without content bytes or agent', { callId: uuid, tool: 'echo', durationMs: 0, outcome: 'success', code: undefined, bytes: undefined }, 'by hand'],
  ['a failure with a code', { callId: uuid, tool: 'compile', agent: 'inspector', durationMs: 20_001, outcome: 'unknown', code: 'OUTCOME_UNKNOWN' }, 'by hand'],
  ['quotes and backslashes', { callId: uuid, tool: 'a"b\\c', agent: 'say "hi" \\ bye', durationMs: 3, outcome: 'tool_error', code: 'NOT_FOUND' }, 'by pino'],
  ['control characters', { callId: uuid, tool: 'tab\there', agent: 'new\nline \u0001', durationMs: 1, outcome: 'failed', code: 'HOST_NOT_FOUND' }, 'by pino'],
  ['a lone surrogate in a short string (pino leaves it raw)', { callId: uuid, tool: 'echo', agent: 'broken \ud800 name', durationMs: 5, outcome: 'success', bytes: 0 }, 'by pino'],
  ['a lone surrogate in a long string (pino escapes it)', { callId: uuid, tool: 'echo', agent: `${'x'.repeat(120)}\udc00`, durationMs: 5, outcome: 'success', bytes: 0 }, 'by pino'],
  ['non-ASCII, U+2028 and an emoji', { callId: uuid, tool: 'ünïcode_tool', agent: 'café\u2028client 😀 1.0', durationMs: 7, outcome: 'cancelled', code: 'CANCELLED' }, 'by hand'],
  ['a long tool name', { callId: uuid, tool: 't'.repeat(150), durationMs: 9, outcome: 'success', bytes: 123_456_789 }, 'by hand'],
  ['an empty agent and tool', { callId: '', tool: '', agent: '', durationMs: 2, outcome: 'success', bytes: 1 }, 'by hand'],
];

describe('the per-call log line', () => {
  it.each(cases)('is the line pino writes: %s (%s)', (_, fields, writer) => {
    vi.spyOn(Date, 'now').mockReturnValue(1_796_000_000_123);
    const before = readFileSync(logFile(), 'utf8');
    // Lines with a string pino escapes its own way go through the file's own pino logger.
    const viaPino = vi.spyOn(callLineSink(logger)!.logger, 'info');
    writeCallLine(logger, fields);
    expect(viaPino).toHaveBeenCalledTimes(writer === 'by pino' ? 1 : 0);
    viaPino.mockRestore();
    logger.info(fields, CALL_LOG_MESSAGE);
    flushed();
    const lines = readFileSync(logFile(), 'utf8').slice(before.length).split('\n');
    expect(lines).toHaveLength(3);
    expect(lines[0]).toBe(lines[1]);
    expect(JSON.parse(lines[0] as string)).toMatchObject({ level: 30, time: 1_796_000_000_123, name: 'call-log-test', msg: 'call', callId: fields.callId });
  });

  it('is not written below the logger level, and goes through pino for another logger', () => {
    const before = readFileSync(logFile(), 'utf8');
    logger.level = 'warn'; // the file's destination still takes info; the logger no longer sends it
    writeCallLine(logger, cases[0]![1]);
    logger.level = 'info';
    const child = logger.child({ component: 'front' });
    const info = vi.spyOn(child, 'info').mockImplementation(() => undefined);
    writeCallLine(child, cases[0]![1]);
    expect(info).toHaveBeenCalledWith(cases[0]![1], CALL_LOG_MESSAGE);
    flushed();
    expect(readFileSync(logFile(), 'utf8').slice(before.length)).toBe('');
  });
});
