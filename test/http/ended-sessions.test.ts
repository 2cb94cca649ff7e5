import { describe, expect, it } from 'vitest';
import { EndedSessions, sessionGone } from '../../src/http/ended-sessions.js';

describe('EndedSessions', () => {
  it('remembers why a session ended, for a bounded time and a bounded count', () => {
    const clock = { t: 0 };
    const ended = new EndedSessions({ max: 2, keepMs: 1_000, now: () => clock.t });
    ended.remember('a', 'evicted', 'ephemeral');
    ended.remember('b', 'replaced', 'ephemeral'); // its id lives on: nothing to tell
    expect(ended.endOf('a')).toEqual({ reason: 'evicted', pool: 'ephemeral', at: 0 });
    expect(ended.endOf('b')).toBeUndefined();
    clock.t = 500;
    ended.remember('c', 'idle', 'interactive');
    ended.remember('d', 'deleted', 'interactive'); // over the count: the oldest goes
    expect([ended.endOf('a'), ended.size]).toEqual([undefined, 2]);
    clock.t = 1_500; // c and d were kept 1 000 ms
    expect([ended.endOf('c'), ended.endOf('d'), ended.size]).toEqual([undefined, undefined, 0]);
  });

  it('answers an id it does not remember with the generic text', () => {
    expect(sessionGone('x', undefined)).toEqual({ message: 'Session "x" is not known (it ended or was never created); initialize a new one.', data: { code: 'SESSION_NOT_FOUND' } });
    expect(sessionGone('x', { reason: 'shutdown', pool: 'interactive', at: 0 }).message).toBe('Session "x" ended when the server shut down. Initialize a new session.');
  });
});
