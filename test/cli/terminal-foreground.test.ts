/** Reading a process's groups from /proc/PID/stat, whatever its command name holds. */
import { describe, expect, it } from 'vitest';
import { groupsFromProcStat } from '../../src/cli/terminal-foreground.js';

describe('groupsFromProcStat', () => {
  it('reads the process group and the terminal foreground group', () => {
    expect(groupsFromProcStat('7670 (node) S 7329 7400 1119 34816 7401 4194304 135 0 0 0')).toEqual({ own: 7400, terminal: 7401 });
  });

  it('counts from the last parenthesis: a command name may hold spaces and parentheses', () => {
    expect(groupsFromProcStat('7670 (my (odd) name) S 7329 7400 1119 34816 7400 4194304')).toEqual({ own: 7400, terminal: 7400 });
  });

  it('with no terminal, the foreground group is -1: never this process', () => {
    expect(groupsFromProcStat('7670 (node) S 1 7670 7670 0 -1 4194304')).toEqual({ own: 7670, terminal: -1 });
  });

  it('says nothing of a line it cannot read', () => {
    expect(groupsFromProcStat('')).toBeUndefined();
    expect(groupsFromProcStat('7670 (node) S 1')).toBeUndefined();
  });
});
