/**
 * tools/call: the front's own tools, and the editor's, with the editor's progress, logs and
 * questions routed to the MCP client. The same handler answers a call at once and runs one
 * that became a task (tool-call-tasks.ts).
 */
import type { CallToolResult, ProtocolEra, Server, ServerContext } from '@modelcontextprotocol/server';
import { TetherError, liftedStringsOf, type CallProgress, type ElicitResult } from '../protocol/index.js';
import { unknownTool } from '../schema/suggest.js';
import type { CallListener } from '../link/host-link.js';
import type { Front } from './front.js';
import { STATUS_TOOL, USE_HOST_TOOL } from './front-tools.js';
import { ProgressRelay } from './progress-relay.js';
import { agentOf, callOptionsFrom } from './request-meta.js';
import type { ResultSplicer } from './splicing-stdio-transport.js';
import { statusResult } from './status-tool.js';
import type { ToolCallRunner } from './tool-call-tasks.js';
import { errorResult, frontToolArguments, toMcpResult } from './tool-results.js';
import { useHostProject } from './use-host-tool.js';

/** What the handler needs of the MCP server instance it serves. */
export interface ToolCallSession {
  server: Server;
  era: ProtocolEra;
  /** The front the session uses now (tether_use_host may change it). */
  front(): Front;
  /** Writes results with long strings as they came from the host (tether mcp's stdio); unset, they are materialized. */
  splicer?: ResultSplicer;
  /** Offered on HTTP sessions: moves the session to the editor of `project` (tether_use_host), once it answers. */
  useHost?(project: string, signal: AbortSignal): Promise<CallToolResult>;
  /** Asks the client a question from the editor; declined if the client goes away first. */
  ask(question: Promise<ElicitResult>): Promise<ElicitResult>;
}

export function toolCallHandler(session: ToolCallSession): ToolCallRunner {
  return async (request, ctx, asTaskOf) => {
    const front = session.front();
    const { name, arguments: args = {} } = request.params;
    if (name === STATUS_TOOL.name) {
      try {
        frontToolArguments(STATUS_TOOL, args);
      } catch (error) {
        return errorResult(error);
      }
      return statusResult(front);
    }
    if (name === USE_HOST_TOOL.name && session.useHost) {
      let project: string;
      try {
        project = useHostProject(args);
      } catch (error) {
        return errorResult(error);
      }
      return session.useHost(project, ctx.mcpReq.signal);
    }
    let tool = front.tool(name);
    if (!tool) {
      try {
        tool = await front.lookUpTool(name, ctx.mcpReq.signal);
      } catch (error) {
        return errorResult(error);
      }
    }
    if (!tool) return errorResult(unknownTool(name, [...front.tools.map((t) => t.name), STATUS_TOOL.name]));
    const relay = new ProgressRelay(ctx, front.keepaliveMs, () => front.waitingMessage());
    try {
      front.validate(tool, args);
      const { idempotencyKey, deadlineMs } = callOptionsFrom(request.params._meta);
      // Options that carry an AbortSignal are written out, never spread: on Node 20 every
      // AbortSignal has a hidden class of its own, so an object spread holding one gets a new
      // one too, on every call, and each read of it misses (see docs/performance.md).
      const outcome = await front.call(tool, args, {
        idempotencyKey,
        deadlineMs,
        agent: agentOf(session.server, request.params._meta),
        signal: ctx.mcpReq.signal,
        listener: listenerFor(ctx, session, relay),
        // A modern task's cancel only asks, and the task ends as the editor says (SEP-2663);
        // a legacy task is cancelled at once, and a plain call's client reads no answer.
        confirmCancelMs: asTaskOf === 'modern' ? Number.POSITIVE_INFINITY : undefined,
      });
      let result = toMcpResult(outcome.result);
      const lifted = liftedStringsOf(outcome);
      if (lifted) {
        // Long strings go out as the bytes the host sent, spliced in as the response is
        // written; a result kept for later (a task) or checked against a schema needs them real.
        if (session.splicer && !tool.outputSchema && !asTaskOf) session.splicer.hold(ctx.mcpReq.id, lifted, ctx.mcpReq.signal);
        else result = lifted.materialize(result);
      }
      return session.server.projectCallToolResult(result, tool.outputSchema);
    } catch (error) {
      return errorResult(error);
    } finally {
      relay.close();
    }
  };
}

/** Routes the host's progress, logs and questions for one call to the MCP request. */
function listenerFor(ctx: ServerContext, session: ToolCallSession, relay: ProgressRelay): CallListener {
  return {
    progress: (update: CallProgress) => relay.forward(update),
    log: (message) => {
      void ctx.mcpReq.log(message.level, message.data, message.logger).catch(() => undefined);
    },
    // Asked on the call's own response stream (related to its request), as the spec advises:
    // unrelated, the SDK sends them on the standalone GET stream, and a client without one
    // would never see the question.
    elicit: async ({ message, requestedSchema }) => {
      if (session.era !== 'legacy') throw modernCannotAsk('a question');
      return session.ask(ctx.mcpReq.elicitInput({ message, requestedSchema: requestedSchema as never }, { relatedRequestId: ctx.mcpReq.id }) as Promise<ElicitResult>);
    },
    sample: async (params) => {
      if (session.era !== 'legacy') throw modernCannotAsk('a sampling request');
      return ctx.mcpReq.requestSampling(params as never, { relatedRequestId: ctx.mcpReq.id });
    },
  };
}

function modernCannotAsk(what: string): TetherError {
  return new TetherError('CLIENT_REQUEST_FAILED', `The MCP client connected with the 2026-07-28 protocol, which cannot receive ${what} in the middle of a tool call through Tether yet.`);
}
