/**
 * A journal entry: what the host records about one callId, from "queued" to its final state,
 * and the fingerprint (tool and canonical arguments) that ties a repeat of the callId, or an
 * identical call, to it.
 */
import * as crypto from 'node:crypto';
import { canonicalJson, type Agent, type CallState, type ToolResult } from '../protocol/index.js';

export interface JournalError {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

export interface JournalEntry {
  callId: string;
  tool: string;
  arguments: Record<string, unknown>;
  /**
   * Hash of the canonical arguments: a repeat of the callId must carry the same ones. Unset
   * while `unhashedArguments` holds them; read it through argsHashOf.
   */
  argsHash?: string;
  /**
   * Kept in memory only, on a read-only call with flat arguments that shares no execution
   * (see queuedEntry): a copy of the arguments as they were asked, hashed the first time the
   * hash is needed, by a repeat of the callId. Most such calls are never repeated, and hashing
   * every one cost the host ~9k instructions a call (docs/performance.md).
   */
  unhashedArguments?: Record<string, unknown>;
  /** The fairness lane (connection) the call was queued on. */
  lane: string;
  state: CallState;
  queuedAt: number;
  startedAt?: number;
  finishedAt?: number;
  deadlineMs?: number;
  /** Set when this callId shares the execution of an identical call already in flight. */
  aliasOf?: string;
  /** The agent that asked for the call (calls/start's `agent`); absent in journals written before it existed. */
  agent?: Agent;
  /**
   * Set when this callId withdrew from a shared execution that others still wanted
   * (calls/cancel): the CANCELLED error its requests got. An alias that withdrew ends
   * cancelled with it, whatever the execution's outcome.
   */
  withdrawn?: JournalError;
  /**
   * Set on a call a restart found queued (protocol.md §8.5): left by an editor that stopped, it
   * runs only if a requester comes back for it within the grace, and is cleared when one does.
   * Journaled, so that a domain reload during that grace does not make the next life take it
   * for a call its requesters are still waiting for.
   */
  leftByRestart?: true;
  /**
   * Kept in memory only. Read-only calls need no durable record: running one again after a
   * restart is harmless, and skipping the disk keeps them fast.
   */
  volatile?: true;
  result?: ToolResult;
  error?: JournalError;
}

export const FINAL_STATES: ReadonlySet<CallState> = new Set(['completed', 'failed', 'cancelled', 'interrupted']);

/** As FINAL_STATES.has(entry.state), without a hash lookup: it is asked several times on every call. */
export function isFinal(entry: JournalEntry): boolean {
  const { state } = entry;
  return state === 'completed' || state === 'failed' || state === 'cancelled' || state === 'interrupted';
}

export function hashArguments(tool: string, args: unknown): string {
  return sha256Hex(`${tool}\0${canonicalJson(args)}`).slice(0, 32);
}

/**
 * One call of crypto.hash (Node 20.12 and later) instead of a Hash object: a host hashes every
 * call's arguments, and the object (a native handle the GC must track) made it cost about
 * twice as much in isolation (1.7 against 0.9 us). Same digest either way, so journals written
 * before still match.
 */
const sha256Hex: (text: string) => string = typeof crypto.hash === 'function' ? (text) => crypto.hash('sha256', text, 'hex') : (text) => crypto.createHash('sha256').update(text).digest('hex');
