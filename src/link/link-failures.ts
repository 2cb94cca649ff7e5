/**
 * What a host link says when it is not connected: why the connection ended, and what a
 * request that waited for it in vain is told. Each says what happened and what comes next.
 */
import { TetherError, type Bye } from '../protocol/index.js';
import type { HostRecord } from '../discovery/host-record.js';

/** Why the connection ended: the host's own bye when it said one (a reload is no failure), else the error. */
export function endOf(error: TetherError, bye: Bye | undefined): TetherError {
  if (!bye || bye.reason === 'reload') return error;
  return new TetherError(bye.reason === 'evicted' ? 'EVICTED' : 'CONNECTION_CLOSED', bye.message, { ...bye });
}

/**
 * A connection refused by an editor whose record says it is reloading (protocol.md §12): an
 * editor between two listeners, said so rather than "is the editor running?".
 */
export function refusedWhileReloading(error: TetherError, record: HostRecord): TetherError {
  return new TetherError(
    'CONNECTION_CLOSED',
    `The editor (process ${record.pid}) is reloading its code domain: it runs, but its port does not take connections yet (${error.message.replace(/ Is the editor running\?$/, '')}). Calls continue when it is back.`,
    { ...error.data, reloading: true, pid: record.pid },
  );
}

/**
 * The editor's process ended while a request waited for it to come back from a domain reload:
 * it crashed or was quit, and is not coming back by itself.
 */
export function reloadAbandoned(pid: number, lastError: TetherError | undefined): TetherError {
  return new TetherError('CONNECTION_CLOSED', `The editor's process (${pid}) exited during its domain reload: it crashed or was quit, so it is not coming back by itself.`, {
    pid,
    processExited: true,
    ...(lastError ? { cause: lastError.toJSON() } : {}),
  });
}

/** A request waited `waitMs` for the link and it did not connect: its state and its last failure say why. */
export function unavailable(state: string, lastError: TetherError | undefined, waitMs: number): TetherError {
  const why = lastError?.message ?? 'it has not answered yet';
  const reloading = state === 'reloading' && lastError?.data.processExited !== true ? ' It announced a domain reload and has not come back yet.' : '';
  return new TetherError('HOST_UNAVAILABLE', `The editor is not reachable after waiting ${waitMs} ms: ${why}${reloading}`, {
    state,
    ...(lastError ? { cause: lastError.toJSON() } : {}),
  });
}
