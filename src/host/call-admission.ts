/**
 * What a new callId becomes: its journal entry (as "queued", the arguments validated and
 * hashed, the agent as journaled), and what an identical call already in flight means for
 * it under the tool's duplicate policy: refused, sharing that one execution, or running on its own.
 */
import type { Agent, CallStartParams } from '../protocol/index.js';
import { callErrors } from './call-errors.js';
import { hashArguments, type JournalEntry } from './journal-entry.js';
import { duplicatePolicyOf, type RegisteredTool } from './tools.js';

/** The arguments' hash, or INVALID_ARGUMENTS for arguments nested too deeply to walk (thousands of levels). */
export function readableArgumentsHash(tool: string, args: unknown): string {
  try {
    return hashArguments(tool, args);
  } catch (error) {
    if (!(error instanceof RangeError)) throw error;
    throw callErrors.tooDeep(tool);
  }
}

/** The entry's arguments hash, hashed now (and kept) if it was put off (JournalEntry.unhashedArguments). */
export function argsHashOf(entry: JournalEntry): string {
  if (entry.argsHash === undefined) {
    entry.argsHash = readableArgumentsHash(entry.tool, entry.unhashedArguments ?? {});
    delete entry.unhashedArguments;
  }
  return entry.argsHash;
}

/**
 * The "queued" entry of a new call on `lane`, its arguments validated by the tool
 * (INVALID_ARGUMENTS otherwise). The arguments are hashed now unless nothing needs the hash
 * before a repeat of the callId does, and a copy of them cannot change meanwhile: a
 * read-only call (its entry never on disk) whose tool shares no execution (duplicate policy
 * "allow"), with flat arguments. Nested ones are hashed at once: a copy would cost what the
 * hash does, and the tool is given them (a JSON Schema tool the very object) and may change
 * them, which would make a retry of the same call read as a conflict.
 */
export function queuedEntry(params: CallStartParams, tool: RegisteredTool, lane: string): JournalEntry {
  const args = params.arguments ?? {};
  const validated = tool.validate(args);
  const deadlineMs = params.deadlineMs ?? tool.descriptor.execution.deadlineMs;
  const volatile = tool.descriptor.annotations.readOnlyHint === true;
  // Members added in order rather than spread into the literal: each spread copies through a
  // builtin, for every call.
  const entry: JournalEntry = { callId: params.callId, tool: params.tool, arguments: validated, lane, state: 'queued', queuedAt: Date.now() };
  const kept = volatile && duplicatePolicyOf(tool.descriptor) === 'allow' ? flatCopy(args) : undefined;
  if (kept) entry.unhashedArguments = kept;
  else entry.argsHash = readableArgumentsHash(params.tool, args);
  if (deadlineMs !== undefined) entry.deadlineMs = deadlineMs;
  if (volatile) entry.volatile = true;
  if (params.agent) entry.agent = agentOf(params.agent);
  return entry;
}

/** A copy of `args` if every value in it is a string, number, boolean or null; undefined if any is an object or array. */
function flatCopy(args: Record<string, unknown>): Record<string, unknown> | undefined {
  for (const key in args) {
    const value = args[key];
    if (typeof value === 'object' && value !== null) return undefined;
  }
  return { ...args };
}

/**
 * What an identical call in flight (`twin`) means for a new one: the execution it shares (the
 * entry becoming its alias, in its state), none when it runs on its own, or DUPLICATE_CALL
 * when the tool rejects twins.
 */
export function executionToShare<Call extends { entry: JournalEntry }>(entry: JournalEntry, tool: RegisteredTool, twin: Call | undefined): Call | undefined {
  const policy = duplicatePolicyOf(tool.descriptor);
  if (twin && policy === 'reject') throw callErrors.duplicate(entry.tool, entry.callId, twin.entry);
  if (!twin || policy !== 'attach') return undefined;
  // The incident-1 shape: a re-sent build must not queue a second build behind the first.
  entry.aliasOf = twin.entry.callId;
  entry.state = twin.entry.state;
  if (twin.entry.startedAt !== undefined) entry.startedAt = twin.entry.startedAt;
  return twin;
}

/** The agent as journaled: its name and version only, whatever else the client sent. */
function agentOf(agent: Agent): Agent {
  return agent.version === undefined ? { name: agent.name } : { name: agent.name, version: agent.version };
}
