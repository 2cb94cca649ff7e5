/**
 * What a running tool is given: its callId and agent, its cancellation, and ways to report
 * progress, log, and ask the connected client (elicitation, sampling) through the
 * connections that hear about the call.
 */
import type { LazyAbort } from '../protocol/index.js';
import { callErrors } from './call-errors.js';
import type { CallListener, LiveCall } from './live-call.js';
import type { ToolContext } from './tools.js';

export function toolContextFor(call: LiveCall, abort: LazyAbort): ToolContext {
  const { callId, agent } = call.entry;
  // The most recently attached connection that can answer is asked.
  const asker = (kind: 'elicit' | 'sample'): CallListener => {
    const chosen = call.listeners.filter((l) => l.observer[kind] !== undefined).at(-1);
    if (!chosen) throw callErrors.noClient(callId, kind);
    return chosen;
  };
  return {
    callId,
    ...(agent ? { agent } : {}),
    get signal() {
      return abort.signal;
    },
    progress: (update) => {
      call.lastProgress = { ...update };
      call.sendProgress(false);
    },
    log: (level, data, logger) => call.log(level, data, logger),
    elicit: async (message, requestedSchema) => {
      const l = asker('elicit');
      return l.observer.elicit!(l.callId, message, requestedSchema, abort.signal);
    },
    sample: async (params) => {
      const l = asker('sample');
      return l.observer.sample!(l.callId, params, abort.signal);
    },
  };
}
