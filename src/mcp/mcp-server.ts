/**
 * One MCP server instance that mirrors the host: tools (with a built-in tether_status),
 * resources, prompts and completions, forwarded through the front's link. The SDK's serving
 * entry points create one per connection (stdio) or session (HTTP), pinned to an era.
 */
import {
  ProtocolError,
  ProtocolErrorCode,
  ResourceNotFoundError,
  Server,
  type CallToolResult,
  type ServerContext,
} from '@modelcontextprotocol/server';
import { METHODS, TetherError, liftedStringsOf, type CallProgress, type ElicitResult } from '../protocol/index.js';
import { unknownTool } from '../schema/suggest.js';
import type { CallListener } from '../link/host-link.js';
import type { Front } from './front.js';
import { agentOf, callOptionsFrom } from './request-meta.js';
import { ProgressRelay } from './progress-relay.js';
import { STATUS_TOOL, statusResult } from './status-tool.js';
import { USE_HOST_TOOL, useHostProject, useHostResult } from './use-host-tool.js';
import { errorResult, frontToolArguments, toMcpResult, toMcpTool } from './tool-results.js';
import type { ResultSplicer } from './splicing-stdio-transport.js';
import { TaskAwareServer, advertiseTaskSupport, confirmsCancel, isTaskContext, registerTaskHandlers, startTask, taskCapabilities } from './tasks.js';

export const SERVER_INFO = { name: 'tether', version: '0.1.0' };

export type Era = 'legacy' | 'modern';

export interface McpServerOptions {
  /** Writes results with long strings as they came from the host (tether mcp's stdio); unset, they are materialized. */
  splicer?: ResultSplicer;
  /**
   * Offered on HTTP sessions: lets a session rebind to another project's editor
   * (tether_use_host). The front comes held, so it stays open while its editor is awaited;
   * `release` lets it go once the session holds it (or does not want it).
   */
  resolveFront?(project: string): { front: Front; release(): void };
  /** Told whenever the server rebinds or its resource subscriptions change (an HTTP session keeps both). */
  onBindingChange?(binding: SessionBinding): void;
}

/** What an HTTP session needs to know of its server to let it go and rebuild it later. */
export interface SessionBinding {
  front: Front;
  subscriptions: number;
}

