/**
 * `agentOf` (request-meta.ts) keeps what it made of each client-info object instead of a zod
 * parse on every call. It must give what the parse gives for the same input, call after call:
 * the session's info (the same object each time), a stateless-era request's info in `_meta`
 * (a new object each time, or a session info changed in place), and every malformed one.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { Agent } from '../../src/protocol/index.js';
import { agentOf } from '../../src/mcp/request-meta.js';

const CLIENT_INFO_KEY = 'io.modelcontextprotocol/clientInfo';

/** agentOf as it was: a parse of whichever client info applies, on every call. */
function parsedEachTime(server: { getClientVersion(): unknown }, meta: Record<string, unknown> | undefined): Agent | undefined {
  const said = Agent.safeParse(meta?.[CLIENT_INFO_KEY] ?? server.getClientVersion());
  if (!said.success) return undefined;
  const { name, version } = said.data;
  return { name, ...(version ? { version } : {}) };
}

const field = fc.oneof(fc.string({ maxLength: 8 }), fc.string({ minLength: 195, maxLength: 205 }), fc.constant(undefined), fc.integer(), fc.constant(null));
const info = fc.oneof(
  fc.record({ name: field, version: field }, { requiredKeys: [] }),
  fc.record({ name: fc.string({ minLength: 1, maxLength: 10 }), version: fc.string({ maxLength: 10 }), title: fc.string() }),
  fc.constantFrom(undefined, null, 'claude', 42, [], ['x']),
);

/** One step of a session: a call (maybe with its own info), or the session's info changed in place. */
const step = fc.oneof(
  fc.record({ kind: fc.constant('call' as const), meta: fc.option(fc.oneof(fc.record({ [CLIENT_INFO_KEY]: info }), fc.constant({ progressToken: 1 })), { nil: undefined }) }),
  fc.record({ kind: fc.constant('mutate' as const), name: field, version: field }),
);

describe('agentOf', () => {
  it('gives what a parse on every call gives, for the session’s info and the request’s, as they change', () => {
    fc.assert(
      fc.property(info, fc.array(step, { maxLength: 12 }), (sessionInfo, steps) => {
        const server = { getClientVersion: () => sessionInfo };
        for (const s of steps) {
          if (s.kind === 'mutate') {
            if (typeof sessionInfo === 'object' && sessionInfo !== null && !Array.isArray(sessionInfo)) Object.assign(sessionInfo, { name: s.name, version: s.version });
            continue;
          }
          expect(agentOf(server as never, s.meta)).toEqual(parsedEachTime(server, s.meta));
          // Twice: the second call is the one that may take what the first kept.
          expect(agentOf(server as never, s.meta)).toEqual(parsedEachTime(server, s.meta));
        }
      }),
      { numRuns: 1000 },
    );
  });

  it('prefers the request’s client info (stateless era) to the session’s, and drops an empty version', () => {
    const server = { getClientVersion: () => ({ name: 'session-client', version: '1.0' }) };
    expect(agentOf(server as never, { [CLIENT_INFO_KEY]: { name: 'stateless', version: '' } })).toEqual({ name: 'stateless' });
    expect(agentOf(server as never, { [CLIENT_INFO_KEY]: null })).toEqual({ name: 'session-client', version: '1.0' });
    expect(agentOf(server as never, undefined)).toEqual({ name: 'session-client', version: '1.0' });
    expect(agentOf({ getClientVersion: () => undefined } as never, undefined)).toBeUndefined();
  });

  it('parses the session’s info once while it stays the same', () => {
    const sessionInfo = { name: 'inspector', version: '2' };
    const server = { getClientVersion: () => sessionInfo };
    const first = agentOf(server as never, undefined);
    expect(agentOf(server as never, undefined)).toBe(first);
    sessionInfo.version = '3';
    expect(agentOf(server as never, undefined)).toEqual({ name: 'inspector', version: '3' });
  });
});
