/**
 * call-log.ts remembers the last tool name and agent it found plain, and writes a line by hand
 * when a call's strings equal them without testing them again. Over any sequence of calls, the
 * lines it leaves to pino must be exactly those with a string the expression calls unsafe
 * (a quote, a backslash, a control character, a lone surrogate), whatever came before.
 */
import fc from 'fast-check';
import type { Logger } from 'pino';
import { describe, expect, it } from 'vitest';
import { acceptCallLines, writeCallLine, type CallLogFields } from '../../src/mcp/call-log.js';

// eslint-disable-next-line no-control-regex -- control characters are among what it looks for
const NEEDS_ESCAPING = /["\\\u0000-\u001f\ud800-\udfff]/u;

/** Few strings, so that sequences repeat them; built anew each time, so equal strings are not always the same object. */
const piece = fc.constantFrom('echo', 'claude-code 2.1', 'a"b', 'back\\slash', 'tab\t', '\ud800', '😀 ok', '', 'x');
const fresh = piece.map((s) => [...s].join(''));
const fields = fc.record({ callId: fc.oneof(fresh, fc.uuid()), tool: fresh, agent: fc.option(fresh, { nil: undefined }), code: fc.option(fresh, { nil: undefined }) });

describe('the per-call line’s escaping check', () => {
  it('leaves to pino exactly the lines with a string that needs escaping, over any sequence of calls', () => {
    fc.assert(
      fc.property(fc.array(fields, { minLength: 1, maxLength: 20 }), (calls) => {
        const byPino: CallLogFields[] = [];
        const byHand: string[] = [];
        const logger = { info: (f: CallLogFields) => void byPino.push(f), isLevelEnabled: () => true } as unknown as Logger;
        acceptCallLines(logger, { write: (json) => void byHand.push(json), logger });
        for (const call of calls) {
          const line: CallLogFields = { ...call, durationMs: 1, outcome: 'success' };
          const unsafe = [call.callId, call.tool, call.agent, call.code].some((s) => s !== undefined && NEEDS_ESCAPING.test(s));
          const before = byPino.length;
          writeCallLine(logger, line);
          expect(byPino.length - before).toBe(unsafe ? 1 : 0);
          if (!unsafe) expect(JSON.parse(`{${byHand.at(-1)}}`)).toMatchObject({ callId: call.callId, tool: call.tool });
        }
      }),
      { numRuns: 2000 },
    );
  });
});
