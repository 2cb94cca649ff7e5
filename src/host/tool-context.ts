/**
 * What a running tool is given: its callId and agent, its cancellation, and ways to report
 * progress, log, and ask the connected client (elicitation, sampling) through the
 * connections that hear about the call.
 */
import type { Agent, LazyAbort } from '../protocol/index.js';
import { callErrors } from './call-errors.js';
import type { CallListener, LiveCall } from './live-call.js';
import type { ToolContext } from './tools.js';

export function toolContextFor(call: LiveCall, abort: LazyAbort): ToolContext {
  return new RunningToolContext(call, abort);
}

/**
 * A class, not an object literal: the signal is a getter (it makes the AbortSignal only for a
 * tool that reads it), and a literal with a getter had V8 define the accessor at run time for
 * every call (with the optional `agent` spread in, ~10k instructions a call, a tenth of the
 * host's). Here the getter is on the prototype; the other members are own properties, and
 * closures, so that a tool may destructure them (`const { progress } = ctx`).
 */
class RunningToolContext implements ToolContext {
  readonly callId: string;
  declare readonly agent?: Agent;
  readonly #call: LiveCall;
  readonly #abort: LazyAbort;

  constructor(call: LiveCall, abort: LazyAbort) {
    this.callId = call.entry.callId;
    // Only when there is one: `'agent' in ctx` says whether the client named an agent.
    if (call.entry.agent) (this as { agent?: Agent }).agent = call.entry.agent;
    this.#call = call;
    this.#abort = abort;
  }

  get signal(): AbortSignal {
    return this.#abort.signal;
  }

  readonly progress: ToolContext['progress'] = (update) => {
    this.#call.lastProgress = progressOf(update);
    this.#call.sendProgress(false);
  };

  readonly log: ToolContext['log'] = (level, data, logger) => this.#call.log(level, data, logger);

  readonly elicit: ToolContext['elicit'] = async (message, requestedSchema) => {
    const asked = this.#asker('elicit');
    return asked.observer.elicit!(asked.callId, message, requestedSchema, this.#abort.signal);
  };

  readonly sample: ToolContext['sample'] = async (params) => {
    const asked = this.#asker('sample');
    return asked.observer.sample!(asked.callId, params, this.#abort.signal);
  };

  /** The most recently attached connection that can answer is asked. */
  #asker(kind: 'elicit' | 'sample'): CallListener {
    const chosen = this.#call.listeners.filter((l) => l.observer[kind] !== undefined).at(-1);
    if (!chosen) throw callErrors.noClient(this.callId, kind);
    return chosen;
  }
}

/**
 * The fields of a progress report, each of its type, and nothing else. The last report is kept
 * and sent again with every heartbeat, from a timer: one JSON cannot encode (a BigInt) would be
 * thrown there, where nothing catches it and the process ends; any other field would be spread
 * into the notification, over its own (`state`, `callId`). A field of the wrong type is left
 * out, not thrown: a throw would stop a tool with side effects half way, for a progress line.
 */
function progressOf(update: ProgressUpdate): ProgressUpdate {
  const kept: ProgressUpdate = {};
  if (typeof update.progress === 'number') kept.progress = update.progress;
  if (typeof update.total === 'number') kept.total = update.total;
  if (typeof update.message === 'string') kept.message = update.message;
  return kept;
}

type ProgressUpdate = Parameters<ToolContext['progress']>[0];
