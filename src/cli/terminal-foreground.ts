/**
 * Whether this process may read its terminal: stdin is one, and the process is in its
 * foreground. A job started in the background (`npm start &`) that reads its terminal is
 * stopped by the kernel (SIGTTIN, the whole process group with it: the editor and the server
 * stop serving), and catching SIGTTIN is no way out: the read is restarted after each catch, in
 * a loop that never returns to JavaScript. So the terminal is read only when this says so.
 */
import { execFileSync } from 'node:child_process';
import { readStatFields, statFields } from '../discovery/proc-stat.js';

export function mayReadTerminal(): boolean {
  if (process.stdin.isTTY !== true) return false;
  // Windows has no job control: a console program always reads its console.
  if (process.platform === 'win32') return true;
  const groups = processGroups();
  // Unknown: not read. Being stopped costs far more than a key that does nothing.
  return groups !== undefined && groups.own === groups.terminal;
}

/** This process's group and its terminal's foreground group. */
function processGroups(): { own: number; terminal: number } | undefined {
  try {
    if (process.platform === 'linux') {
      const fields = readStatFields('self');
      return fields && groupsOf(fields);
    }
    // macOS and the BSDs: ps names both (pgid, tpgid), and takes a few milliseconds once, at start.
    const [own, terminal] = execFileSync('ps', ['-o', 'pgid=,tpgid=', '-p', String(process.pid)], { encoding: 'utf8', timeout: 2_000 })
      .trim()
      .split(/\s+/)
      .map(Number);
    return Number.isInteger(own) && Number.isInteger(terminal) ? { own: own!, terminal: terminal! } : undefined;
  } catch {
    return undefined;
  }
}

/** The groups in a /proc/PID/stat line: pgrp (field 5) and tpgid (field 8). */
export function groupsFromProcStat(stat: string): { own: number; terminal: number } | undefined {
  return groupsOf(statFields(stat));
}

function groupsOf(fields: string[]): { own: number; terminal: number } | undefined {
  const own = Number(fields[2]);
  const terminal = Number(fields[5]);
  return Number.isInteger(own) && Number.isInteger(terminal) && fields.length > 5 ? { own, terminal } : undefined;
}
