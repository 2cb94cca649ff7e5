import { describe, expect, it } from 'vitest';
import { calledLine } from '../../src/sandbox/editor.js';

describe("the sandbox's log line for a call", () => {
  it('says which agent called which tool, as the Unity host says it in the console', () => {
    expect(calledLine({ name: 'claude-code', version: '2.1' }, 'build_player', 'c-1')).toBe('[tether] claude-code 2.1 called build_player (callId c-1)');
    expect(calledLine({ name: 'tether-call' }, 'get_hierarchy', 'c-2')).toBe('[tether] tether-call called get_hierarchy (callId c-2)');
    expect(calledLine(undefined, 'get_hierarchy', 'c-3')).toBe('[tether] an agent called get_hierarchy (callId c-3)');
  });
});
