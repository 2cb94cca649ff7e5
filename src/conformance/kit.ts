/**
 * Driving the host's conformance kit (docs/protocol.md, "Optional conformance kit"):
 * tether_conformance_block holds the main thread, _count is a non-idempotent side effect the
 * suite can count, _read reads a counter, _reload triggers a domain reload, _wait runs beside
 * the main thread, and _attach and _reject count and block under those duplicate policies.
 */
import { randomUUID } from 'node:crypto';
import { setTimeout as delay } from 'node:timers/promises';
import type { Agent, CallStartParams, CallStartResult, CallState, ToolResult } from '../protocol/index.js';
import { isRecord, settle, show, type Outcome } from './assertions.js';
import { CheckFailure } from './errors.js';
import { KIT, type KitTool } from './kit-tools.js';
import type { Session } from './session.js';
import type { CheckContext } from './types.js';

// The checks import the names from here, beside the drivers that use them.
export { KIT, type KitTool };

/**
 * Long enough that no check waits it out (checks cancel their blocks when done with them),
 * short enough that on a host whose cancel does not work one check's block cannot hold up
 * the rest of the run for long.
 */
export const LONG_BLOCK_MS = 10_000;
const STATE_POLL_MS = 20;
const STATE_WAIT_MS = 5_000;

/** Ids unique per run: the host journals callIds (and the kit keeps counters) across runs. */
export function uniqueId(label: string): string {
  return `conformance-${label}-${randomUUID()}`;
}

/** The counter value a count or read call returned, from structuredContent or its JSON text. */
export function countOf(result: ToolResult, what: string): number {
  const structured = result.structuredContent?.count;
  if (typeof structured === 'number') return structured;
  const first = result.content[0];
  if (first?.type === 'text') {
    try {
      const parsed: unknown = JSON.parse(first.text);
      if (isRecord(parsed) && typeof parsed.count === 'number') return parsed.count;
    } catch {
      // not JSON; reported below
    }
  }
  throw new CheckFailure(`${what}: the result carries no numeric "count": ${show(result)}`);
}

/** Reads counter `key` through tether_conformance_read (a fresh callId each time). */
export async function readCounter(session: Session, key: string): Promise<number> {
  const { result } = await session.start({ callId: uniqueId('read'), tool: KIT.read, arguments: { key } });
  return countOf(result, `reading counter "${key}"`);
}

export interface StartedCall {
  callId: string;
  /** When calls/start was sent (Date.now()). */
  sentAt: number;
  /** How calls/start ended; never rejects. */
  outcome: Promise<Outcome<CallStartResult>>;
}

/** Sends calls/start without waiting for it; the check is cancelled out of the queue when it ends. */
export function startCall(
  context: CheckContext,
  session: Session,
  tool: KitTool,
  args: Record<string, unknown>,
  callId = uniqueId(tool.replace('tether_conformance_', '')),
  agent?: Agent,
): StartedCall {
  return startWith(context, session, { callId, tool, arguments: args, ...(agent ? { agent } : {}) });
}

/** startCall with every calls/start param (deadlineMs, attachOnly); aborting `signal` abandons the request (notifications/cancelled). */
export function startWith(context: CheckContext, session: Session, params: CallStartParams, options: { signal?: AbortSignal } = {}): StartedCall {
  const sentAt = Date.now();
  const outcome = settle(session.start(params, options));
  context.defer(() => cancelIfLive(context, session, params.callId));
  return { callId: params.callId, sentAt, outcome };
}

/** Starts tether_conformance_block and returns once the host reports it running. */
export async function startBlock(context: CheckContext, session: Session, ms = LONG_BLOCK_MS, agent?: Agent): Promise<StartedCall> {
  const call = startCall(context, session, KIT.block, { ms }, undefined, agent);
  await untilState(session, call.callId, 'running');
  return call;
}

/**
 * Polls calls/status until the call is in `state`. Polling, because the protocol promises no
 * notification on a state change (progress only at least every heartbeatMs).
 */
export async function untilState(session: Session, callId: string, state: CallState, timeoutMs = STATE_WAIT_MS): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  let last: CallState | undefined;
  while (Date.now() < deadline) {
    last = (await session.status(callId)).state;
    if (last === state) return;
    if (last !== 'queued' && last !== 'running') break; // final: it will never get there
    await delay(STATE_POLL_MS);
  }
  throw new CheckFailure(`call "${callId}" did not reach state "${state}" (last state: ${last ?? 'none'})`);
}

/** Cleanup: a call the check left queued or running must not hold the main thread for the next check. */
async function cancelIfLive(context: CheckContext, session: Session, callId: string): Promise<void> {
  const via = session.isOpen ? session : await context.connect();
  const { state } = await via.status(callId);
  if (state === 'queued' || state === 'running') await via.cancel(callId, 'conformance check finished');
}