export function createMcpServer(front: Front, era: Era, options: McpServerOptions = {}): Server {
  const server = new TaskAwareServer(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      resources: { subscribe: true, listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      ...taskCapabilities(era),
    },
    instructions:
      'Tools of a running game editor (Unity or compatible), through Tether. Long tools (builds, tests) report progress; wait for them rather than calling again. tether_status shows whether the editor is connected.',
  });
  const subscriptions = new Set<string>();
  const bindingChanged = (): void => options.onBindingChange?.({ front, subscriptions: subscriptions.size });
  /** Questions from editor tools still waiting on this client; declined if it goes away. */
  const openQuestions = new Set<(answer: ElicitResult) => void>();
  const onResourceUpdated = (uri: string): void => {
    if (subscriptions.has(uri)) server.sendResourceUpdated({ uri }).catch(() => undefined);
  };
  const attach = (to: Front): void => {
    to.servers.add(server);
    to.link.on('resourceUpdated', onResourceUpdated);
  };
  const detach = (from: Front): void => {
    from.servers.delete(server);
    from.link.off('resourceUpdated', onResourceUpdated);
    for (const uri of subscriptions) void from.unsubscribe(uri);
  };
  attach(front);
  server.onclose = () => {
    detach(front);
    subscriptions.clear();
    // Resolved as declined, never with a made-up answer that a model would read.
    for (const decline of openQuestions) decline({ action: 'decline' });
    openQuestions.clear();
  };
  const ask = (question: Promise<ElicitResult>): Promise<ElicitResult> =>
    new Promise((resolve, reject) => {
      const settle = (answer: ElicitResult): void => {
        openQuestions.delete(settle);
        resolve(answer);
      };
      openQuestions.add(settle);
      question.then(settle, (error: unknown) => {
        openQuestions.delete(settle);
        reject(error as Error);
      });
    });

  server.setRequestHandler('tools/list', async () => {
    await front.catalogReady();
    return {
      tools: [...front.catalog.tools.map((tool) => advertiseTaskSupport(toMcpTool(tool), tool, era)), STATUS_TOOL, ...(options.resolveFront ? [USE_HOST_TOOL] : [])],
    };
  });

  server.setRequestHandler('tools/call', async function callTool(request, ctx): Promise<CallToolResult> {
    // A call the client wants as a task runs this same handler in the background (tasks.ts).
    const task = startTask(front, server, era, request, ctx, callTool);
    if (task) throw task;
    const { name, arguments: args = {} } = request.params;
    if (name === STATUS_TOOL.name) {
      try {
        frontToolArguments(STATUS_TOOL, args);
      } catch (error) {
        return errorResult(error);
      }
      return statusResult(front);
    }
    if (name === USE_HOST_TOOL.name && options.resolveFront) {
      let project: string;
      try {
        project = useHostProject(args);
      } catch (error) {
        return errorResult(error);
      }
      const next = options.resolveFront(project);
      try {
        // The session moves only once the other editor answers: a typo or an editor that is
        // not running leaves it where it was, and says so.
        const reached = await useHostResult(next.front, ctx.mcpReq.signal, front);
        if (reached.isError || next.front === front) return reached;
        detach(front);
        front = next.front;
        attach(front);
        for (const uri of subscriptions) void front.subscribe(uri).catch(() => undefined);
        void server.sendToolListChanged().catch(() => undefined);
        bindingChanged();
        return reached;
      } finally {
        next.release();
      }
    }
    let tool = front.catalog.tool(name);
    if (!tool) {
      try {
        tool = await front.lookUpTool(name, ctx.mcpReq.signal);
      } catch (error) {
        return errorResult(error);
      }
    }
    if (!tool) return errorResult(unknownTool(name, [...front.catalog.tools.map((t) => t.name), STATUS_TOOL.name]));
    const relay = new ProgressRelay(ctx, front.keepaliveMs, () => front.waitingMessage());
    try {
      front.catalog.validate(tool, args);
      const { idempotencyKey, deadlineMs } = callOptionsFrom(request.params._meta);
      // Options that carry an AbortSignal are written out, never spread: on Node 20 every
      // AbortSignal has a hidden class of its own, so an object spread holding one gets a new
      // one too, on every call, and each read of it misses (see docs/performance.md).
      const outcome = await front.call(tool, args, {
        idempotencyKey,
        deadlineMs,
        agent: agentOf(server, request.params._meta),
        signal: ctx.mcpReq.signal,
        listener: listenerFor(ctx, era, relay, ask),
        confirmCancelMs: confirmsCancel(ctx) ? Number.POSITIVE_INFINITY : undefined,
      });
      // A call that reloaded the editor (a compile) may have changed the tools: let the
      // mirror catch up first, so a tools/list right after this answer is already current.
      await front.catalog.settled();
      let result = toMcpResult(outcome.result);
      const lifted = liftedStringsOf(outcome);
      if (lifted) {
        // Long strings go out as the bytes the host sent, spliced in as the response is
        // written; a result kept for later (a task) or checked against a schema needs them real.
        if (options.splicer && !tool.outputSchema && !isTaskContext(ctx)) options.splicer.hold(ctx.mcpReq.id, lifted, ctx.mcpReq.signal);
        else result = lifted.materialize(result);
      }
      return server.projectCallToolResult(result, tool.outputSchema);
    } catch (error) {
      return errorResult(error);
    } finally {
      relay.close();
    }
  });

  // Like tools/list: on a first run, the lists wait briefly for the editor rather than answer empty.
  server.setRequestHandler('resources/list', async () => {
    await front.catalogReady();
    return { resources: [...front.catalog.resources] };
  });
  server.setRequestHandler('resources/templates/list', async () => {
    await front.catalogReady();
    return { resourceTemplates: [...front.catalog.resourceTemplates] };
  });
  server.setRequestHandler('resources/read', (request, ctx) =>
    forward(() => front.link.request(METHODS.resourcesRead, { uri: request.params.uri }, front.waitMs, ctx.mcpReq.signal), request.params.uri),
  );
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    if (!subscriptions.has(uri)) {
      subscriptions.add(uri);
      bindingChanged();
      await forward(() => front.subscribe(uri));
    }
    return {};
  });
  server.setRequestHandler('resources/unsubscribe', async (request) => {
    if (subscriptions.delete(request.params.uri)) {
      bindingChanged();
      await front.unsubscribe(request.params.uri);
    }
    return {};
  });
  server.setRequestHandler('prompts/list', async () => {
    await front.catalogReady();
    return { prompts: [...front.catalog.prompts] };
  });
  server.setRequestHandler('prompts/get', (request, ctx) =>
    forward(() => front.link.request(METHODS.promptsGet, { name: request.params.name, arguments: request.params.arguments ?? {} }, front.waitMs, ctx.mcpReq.signal)),
  );
  server.setRequestHandler('completion/complete', (request, ctx) =>
    forward(() => front.link.request(METHODS.complete, request.params, front.waitMs, ctx.mcpReq.signal)),
  );
  registerTaskHandlers(server, front, era);
  return server;
}

/** Routes the host's progress, logs and questions for one call to the MCP request. */
function listenerFor(ctx: ServerContext, era: Era, relay: ProgressRelay, ask: (question: Promise<ElicitResult>) => Promise<ElicitResult>): CallListener {
  return {
    progress: (update: CallProgress) => relay.forward(update),
    log: (message) => {
      void ctx.mcpReq.log(message.level, message.data, message.logger).catch(() => undefined);
    },
    // Asked on the call's own response stream (related to its request), as the spec advises:
    // unrelated, the SDK sends them on the standalone GET stream, and a client without one
    // would never see the question.
    elicit: async ({ message, requestedSchema }) => {
      if (era !== 'legacy') throw modernCannotAsk('a question');
      return ask(ctx.mcpReq.elicitInput({ message, requestedSchema: requestedSchema as never }, { relatedRequestId: ctx.mcpReq.id }) as Promise<ElicitResult>);
    },
    sample: async (params) => {
      if (era !== 'legacy') throw modernCannotAsk('a sampling request');
      return ctx.mcpReq.requestSampling(params as never, { relatedRequestId: ctx.mcpReq.id });
    },
  };
}

function modernCannotAsk(what: string): TetherError {
  return new TetherError(
    'CLIENT_REQUEST_FAILED',
    `The MCP client connected with the 2026-07-28 protocol, which cannot receive ${what} in the middle of a tool call through Tether yet.`,
  );
}

/** Host errors on non-tool requests become MCP protocol errors with the host's message. */
async function forward<T>(request: () => Promise<T>, uri?: string): Promise<T> {
  try {
    return await request();
  } catch (error) {
    const failure = TetherError.from(error);
    if (failure.code === 'NOT_FOUND' && uri) throw new ResourceNotFoundError(uri);
    // An unknown prompt or completion reference is the client's mistake (MCP: -32602), not the server's.
    const code = failure.code === 'INVALID_PARAMS' || failure.code === 'NOT_FOUND' ? ProtocolErrorCode.InvalidParams : ProtocolErrorCode.InternalError;
    throw new ProtocolError(code, failure.message, { code: failure.code, ...failure.data });
  }
}
