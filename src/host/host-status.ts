/**
 * The host/status answer (protocol.md §7.16), from what the network side holds, so it is
 * answered while the main thread is blocked: the host's state, its connections, the calls
 * queued and running and those whose outcome is unknown, each list bounded and the rest counted.
 */
import { HOST_STATUS_MAX_ENTRIES, type HostStateName, type HostStatusResult } from '../protocol/index.js';
import type { CallManager } from './call-manager.js';

/** A connection as host/status lists it. */
export interface ListedConnection {
  readonly id: string;
  readonly clientName: string;
  readonly clientVersion: string | undefined;
  readonly endpoint: string;
  readonly authenticatedAt: number | undefined;
}

export function hostStatusOf(state: { state: HostStateName; since: number }, connections: readonly ListedConnection[], calls: Pick<CallManager, 'overview'>): HostStatusResult {
  const max = HOST_STATUS_MAX_ENTRIES;
  const overview = calls.overview(max);
  const left = { connections: Math.max(0, connections.length - max), ...overview.omitted };
  return {
    ...state,
    connections: connections.slice(0, max).map((c) => ({
      connectionId: c.id,
      client: { name: c.clientName, ...(c.clientVersion === undefined ? {} : { version: c.clientVersion }) },
      endpoint: c.endpoint,
      since: c.authenticatedAt ?? 0,
    })),
    calls: overview.calls,
    unknownOutcomes: overview.unknownOutcomes,
    ...(left.connections + left.calls + left.unknownOutcomes > 0 ? { omitted: left } : {}),
  };
}
