/**
 * ProgressRelay against the SDK's request context (the one thing faked here: what the SDK
 * hands a handler): the figures a client sees are the editor's, and they always increase.
 */
import type { ServerContext } from '@modelcontextprotocol/server';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { ProgressRelay } from '../../src/mcp/progress-relay.js';
import type { CallProgress } from '../../src/protocol/index.js';

function context(sent: Array<Record<string, unknown>>): ServerContext {
  return {
    mcpReq: {
      _meta: { progressToken: 'p' },
      notify: async ({ params }: { params: Record<string, unknown> }) => {
        sent.push(params);
      },
    },
  } as unknown as ServerContext;
}

const update = (progress: number | undefined, heartbeat = false): CallProgress => ({
  callId: 'c',
  state: 'running',
  heartbeat,
  elapsedMs: 1_000,
  ...(progress === undefined ? {} : { progress, total: 6 }),
  message: heartbeat ? undefined : `Running test ${progress}`,
});

afterEach(() => {
  vi.useRealTimers();
});

describe('ProgressRelay', () => {
  it("passes the editor's figures through as they are, from 0, and moves a heartbeat on by a fraction only", () => {
    const sent: Array<Record<string, unknown>> = [];
    const relay = new ProgressRelay(context(sent), 60_000, () => 'waiting');
    for (const step of [update(0), update(1), update(1, true), update(1, true), update(2), update(6)]) relay.forward(step);
    relay.close();
    const values = sent.map((params) => params.progress as number);
    expect(values.map((v) => Math.round(v * 1000) / 1000)).toEqual([0, 1, 1.001, 1.002, 2, 6]);
    for (let i = 1; i < values.length; i++) expect(values[i]).toBeGreaterThan(values[i - 1]!);
    expect(sent.every((params) => params.total === 6)).toBe(true);
  });

  it('still increases when the editor reports a figure lower than one already sent', () => {
    const sent: Array<Record<string, unknown>> = [];
    const relay = new ProgressRelay(context(sent), 60_000, () => 'waiting');
    relay.forward(update(3));
    relay.forward(update(2));
    relay.close();
    expect(sent.map((params) => params.progress)).toEqual([3, 3.001]);
  });

  // A client that resets its timeout on progress gives up on a call that goes silent: a wall
  // clock stepped back a minute held the keepalives back a minute.
  it('keeps a silent call alive on time when the wall clock is stepped back', () => {
    vi.useFakeTimers({ toFake: ['setInterval', 'clearInterval', 'performance', 'Date'] });
    const sent: Array<Record<string, unknown>> = [];
    const relay = new ProgressRelay(context(sent), 1_000, () => 'waiting for the editor');
    vi.setSystemTime(Date.now() - 60_000);
    vi.advanceTimersByTime(1_000);
    relay.close();
    expect(sent.map((params) => params.message)).toEqual(['waiting for the editor']);
  });
});
