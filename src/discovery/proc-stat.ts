/**
 * A process's line in /proc (Linux only): `pid (comm) state ppid pgrp session tty_nr tpgid …
 * starttime …`. The command name may hold spaces and parentheses, so the fields are counted
 * from its last ')'. The sandbox's project lock reads a holder's state and start time from it,
 * the CLI its own process group and its terminal's.
 */
import { readFileSync } from 'node:fs';

/** The fields after the command name, field 3 (state) first: field n of proc(5) is at index n - 3. */
export function statFields(stat: string): string[] {
  return stat.slice(stat.lastIndexOf(')') + 2).split(' ');
}

/** The fields of /proc/<pid>/stat (as statFields), or undefined where there is none to read. */
export function readStatFields(pid: number | 'self'): string[] | undefined {
  try {
    return statFields(readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return undefined;
  }
}
