/**
 * MCP tasks for long-running tools, in both protocol eras. The SDK has no server runtime for
 * either, so the front implements them:
 *
 * - 2025-11-25 (legacy era), the experimental Tasks utility: the client asks for a task with
 *   `params.task` on tools/call and gets `{ task }` back, then uses tasks/get, tasks/result
 *   (blocks until the task is terminal, then answers what tools/call would have answered),
 *   tasks/list and tasks/cancel. Capability `tasks`; tools advertise `execution.taskSupport`.
 * - 2026-07-28 (modern era), the `io.modelcontextprotocol/tasks` extension (SEP-2663): task
 *   creation is server-directed. A client that lists the extension in its per-request
 *   capabilities may get `{ resultType: "task", taskId, … }` for tools/call; it polls with
 *   tasks/get (the final result or JSON-RPC error is inlined) and may call tasks/cancel and
 *   tasks/update. Capability `extensions["io.modelcontextprotocol/tasks"]`; no tasks/list,
 *   no tasks/result.
 *
 * A task runs the very same tools/call handler as a synchronous call, with a context of its
 * own: its own AbortSignal (cancelling the task cancels the call at the host; a 2025 task is
 * cancelled at once, a 2026 one ends as the editor answers the cancel), its progress
 * turned into the task's status message, and no way to ask the client anything mid-call.
 * Tasks live in the front (see task-store.ts), so any session may poll a task by its id.
 */
import {
  CLIENT_CAPABILITIES_META_KEY,
  MissingRequiredClientCapabilityError,
  ProtocolError,
  ProtocolErrorCode,
  Server,
  isCallToolResult,
  type CallToolRequest,
  type CallToolResult,
  type JSONRPCRequest,
  type Result,
  type ServerCapabilities,
  type ServerContext,
  type Tool,
} from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TetherError, isObject, type ToolDescriptor } from '../protocol/index.js';
import type { Front } from './front.js';
import { invalidParamsOf } from './invalid-params.js';
import { ERROR_META_KEY, errorResult } from './tool-results.js';
import { TaskStore, isTerminal, type TaskEnd, type TaskFlavor, type TaskRecord } from './task-store.js';

type Era = 'legacy' | 'modern';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The 2025-11-25 `_meta` key that ties a message to its task. */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';
/** 2025-11-25: an optional text a host may hand the model at once while the task runs. */
export const IMMEDIATE_RESPONSE_META_KEY = 'io.modelcontextprotocol/model-immediate-response';

const TASK_LIST_PAGE = 100;

// --- The front's store -----------------------------------------------------------------------

const stores = new WeakMap<Front, TaskStore>();

/** The tasks of a front, created on first use; closing the front (its link) ends them and their timers. */
export function tasksOf(front: Front): TaskStore {
  let store = stores.get(front);
  if (!store) {
    const created = new TaskStore();
    stores.set(front, created);
    if (front.link.state === 'closed') created.close();
    front.link.on('state', (state) => {
      if (state === 'closed') created.close();
    });
    store = created;
  }
  return store;
}

// --- Capabilities and tool declarations ------------------------------------------------------

/** What a server of this era declares: the 2025 `tasks` capability, or the 2026 extension. */
export function taskCapabilities(era: Era): ServerCapabilities {
  return era === 'legacy' ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : { extensions: { [TASKS_EXTENSION]: {} } };
}

/**
 * On the 2025 tools/list, a long-running tool says it may run as a task. (Any tool may still
 * run as one when a client asks; 2026 has no per-tool declaration: the server decides.)
 */
export function advertiseTaskSupport(tool: Tool, descriptor: ToolDescriptor, era: Era): Tool {
  if (era !== 'legacy' || descriptor.execution?.longRunning !== true) return tool;
  return { ...tool, execution: { taskSupport: 'optional' } } as Tool;
}

// --- Answering tools/call with a task ---------------------------------------------------------

/**
 * Thrown by the tools/call handler to answer with a CreateTaskResult instead of a tool
 * result; TaskAwareServer turns it into the response. (The SDK validates every tools/call
 * result as a CallToolResult, which a task handle is not.)
 */
export class TaskAnswer extends Error {
  constructor(readonly result: Result) {
    super('A task answer escaped a server that is not a TaskAwareServer.');
  }
}

