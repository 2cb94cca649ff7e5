/**
 * Which journals a Host of this process has opened, to tell a restart from a domain reload
 * when the embedder does not say (HostOptions.afterRestart). A domain reload makes a new Host
 * in the same process on the same journal; the first Host of a process on a journal is the
 * editor starting again, whose queued calls were left by one that stopped, maybe long ago.
 */
import { resolve } from 'node:path';

const opened = new Set<string>();

/** True the first time this process opens the journal at `path`, false every time after. */
export function firstOpeningInProcess(path: string): boolean {
  const key = resolve(path);
  if (opened.has(key)) return false;
  opened.add(key);
  return true;
}
