/**
 * A tools/call that becomes an MCP task (see task-wire.ts for the two eras): started in the
 * front's store and answered with the task at once, while the very same tools/call handler
 * runs it in the background with a context of its own. That context has the task's
 * AbortSignal (cancelling the task cancels the call at the host: a legacy task is cancelled
 * at once, a modern one ends as the editor answers the cancel), turns progress into the
 * task's status message, and cannot ask the client anything mid-call.
 */
import { ProtocolError, ProtocolErrorCode, isCallToolResult, isSpecType, type CallToolRequest, type CallToolResult, type ProtocolEra, type ServerContext } from '@modelcontextprotocol/server';
import { TetherError, isObject } from '../protocol/index.js';
import type { Front } from './front.js';
import type { TaskRouter } from './task-aware-server.js';
import type { TaskEnd, TaskRecord } from './task-store.js';
import { RELATED_TASK_META_KEY, acceptsTasks, taskCreated } from './task-wire.js';
import { ERROR_META_KEY } from './tool-results.js';

/** The tools/call handler; `asTaskOf` names the era of the task it runs for, if it runs for one. */
export type ToolCallRunner = (request: CallToolRequest, ctx: ServerContext, asTaskOf?: ProtocolEra) => Promise<CallToolResult>;

export interface ToolCallTasks {
  /** The front the session uses now: its store keeps the tasks. */
  front(): Front;
  era: ProtocolEra;
  /** The session the tasks belong to: tasks/list shows a session its own. */
  owner: object;
  run: ToolCallRunner;
}

/**
 * Routes a tools/call to a task when the client wants one; undefined means "answer
 * synchronously, as usual".
 *
 * - legacy: the client asked (`params.task`), for any tool.
 * - modern: the client accepts tasks (the extension is in the request's capabilities) and the
 *   tool is long-running (or not known yet).
 *
 * A request the SDK would refuse is not routed: its own check answers it, as for any call.
 */
export function toolCallTasks({ front: current, era, owner, run }: ToolCallTasks): TaskRouter {
  return (request, ctx) => {
    const front = current();
    if (!wantsTask(front, era, request.params, ctx.mcpReq.envelope) || !isSpecType.CallToolRequest(request)) return undefined;
    const { task, ...params } = request.params as CallToolRequest['params'] & { task?: unknown };
    const requestedTtl = era === 'legacy' ? ttlOf(task) : undefined;
    const record = front.tasks.start(
      { era, tool: params.name, owner, ...(requestedTtl === undefined ? {} : { ttlMs: requestedTtl }), statusMessage: `Running ${params.name}.` },
      async ({ signal, report, record: started }) => {
        const taskCtx = taskContext(ctx, started, signal, report);
        return endOf(started, await run({ method: 'tools/call', params }, taskCtx, era));
      },
    );
    if (record) return taskCreated(record);
    // Full of running tasks: a modern client simply gets the result synchronously.
    if (era === 'modern') return undefined;
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Too many tasks are running (${front.tasks.maxTasks}); try again when some have finished.`);
  };
}

/**
 * Whether a tools/call with these params (and, in the modern era, this envelope) runs as a
 * task, as the router below decides it.
 */
export function wantsTask(front: Front, era: ProtocolEra, params: unknown, envelope: unknown): boolean {
  if (!isObject(params)) return false;
  if (era === 'legacy') return isObject(params.task);
  if (!acceptsTasks(envelope) || typeof params.name !== 'string') return false;
  const tool = front.tool(params.name);
  // A tool the mirror does not know yet (a first run, before the editor answered) may well
  // be a long one: looking it up can take as long as the editor takes to come up, so it
  // runs as a task too. Unknown to a mirror fresh from the editor, it is a mistake: answered at once.
  if (!tool) return !front.listsFresh;
  return tool.execution?.longRunning === true;
}

function ttlOf(task: unknown): number | undefined {
  const ttl = isObject(task) ? task.ttl : undefined;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : undefined;
}

/**
 * The context a task's call runs with. Its signal is the task's; its progress becomes the
 * task's status message (and, on legacy, still reaches a client that gave a progressToken,
 * tagged with the task); nothing can be asked of the client, whose request is long answered.
 */
function taskContext(ctx: ServerContext, record: TaskRecord, signal: AbortSignal, report: (message: string) => void): ServerContext {
  const clientToken = record.era === 'legacy' ? ctx.mcpReq._meta?.progressToken : undefined;
  const cannotAsk = async (): Promise<never> => {
    throw new TetherError('CLIENT_REQUEST_FAILED', `"${record.tool}" runs as a task, which cannot ask the client anything in the middle of the call.`);
  };
  return {
    ...ctx,
    mcpReq: {
      ...ctx.mcpReq,
      signal,
      _meta: { ...ctx.mcpReq._meta, progressToken: clientToken ?? `tether-task-${record.taskId}` },
      notify: async (notification) => {
        if (notification.method !== 'notifications/progress') return;
        const params = (notification.params ?? {}) as { message?: unknown; _meta?: Record<string, unknown> };
        if (typeof params.message === 'string' && params.message) report(params.message);
        if (clientToken === undefined) return;
        const tagged = { ...params, progressToken: clientToken, _meta: { ...params._meta, [RELATED_TASK_META_KEY]: { taskId: record.taskId } } };
        await ctx.mcpReq.notify({ ...notification, params: tagged } as typeof notification);
      },
      log: async () => undefined,
      send: cannotAsk as ServerContext['mcpReq']['send'],
      elicitInput: cannotAsk,
      requestSampling: cannotAsk,
    },
  };
}

/**
 * How a task ends, from what tools/call would have answered. A host error is an isError
 * result: on modern that is a *completed* task (SEP-2663: `failed` is for JSON-RPC errors
 * only), on legacy a *failed* one (2025-11-25: "for tool calls, this includes cases where the
 * tool call result has isError set to true"). A cancelled call is a cancelled task in both.
 */
function endOf(record: TaskRecord, answer: unknown): TaskEnd {
  const { tool } = record;
  const candidate = isObject(answer) && answer.content === undefined ? { ...answer, content: [] } : answer;
  if (!isCallToolResult(candidate)) {
    const message = `Invalid tools/call result from "${tool}".`;
    return { status: 'failed', statusMessage: message, error: { code: ProtocolErrorCode.InvalidParams, message } };
  }
  const result = candidate;
  if (!result.isError) return { status: 'completed', statusMessage: `${tool} completed.`, result };
  const text = textOf(result) ?? `${tool} failed.`;
  if (errorCodeOf(result) === 'CANCELLED') return { status: 'cancelled', statusMessage: text, result };
  return { status: record.era === 'legacy' ? 'failed' : 'completed', statusMessage: text, result };
}

function errorCodeOf(result: CallToolResult): unknown {
  const meta = result._meta?.[ERROR_META_KEY];
  return isObject(meta) ? meta.code : undefined;
}

function textOf(result: CallToolResult): string | undefined {
  const block = result.content.find((c) => c.type === 'text');
  return block && 'text' in block ? block.text : undefined;
}
