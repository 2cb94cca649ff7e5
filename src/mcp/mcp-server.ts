/**
 * One MCP server instance that mirrors the host: tools (with the front's own, tool-call.ts),
 * resources, prompts and completions, forwarded through its front, and MCP tasks. The SDK's
 * serving entry points create one per connection (stdio) or session (HTTP), pinned to an era.
 */
import { ProtocolError, ProtocolErrorCode, ResourceNotFoundError, type ProtocolEra, type Server } from '@modelcontextprotocol/server';
import { METHODS, TetherError, type ElicitResult } from '../protocol/index.js';
import type { Front } from './front.js';
import { STATUS_TOOL, USE_HOST_TOOL } from './front-tools.js';
import type { FastCallServing } from './fast-path/fast-call-transport.js';
import type { ResultSplicer } from './splicing-stdio-transport.js';
import { TaskAwareServer } from './task-aware-server.js';
import { registerTaskHandlers } from './task-handlers.js';
import type { TaskStore } from './task-store.js';
import { advertiseTaskSupport, taskCapabilities } from './task-wire.js';
import { toolCallHandler } from './tool-call.js';
import { toolCallTasks } from './tool-call-tasks.js';
import { toMcpTool } from './tool-results.js';
import { useHostResult } from './use-host-tool.js';

export const SERVER_INFO = { name: 'tether', version: '0.1.0' };

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
  /**
   * Whose tasks this server's tasks/list shows. An HTTP session passes the same token to each
   * server it builds, so it keeps its tasks across its sleeps; by default, the server's own.
   */
  taskOwner?: object;
  /** The task stores tasks/* look in; by default those of every front this server was bound to. */
  taskStores?: () => Iterable<TaskStore>;
  /** tether mcp's stdio transport: answers plain tools/call itself with this server's handler (fast-path/). */
  fastCalls?: { serve(serving: FastCallServing): void };
}

/** What an HTTP session needs to know of its server to let it go and rebuild it later. */
export interface SessionBinding {
  front: Front;
  subscriptions: number;
}

export function createMcpServer(front: Front, era: ProtocolEra, options: McpServerOptions = {}): Server {
  const server = new TaskAwareServer(SERVER_INFO, {
    capabilities: {
      tools: { listChanged: true },
      // 2026-07-28 clients subscribe through subscriptions/listen, which the SDK serves without
      // telling its server which URIs: the editor would never be asked for their updates, and
      // the subscription acknowledged would stay silent. Not offered there (the SDK then leaves it
      // out of the acknowledgement) until the server can learn them.
      resources: { subscribe: era === 'legacy', listChanged: true },
      prompts: { listChanged: true },
      completions: {},
      logging: {},
      ...taskCapabilities(era),
    },
    instructions:
      'Tools of a running game editor (Unity or compatible), through Tether. Long tools (builds, tests) report progress; wait for them rather than calling again. tether_status shows whether the editor is connected.',
  });
  const subscriptions = new Set<string>();
  /** Every front this server has used: tasks it started there stay reachable (tasks/*). */
  const boundFronts = new Set<Front>([front]);
  const bindingChanged = (): void => options.onBindingChange?.({ front, subscriptions: subscriptions.size });
  /** Questions from editor tools still waiting on this client; declined if it goes away. */
  const openQuestions = new Set<(answer: ElicitResult) => void>();
  const attach = (to: Front): (() => void) => {
    const detach = to.attach({
      agent: () => {
        const info = server.getClientVersion();
        return info ? { name: info.name, ...(info.version ? { version: info.version } : {}) } : undefined;
      },
      toolsChanged: () => server.sendToolListChanged(),
      resourcesChanged: () => server.sendResourceListChanged(),
      promptsChanged: () => server.sendPromptListChanged(),
      resourceUpdated: (uri) => (subscriptions.has(uri) ? server.sendResourceUpdated({ uri }) : undefined),
    });
    return () => {
      detach();
      for (const uri of subscriptions) void to.unsubscribe(uri);
    };
  };
  let detach = attach(front);
  server.onclose = () => {
    detach();
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
  const { resolveFront } = options;
  const useHost = resolveFront
    ? async (project: string, signal: AbortSignal) => {
        const next = resolveFront(project);
        try {
          // The session moves only once the other editor answers: a typo or an editor that is
          // not running leaves it where it was, and says so.
          const reached = await useHostResult(next.front, signal, front);
          if (reached.isError || next.front === front) return reached;
          detach();
          front = next.front;
          boundFronts.add(front);
          detach = attach(front);
          for (const uri of subscriptions) void front.subscribe(uri).catch(() => undefined);
          // Every list is the other editor's now.
          void server.sendToolListChanged().catch(() => undefined);
          void server.sendResourceListChanged().catch(() => undefined);
          void server.sendPromptListChanged().catch(() => undefined);
          bindingChanged();
          return reached;
        } finally {
          next.release();
        }
      }
    : undefined;

  const owner = options.taskOwner ?? {};
  const current = (): Front => front;
  const callTool = toolCallHandler({ server, era, front: current, splicer: options.splicer, useHost, ask });
  // A call the client wants as a task runs this same handler in the background (tool-call-tasks.ts).
  server.routeTasks(toolCallTasks({ front: current, era, owner, run: callTool }));
  server.setRequestHandler('tools/call', (request, ctx) => callTool(request, ctx));
  options.fastCalls?.serve({ server, era, front: current, run: (request, ctx) => callTool(request, ctx) });
  server.setRequestHandler('tools/list', async () => {
    const { tools } = await front.lists();
    return { tools: [...tools.map((tool) => advertiseTaskSupport(toMcpTool(tool), tool, era)), STATUS_TOOL, ...(resolveFront ? [USE_HOST_TOOL] : [])] };
  });
  // Like tools/list: on a first run, the lists wait briefly for the editor rather than answer empty.
  server.setRequestHandler('resources/list', async () => ({ resources: [...(await front.lists()).resources] }));
  server.setRequestHandler('resources/templates/list', async () => ({ resourceTemplates: [...(await front.lists()).resourceTemplates] }));
  server.setRequestHandler('resources/read', (request, ctx) => forward(() => front.request(METHODS.resourcesRead, { uri: request.params.uri }, ctx.mcpReq.signal), request.params.uri));
  server.setRequestHandler('resources/subscribe', async (request) => {
    const { uri } = request.params;
    if (!subscriptions.has(uri)) {
      subscriptions.add(uri);
      bindingChanged();
      try {
        await forward(() => front.subscribe(uri));
      } catch (error) {
        // Refused, so not subscribed: no updates for it later, and nothing held at the editor.
        if (subscriptions.delete(uri)) {
          bindingChanged();
          void front.unsubscribe(uri).catch(() => undefined);
        }
        throw error;
      }
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
  server.setRequestHandler('prompts/list', async () => ({ prompts: [...(await front.lists()).prompts] }));
  server.setRequestHandler('prompts/get', (request, ctx) =>
    forward(() => front.request(METHODS.promptsGet, { name: request.params.name, arguments: request.params.arguments ?? {} }, ctx.mcpReq.signal)),
  );
  server.setRequestHandler('completion/complete', (request, ctx) => forward(() => front.request(METHODS.complete, request.params, ctx.mcpReq.signal)));
  // A session rebound by tether_use_host starts its next tasks at the other front: tasks/*
  // look in every front it was bound to, or every front the embedder names (serve: its pool).
  registerTaskHandlers(server, options.taskStores ?? (() => [...boundFronts].map((bound) => bound.tasks)), era, owner);
  return server;
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
