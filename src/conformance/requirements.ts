/**
 * What a Tether host must do, one line per requirement. Every requirement is covered by at
 * least one check in the manifest (a test enforces it), so this list is the suite's scope.
 */
export interface Requirement {
  readonly id: string;
  readonly text: string;
  /** Where protocol.md states it, when not (only) where its group is stated (SECTIONS). */
  readonly section?: string;
}

export const REQUIREMENTS = [
  { id: 'HS-1', text: 'A valid hello returns protocolVersion, host identity, capabilities, limits, heartbeatMs, state and connectionId.' },
  { id: 'HS-2', text: 'A hello with a wrong token is refused with UNAUTHORIZED, then the connection closes.' },
  { id: 'HS-3', text: 'A hello with an unsupported protocol version is refused with UNSUPPORTED_VERSION listing the supported ones, then the connection closes.' },
  { id: 'HS-4', text: 'A request before the hello is refused with HANDSHAKE_REQUIRED, then the connection closes.' },
  { id: 'HS-5', text: 'Nothing sent before the hello is processed, even when pipelined with it.' },
  {
    id: 'HS-6',
    text: 'The host record says "auth": "proof"; the host answers a hello carrying a proof with its own proof, and refuses a wrong or a replayed proof, or the token itself, with UNAUTHORIZED, then the connection closes.',
  },
  { id: 'HS-7', text: 'A connection that completes no hello within handshakeTimeoutMs (default 10 s) is closed.', section: '§5, §6.3' },
  { id: 'FR-1', text: 'A frame delivered in 1-byte writes is decoded and answered.' },
  { id: 'FR-2', text: 'Several frames in one write are each decoded and answered.' },
  { id: 'FR-3', text: 'A frame header announcing more than limits.maxFrameBytes gets a FRAME_TOO_LARGE error frame, then the connection closes.' },
  { id: 'FR-4', text: 'A malformed frame header gets a HEADER_INVALID error frame, then the connection closes.' },
  { id: 'FR-5', text: 'A frame whose body is not JSON gets a PARSE_ERROR response and the connection keeps serving.' },
  { id: 'FR-6', text: 'A partial frame stalled for limits.frameTimeoutMs gets a FRAME_TIMEOUT error frame, then the connection closes.' },
  { id: 'FR-7', text: 'An idle connection (no partial frame) is never closed by the frame timeout.' },
  {
    id: 'FR-8',
    text: 'A message nested deeper than the host parses (the reference: 64 levels) gets an INVALID_REQUEST response, under its id when the id comes before the first nested value, and the connection keeps serving.',
  },
  {
    id: 'FR-9',
    text: 'Before the hello, a frame header announcing a body far larger than a hello (1 MB, under maxFrameBytes) gets a FRAME_TOO_LARGE error frame, then the connection closes.',
    section: '§3.4, §14',
  },
  { id: 'TL-1', text: 'tools/list returns descriptors with name, description and inputSchema; annotations and execution, which a host SHOULD send, are objects.' },
  { id: 'TL-2', text: 'A call to an unknown tool fails with UNKNOWN_TOOL.' },
  { id: 'TL-3', text: 'A call with invalid arguments fails with INVALID_ARGUMENTS naming the field (data.field).' },
  { id: 'LV-1', text: 'ping is answered.' },
  { id: 'LV-2', text: 'ping is answered within 1 s while the main thread is blocked.' },
  { id: 'LV-3', text: 'tools/list and calls/status are answered within 1 s while the main thread is blocked.' },
  { id: 'LV-4', text: 'The host pings each authenticated connection (every pingIntervalMs, default 15 s) and closes one that does not answer.' },
  { id: 'AM-1', text: 'Concurrent calls/start with one callId run the tool once and all get its result.' },
  { id: 'AM-2', text: 'A repeat of a finished callId returns the stored result with replayed: true, without running again.' },
  { id: 'AM-3', text: 'Reusing a callId with other arguments fails with CALL_ID_CONFLICT, with attachOnly too.', section: '§7.4, §8.2' },
  { id: 'AM-4', text: 'attachOnly for a callId the host does not know fails with UNKNOWN_CALL and runs nothing.' },
  { id: 'AM-5', text: 'A repeat of a callId from another connection attaches to the same call.' },
  { id: 'AM-6', text: 'Identical calls under different callIds to a short tool that declares no duplicate policy each run (the default is allow).' },
  {
    id: 'AM-7',
    text: 'attachOnly for a queued callId, from a new connection after the one that started it closed, attaches to the call (replayed: false) and does not run it again.',
    section: '§7.4, §8.2, §9',
  },
  { id: 'AM-8', text: 'A repeat of a callId that ended cancelled replays its error (CANCELLED, replayed: true, state cancelled), never a result.', section: '§7.4, §8.1' },
  { id: 'ST-1', text: 'calls/status of a running call reports state running.' },
  { id: 'ST-2', text: 'calls/status of a queued call reports state queued with its position.' },
  { id: 'ST-3', text: 'calls/status of an unknown callId fails with UNKNOWN_CALL.' },
  { id: 'CN-1', text: 'A cancelled queued call never runs and its calls/start fails with CANCELLED.' },
  { id: 'CN-2', text: 'A cancelled running call ends with CANCELLED well before it would have finished.' },
  { id: 'CN-3', text: 'Cancels of queued calls are answered while the main thread is blocked.' },
  {
    id: 'CN-4',
    text: 'Neither notifications/cancelled for a calls/start request nor its connection closing cancels the call: it still runs, once, and its callId gets the result.',
    section: '§4.4, §8.7',
  },
  {
    id: 'DP-1',
    text: 'Under duplicates "attach", an identical call in flight shares its execution: one run, the same result, with attachedTo naming the executing callId (in calls/status too).',
  },
  { id: 'DP-2', text: 'Under duplicates "reject", an identical call in flight is refused with DUPLICATE_CALL naming it (data.inFlight), and nothing is journaled.' },
  {
    id: 'DP-3',
    text: "A shared execution is cancelled only by its last requester: an earlier requester's calls/cancel withdraws it alone (CANCELLED, data.shared: true) while the execution goes on.",
  },
  { id: 'DL-1', text: 'A call running past its deadlineMs ends with DEADLINE_EXCEEDED (state cancelled) well before the tool would have finished; time spent queued does not count.' },
  {
    id: 'DL-2',
    text: 'A tool that ignores its cancellation is given up deadlineGraceMs (advertised in the hello) after its deadline: OUTCOME_UNKNOWN with data { callId, tool, deadlineMs, graceMs }, state interrupted, which its later end does not change.',
    section: '§6.2, §8.6',
  },
  { id: 'PG-1', text: 'While the main thread is blocked, a running call hears heartbeat progress at least every heartbeatMs.' },
  { id: 'PG-2', text: 'A queued call hears progress too.' },
  { id: 'PG-3', text: 'A queued call hears progress (state queued) at least every heartbeatMs for as long as it waits.' },
  { id: 'FA-1', text: 'Connections take turns on the main thread: one queueing many calls cannot starve another.' },
  { id: 'RL-1', text: 'Finished calls, including the one that triggered it, survive a domain reload and are replayed by callId.' },
  {
    id: 'RL-2',
    text: 'A call running when the host reloads ends interrupted: re-attaching gets OUTCOME_UNKNOWN (state interrupted), never a result, and it does not run again.',
    section: '§8.1, §8.5, §9',
  },
  { id: 'RL-3', text: 'A call queued when the host reloads stays queued across the reload and runs once afterwards: re-attaching gets its result.', section: '§8.5, §8.8, §9' },
  {
    id: 'RL-4',
    text: "While it is away for a reload, the host's record says so (reloadingSince, written before its port closes); the next domain's record has no such mark.",
    section: '§9, §12',
  },
  { id: 'SN-1', text: 'Before a reload, connections hear notifications/host/state "reloading" (with expectedMs), then a bye with reason "reload".' },
  {
    id: 'EV-1',
    text: 'A host that declares capabilities.maxConnections evicts the oldest connection when one too many completes its hello: a bye with reason and status "evicted" and newClientEndpoint, before the close.',
  },
  {
    id: 'HT-1',
    text: 'host/status answers state, since, the authenticated connections (the asking one among them, with its client name), calls and unknownOutcomes; a host without it answers METHOD_NOT_FOUND.',
  },
  {
    id: 'HT-2',
    text: 'host/status lists a running call as running, with the agent its calls/start named (as calls/status does), and answers within 1 s while the main thread is blocked.',
  },
  { id: 'SC-1', text: 'The host record, which holds the token, is a plain file only its owner may read or write (0600).' },
  { id: 'SC-2', text: 'The host listens on loopback only.' },
  {
    id: 'SC-3',
    text: 'Connections waiting for their hello are bounded: opening many that never send one makes the host close the oldest at once, long before their handshake timeout.',
    section: '§14',
  },
] as const satisfies readonly Requirement[];

export type RequirementId = (typeof REQUIREMENTS)[number]['id'];

/** Where protocol.md states each group of requirements (by the id's letters), for a failure to point there. */
const SECTIONS: Readonly<Record<string, string>> = {
  HS: '§6',
  FR: '§3',
  TL: '§7.2, §7.4',
  LV: '§7.1, §11',
  AM: '§8.2, §8.10',
  ST: '§7.5',
  CN: '§7.6, §8.7',
  PG: '§7.7, §8.9',
  FA: '§8.8',
  RL: '§9',
  SN: '§9, §7.14',
  DP: '§8.10',
  DL: '§8.6',
  EV: '§10, §7.15',
  HT: '§7.16',
  SC: '§12, §14',
};

/** "AM-1, protocol.md §8.2": the requirement a check covers and where the spec states it. */
export function whereStated(requirement: string): string {
  const own: Requirement | undefined = REQUIREMENTS.find((r) => r.id === requirement);
  const section = own?.section ?? SECTIONS[requirement.split('-')[0] ?? ''];
  return section ? `${requirement}, protocol.md ${section}` : requirement;
}