/** The SDK's low-level Server, whose tools/call may answer with a task (see TaskAnswer). */
export class TaskAwareServer extends Server {
  protected override _wrapHandler(
    method: string,
    handler: (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result>,
  ): (request: JSONRPCRequest, ctx: ServerContext) => Promise<Result> {
    const wrapped = super._wrapHandler(method, handler);
    return async (request, ctx) => {
      try {
        return await wrapped(request, ctx);
      } catch (error) {
        if (method === 'tools/call' && error instanceof TaskAnswer) return error.result;
        // The SDK's own check of the params failed: the client's mistake, said as such.
        throw invalidParamsOf(method, error) ?? error;
      }
    };
  }
}

/** A token per server instance (session), so that a task does not keep its closed session alive. */
const owners = new WeakMap<Server, object>();
function ownerOf(server: Server): object {
  let owner = owners.get(server);
  if (!owner) owners.set(server, (owner = {}));
  return owner;
}

/**
 * A dormant HTTP session's server is replaced when the session wakes: the new one takes over
 * the old one's owner token, so that tasks/list still shows the session its own tasks.
 */
export function taskOwnerOf(server: Server): object {
  return ownerOf(server);
}

export function adoptTaskOwner(server: Server, owner: object): void {
  owners.set(server, owner);
}

/** Whether a task of this owner is still running: its progress goes out through the owner's server. */
export function hasRunningTasks(front: Front, owner: object): boolean {
  return tasksOf(front).list((record) => record.owner === owner && !isTerminal(record.status)).length > 0;
}

/** Contexts of calls that already run as a task (they run as they are), and of which kind. */
const taskContexts = new WeakMap<ServerContext, TaskFlavor>();

/** True when this tools/call runs as a task (its result is stored, and answered later). */
export function isTaskContext(ctx: ServerContext): boolean {
  return taskContexts.has(ctx);
}

/**
 * Whether a cancel of this call waits for the editor's word. A 2026 task does: its
 * tasks/cancel only asks (SEP-2663: cancellation is eventually consistent), and the task ends
 * as the editor says, cancelled or, when the tool finished anyway, completed. A 2025 task is
 * cancelled at once, as that spec requires, and a plain call's client reads no answer.
 */
export function confirmsCancel(ctx: ServerContext): boolean {
  return taskContexts.get(ctx) === 'v2';
}

type ToolCallHandler = (request: CallToolRequest, ctx: ServerContext) => Promise<CallToolResult>;

/**
 * Starts a task for this tools/call when the client wants one, and returns the answer to
 * throw; undefined means "answer synchronously, as usual". `handler` is the tools/call
 * handler itself: the task runs it in the background with a task context.
 *
 * - legacy: the client asked (`params.task`), for any tool.
 * - modern: the client accepts tasks (the extension is in the request's capabilities) and the
 *   tool is long-running (or not known yet).
 */
export function startTask(front: Front, server: Server, era: Era, request: CallToolRequest, ctx: ServerContext, handler: ToolCallHandler): TaskAnswer | undefined {
  if (taskContexts.has(ctx)) return undefined;
  const flavor = taskFlavor(front, era, request, ctx);
  if (!flavor) return undefined;
  const { task: _task, ...params } = request.params as CallToolRequest['params'] & { task?: unknown };
  const requestedTtl = flavor === 'v1' ? ttlOf(_task) : undefined;
  const store = tasksOf(front);
  const record = store.start(
    { flavor, tool: params.name, owner: ownerOf(server), ...(requestedTtl === undefined ? {} : { ttlMs: requestedTtl }), statusMessage: `Running ${params.name}.` },
    async ({ signal, report, record }) => {
      const taskCtx = taskContext(ctx, flavor, record, signal, report);
      return endOf(flavor, params.name, await handler({ ...request, params } as CallToolRequest, taskCtx));
    },
  );
  if (!record) {
    // Full of running tasks: a 2026 client simply gets the result synchronously.
    if (flavor === 'v2') return undefined;
    throw new ProtocolError(ProtocolErrorCode.InternalError, `Too many tasks are running (${store.maxTasks}); try again when some have finished.`);
  }
  if (flavor === 'v2') return new TaskAnswer({ resultType: 'task', ...taskV2(record) });
  return new TaskAnswer({
    task: taskV1(record),
    _meta: { [IMMEDIATE_RESPONSE_META_KEY]: `${params.name} is running in the background as task ${record.taskId}; its result comes when the task completes.` },
  });
}

function taskFlavor(front: Front, era: Era, request: CallToolRequest, ctx: ServerContext): TaskFlavor | undefined {
  if (era === 'legacy') return isObject((request.params as { task?: unknown }).task) ? 'v1' : undefined;
  if (!acceptsTasks(ctx)) return undefined;
  const tool = front.catalog.tool(request.params.name);
  // A tool the mirror does not know yet (a first run, before the editor answered) may well
  // be a long one: looking it up can take as long as the editor takes to come up, so it
  // runs as a task too. Unknown to a mirror fresh from the editor, it is a mistake: answered at once.
  if (!tool) return front.catalog.isFresh ? undefined : 'v2';
  return tool.execution?.longRunning === true ? 'v2' : undefined;
}

/** 2026: whether the request's client capabilities include the tasks extension. */
function acceptsTasks(ctx: ServerContext): boolean {
  const envelope = ctx.mcpReq.envelope as Record<string, unknown> | undefined;
  const capabilities = envelope?.[CLIENT_CAPABILITIES_META_KEY];
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

function ttlOf(task: unknown): number | undefined {
  const ttl = isObject(task) ? task.ttl : undefined;
  return typeof ttl === 'number' && Number.isFinite(ttl) && ttl > 0 ? ttl : undefined;
}

/**
 * The context a task's call runs with. Its signal is the task's; its progress becomes the
 * task's status message (and, on 2025, still reaches a client that gave a progressToken,
 * tagged with the task); nothing can be asked of the client, whose request is long answered.
 */
function taskContext(ctx: ServerContext, flavor: TaskFlavor, record: TaskRecord, signal: AbortSignal, report: (message: string) => void): ServerContext {
  const clientToken = flavor === 'v1' ? ctx.mcpReq._meta?.progressToken : undefined;
  const cannotAsk = async (): Promise<never> => {
    throw new TetherError('CLIENT_REQUEST_FAILED', `"${record.tool}" runs as a task, which cannot ask the client anything in the middle of the call.`);
  };
  const taskCtx: ServerContext = {
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
  taskContexts.set(taskCtx, flavor);
  return taskCtx;
}

/**
 * How a task ends, from what tools/call would have answered. A host error is an isError
 * result: on 2026 that is a *completed* task (SEP-2663: `failed` is for JSON-RPC errors
 * only), on 2025 a *failed* one (2025-11-25: "for tool calls, this includes cases where the
 * tool call result has isError set to true"). A cancelled call is a cancelled task in both.
 */
function endOf(flavor: TaskFlavor, tool: string, answer: unknown): TaskEnd {
  const candidate = isObject(answer) && answer.content === undefined ? { ...answer, content: [] } : answer;
  if (!isCallToolResult(candidate)) {
    const message = `Invalid tools/call result from "${tool}".`;
    return { status: 'failed', statusMessage: message, error: { code: ProtocolErrorCode.InvalidParams, message } };
  }
  const result = candidate;
  if (!result.isError) return { status: 'completed', statusMessage: `${tool} completed.`, result };
  const text = textOf(result) ?? `${tool} failed.`;
  if (errorCodeOf(result) === 'CANCELLED') return { status: 'cancelled', statusMessage: text, result };
  return { status: flavor === 'v1' ? 'failed' : 'completed', statusMessage: text, result };
}

function errorCodeOf(result: CallToolResult): unknown {
  const meta = result._meta?.[ERROR_META_KEY];
  return isObject(meta) ? meta.code : undefined;
}

function textOf(result: CallToolResult): string | undefined {
  const block = result.content.find((c) => c.type === 'text');
  return block && 'text' in block ? block.text : undefined;
}

// --- Wire shapes -----------------------------------------------------------------------------

/**
 * A `Task` on the wire. The eras share every field but two names: 2025-11-25 says `ttl` and
 * `pollInterval`, 2026-07-28 (SEP-2663) `ttlMs` and `pollIntervalMs`.
 */
function taskShape(record: TaskRecord, era: Era): Record<string, unknown> {
  const legacy = era === 'legacy';
  return {
    taskId: record.taskId,
    status: record.status,
    ...(record.statusMessage === undefined ? {} : { statusMessage: record.statusMessage }),
    createdAt: new Date(record.createdAt).toISOString(),
    lastUpdatedAt: new Date(record.lastUpdatedAt).toISOString(),
    [legacy ? 'ttl' : 'ttlMs']: record.ttlMs,
    [legacy ? 'pollInterval' : 'pollIntervalMs']: record.pollIntervalMs,
  };
}

/** 2025-11-25 `Task`. */
function taskV1(record: TaskRecord): Record<string, unknown> {
  return taskShape(record, 'legacy');
}

/** 2026-07-28 `Task` (the fields CreateTaskResult and tasks/get share). */
function taskV2(record: TaskRecord): Record<string, unknown> {
  return taskShape(record, 'modern');
}

/** 2026-07-28 `DetailedTask`: the final tool result or JSON-RPC error inlined. */
function detailedTaskV2(record: TaskRecord): Record<string, unknown> {
  const task = taskV2(record);
  if (record.status === 'completed' && record.result) return { ...task, result: { resultType: 'complete', ...record.result } };
  if (record.status === 'failed') return { ...task, error: record.error ?? { code: ProtocolErrorCode.InternalError, message: record.statusMessage ?? 'The task failed.' } };
  return task;
}

// --- tasks/* handlers ------------------------------------------------------------------------

const TaskIdParams = z.object({ taskId: z.string() });
const ListParams = z.object({ cursor: z.string().optional() });

/**
 * Registers the tasks/* methods of the era. They use the SDK's custom-schema form: tasks/*
 * are not in the SDK's typed method map, and on 2026 only that form lets tasks/get and
 * tasks/cancel through the era gate (tasks/result and tasks/list stay -32601 there).
 */
export function registerTaskHandlers(server: Server, front: Front, era: Era): void {
  const store = tasksOf(front);
  const flavor: TaskFlavor = era === 'legacy' ? 'v1' : 'v2';
  const find = (taskId: string): TaskRecord => {
    const record = store.get(taskId);
    if (!record || record.flavor !== flavor) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: Task not found (${taskId}).`);
    return record;
  };
  // Terminal at once (2025-11-25 requires it), before the editor has answered: it must not
  // claim the editor stopped, since a tool that cannot stop finishes anyway.
  const cancelledByRequest = (): Omit<TaskEnd, 'status'> => ({
    statusMessage: 'The task was cancelled by request.',
    result: errorResult(
      new TetherError(
        'CANCELLED',
        'The task was cancelled by request, and the editor was asked to stop the call. A tool that cannot stop may still finish: check the editor\'s state before calling it again.',
        { cancelRequested: true },
      ),
    ),
  });

  if (era === 'legacy') {
    server.setRequestHandler('tasks/get', { params: TaskIdParams }, ({ taskId }) => taskV1(find(taskId)));
    server.setRequestHandler('tasks/result', { params: TaskIdParams }, async ({ taskId }, ctx) => {
      const record = find(taskId);
      await untilSettled(record, ctx.mcpReq.signal);
      if (record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data);
      const result = record.result ?? errorResult(new TetherError('CANCELLED', record.statusMessage ?? 'The task was cancelled.'));
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
    });
    server.setRequestHandler('tasks/list', { params: ListParams }, ({ cursor }) => {
      const owner = ownerOf(server);
      const mine = store.list((record) => record.flavor === 'v1' && record.owner === owner);
      const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
      if (!Number.isInteger(start) || start < 0 || String(start) !== (cursor ?? '0')) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
      const page = mine.slice(start, start + TASK_LIST_PAGE);
      const next = start + page.length;
      return { tasks: page.map(taskV1), ...(next < mine.length ? { nextCursor: String(next) } : {}) };
    });
    server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, ({ taskId }) => {
      const record = find(taskId);
      if (isTerminal(record.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it is already ${record.status}.`);
      store.cancel(taskId, cancelledByRequest());
      return taskV1(record);
    });
    return;
  }

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, ({ taskId }, ctx) => {
    requireTasksExtension(ctx);
    return detailedTaskV2(find(taskId));
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, ({ taskId }, ctx) => {
    requireTasksExtension(ctx);
    // Only asks: the task stays working until the editor says whether the call stopped.
    store.abort(find(taskId).taskId);
    return {};
  });
  // Tether's tasks never ask for input, so no input request is ever outstanding: the spec
  // has the server ignore such responses and acknowledge.
  server.setRequestHandler('tasks/update', { params: TaskIdParams }, ({ taskId }, ctx) => {
    requireTasksExtension(ctx);
    find(taskId);
    return {};
  });
}

/** 2026: tasks/* from a client that did not declare the extension get -32021. */
function requireTasksExtension(ctx: ServerContext): void {
  if (!acceptsTasks(ctx)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
}

async function untilSettled(record: TaskRecord, signal: AbortSignal): Promise<void> {
  if (isTerminal(record.status)) return;
  signal.throwIfAborted();
  let onAbort: (() => void) | undefined;
  try {
    await Promise.race([
      record.settled,
      new Promise<never>((_, reject) => {
        onAbort = () => reject(signal.reason);
        signal.addEventListener('abort', onAbort, { once: true });
      }),
    ]);
  } finally {
    if (onAbort) signal.removeEventListener('abort', onAbort);
  }
}
