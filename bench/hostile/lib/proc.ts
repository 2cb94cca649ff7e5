/**
 * What a process holds, read from /proc (Linux): resident memory, open descriptors, threads,
 * and the processes below one. Every reader returns undefined for a process that is gone.
 */
import { readFileSync, readdirSync } from 'node:fs';

export interface ProcessSample {
  rssKiB: number;
  descriptors: number;
  threads: number;
}

export function sampleProcess(pid: number): ProcessSample | undefined {
  try {
    const status = readFileSync(`/proc/${pid}/status`, 'utf8');
    const field = (name: string): number => Number(new RegExp(`^${name}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? NaN);
    return { rssKiB: field('VmRSS'), threads: field('Threads'), descriptors: readdirSync(`/proc/${pid}/fd`).length };
  } catch {
    return undefined;
  }
}

/** Whether /proc describes processes here (Linux); elsewhere the harness samples nothing. */
export function procAvailable(): boolean {
  return sampleProcess(process.pid) !== undefined;
}

function parentOf(pid: number): number | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // The command may hold spaces and parentheses: the fields start after the last ')'.
    return Number(stat.slice(stat.lastIndexOf(')') + 2).split(' ')[1]);
  } catch {
    return undefined;
  }
}

/** Every live process below `root` (children, their children, …); zombies included until reaped. */
export function descendants(root = process.pid): number[] {
  const parents = new Map<number, number>();
  for (const name of readdirSync('/proc')) {
    if (!/^\d+$/.test(name)) continue;
    const parent = parentOf(Number(name));
    if (parent !== undefined) parents.set(Number(name), parent);
  }
  const below = new Set<number>([root]);
  let grew = true;
  while (grew) {
    grew = false;
    for (const [pid, parent] of parents) {
      if (below.has(parent) && !below.has(pid)) {
        below.add(pid);
        grew = true;
      }
    }
  }
  below.delete(root);
  return [...below];
}
