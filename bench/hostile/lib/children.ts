/**
 * Processes the harness spawns itself (rather than through test/helpers, which keeps every
 * line a child prints: too much for a million inputs): stopped at the end of each suite with
 * an escalating shutdown, and killed if the harness exits first.
 */
import type { ChildProcess } from 'node:child_process';
import { stopChild } from '../../../test/helpers/processes.js';

const children = new Set<ChildProcess>();

export function adopt(child: ChildProcess): ChildProcess {
  children.add(child);
  child.once('exit', () => children.delete(child));
  return child;
}

export async function stopAdopted(): Promise<void> {
  await Promise.all([...children].map((child) => stopChild(child, 3_000)));
  children.clear();
}

process.on('exit', () => {
  for (const child of children) child.kill('SIGKILL');
});
