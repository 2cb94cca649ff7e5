import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import { queuedEntry } from '../../src/host/call-admission.js';
import { outcomeOf } from '../../src/host/call-outcomes.js';
import { hashArguments, type JournalEntry } from '../../src/host/journal-entry.js';
import { LiveCall } from '../../src/host/live-call.js';
import { toolContextFor } from '../../src/host/tool-context.js';
import { registerTool } from '../../src/host/tools.js';
import { LazyAbort, TetherError, type CallStartParams } from '../../src/protocol/index.js';

/**
 * The journal entry, the calls/start answer and the tool context were built with spreads in
 * their literals; they are now built without. These hold the entry and the answer to what the
 * spreads built: the same members, in the same order (their order is their JSON's). The tool
 * context is a class now: its test holds its members and its lazy signal, not their order.
 */
const text = fc.string({ maxLength: 8 });
const maybe = <T>(value: fc.Arbitrary<T>): fc.Arbitrary<T | undefined> => fc.option(value, { nil: undefined });

describe('hot-path literals built without spreads', () => {
  it('queuedEntry: the entry the spreads built, member for member and in order', () => {
    fc.assert(
      fc.property(
        fc.record({ callId: text, deadlineMs: maybe(fc.integer({ min: 1 })), agent: maybe(fc.record({ name: text, version: maybe(text) }, { requiredKeys: ['name'] })) }),
        maybe(fc.integer({ min: 1 })),
        fc.boolean(),
        text,
        (sent, toolDeadline, readOnly, lane) => {
          const tool = registerTool({
            name: 'echo',
            description: 'd',
            annotations: { readOnlyHint: readOnly },
            execution: toolDeadline === undefined ? {} : { deadlineMs: toolDeadline },
            handler: () => 'x',
          });
          const params: CallStartParams = { callId: sent.callId, tool: 'echo', arguments: {} };
          if (sent.deadlineMs !== undefined) params.deadlineMs = sent.deadlineMs;
          if (sent.agent) params.agent = sent.agent;
          const entry = queuedEntry(params, tool, lane);
          const deadlineMs = params.deadlineMs ?? toolDeadline;
          const agent = params.agent;
          const spread = {
            callId: params.callId,
            tool: params.tool,
            arguments: {},
            lane,
            state: 'queued',
            queuedAt: entry.queuedAt,
            // A read-only call's hash is put off until a repeat needs it.
            ...(readOnly ? { unhashedArguments: {} } : { argsHash: hashArguments('echo', {}) }),
            ...(deadlineMs === undefined ? {} : { deadlineMs }),
            ...(readOnly ? { volatile: true as const } : {}),
            ...(agent ? { agent: { name: agent.name, ...(agent.version === undefined ? {} : { version: agent.version }) } } : {}),
          };
          expect(Object.keys(entry)).toEqual(Object.keys(spread));
          expect(JSON.stringify(entry)).toBe(JSON.stringify(spread));
          if (agent) expect(Object.keys(entry.agent!)).toEqual(Object.keys(spread.agent!));
        },
      ),
      { numRuns: 500 },
    );
  });

  it('outcomeOf: the answer the spread built, member for member and in order', () => {
    fc.assert(
      fc.property(text, maybe(text), maybe(fc.nat()), fc.nat(), maybe(fc.nat()), fc.boolean(), (callId, aliasOf, startedAt, queuedAt, finishedAt, replayed) => {
        const entry: JournalEntry = { callId, tool: 't', arguments: {}, argsHash: 'h', lane: 'l', state: 'completed', queuedAt, result: { content: [] } };
        if (aliasOf !== undefined) entry.aliasOf = aliasOf;
        if (startedAt !== undefined) entry.startedAt = startedAt;
        if (finishedAt !== undefined) entry.finishedAt = finishedAt;
        const answer = outcomeOf(entry, replayed);
        const spread = {
          callId: entry.callId,
          result: entry.result,
          replayed,
          ...(entry.aliasOf ? { attachedTo: entry.aliasOf } : {}),
          startedAt: entry.startedAt ?? entry.queuedAt,
          finishedAt: entry.finishedAt ?? answer.finishedAt,
        };
        expect(Object.keys(answer)).toEqual(Object.keys(spread));
        expect(answer).toEqual(spread);
      }),
      { numRuns: 1000 },
    );
  });

  it('toolContextFor: its members, the agent only when there is one, the signal made only when read', () => {
    for (const agent of [undefined, { name: 'claude', version: '1' }]) {
      const entry: JournalEntry = { callId: 'c-1', tool: 't', arguments: {}, argsHash: 'h', lane: 'l', state: 'running', queuedAt: 1, ...(agent ? { agent } : {}) };
      const abort = new LazyAbort();
      const context = toolContextFor(new LiveCall(entry), abort);
      expect(Object.keys(context).sort()).toEqual([...(agent ? ['agent'] : []), 'callId', 'elicit', 'log', 'progress', 'sample']);
      expect('agent' in context).toBe(agent !== undefined);
      expect(context.agent).toBe(agent);
      expect(context.callId).toBe('c-1');
      // The AbortSignal is made when a tool first reads it (LazyAbort), and is the call's.
      const { signal } = context;
      expect(signal).toBe(abort.signal);
      abort.abort(new TetherError('CANCELLED', 'stop'));
      expect(signal.aborted).toBe(true);
      // Destructured, as a tool may: the members are closures, not methods.
      const { progress, log } = context;
      progress({ progress: 1 });
      log('info', 'x');
    }
  });
});
