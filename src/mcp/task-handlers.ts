/**
 * tasks/* of each protocol era (task-wire.ts), answered from the fronts' task stores (a session
 * rebound by tether_use_host has tasks at more than one): a task created in the other era is
 * not found, and tasks/list shows a session its own tasks only.
 */
import { MissingRequiredClientCapabilityError, ProtocolError, ProtocolErrorCode, type ProtocolEra, type Server, type ServerContext } from '@modelcontextprotocol/server';
import { z } from 'zod';
import { TetherError } from '../protocol/index.js';
import { isTerminal, type TaskEnd, type TaskRecord, type TaskStore } from './task-store.js';
import { RELATED_TASK_META_KEY, TASKS_EXTENSION, acceptsTasks, detailedTask, taskShape } from './task-wire.js';
import { errorResult } from './tool-results.js';

const TASK_LIST_PAGE = 100;

const TaskIdParams = z.object({ taskId: z.string() });
const ListParams = z.object({ cursor: z.string().optional() });

/**
 * Registers the tasks/* methods of the era. They use the SDK's custom-schema form: tasks/*
 * are not in the SDK's typed method map, and on the modern era only that form lets tasks/get
 * and tasks/cancel through the era gate (tasks/result and tasks/list stay -32601 there).
 */
export function registerTaskHandlers(server: Server, stores: () => Iterable<TaskStore>, era: ProtocolEra, owner: object): void {
  /** The task and the store that holds it. */
  const located = (taskId: string): { record: TaskRecord; store: TaskStore } => {
    for (const store of stores()) {
      const record = store.get(taskId);
      if (record?.era === era) return { record, store };
    }
    throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Failed to retrieve task: Task not found (${taskId}).`);
  };
  const find = (taskId: string): TaskRecord => located(taskId).record;

  if (era === 'legacy') {
    server.setRequestHandler('tasks/get', { params: TaskIdParams }, ({ taskId }) => taskShape(find(taskId)));
    server.setRequestHandler('tasks/result', { params: TaskIdParams }, async ({ taskId }, ctx) => {
      const record = find(taskId);
      await untilSettled(record, ctx.mcpReq.signal);
      if (record.error) throw new ProtocolError(record.error.code, record.error.message, record.error.data);
      const result = record.result ?? errorResult(new TetherError('CANCELLED', record.statusMessage ?? 'The task was cancelled.'));
      return { ...result, _meta: { ...result._meta, [RELATED_TASK_META_KEY]: { taskId } } };
    });
    server.setRequestHandler('tasks/list', { params: ListParams }, ({ cursor }) => {
      const mine = [...stores()].flatMap((store) => store.list((record) => record.era === 'legacy' && record.owner === owner));
      const start = cursor === undefined ? 0 : Number.parseInt(cursor, 10);
      if (!Number.isInteger(start) || start < 0 || String(start) !== (cursor ?? '0')) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Invalid cursor: ${cursor}`);
      const page = mine.slice(start, start + TASK_LIST_PAGE);
      const next = start + page.length;
      return { tasks: page.map(taskShape), ...(next < mine.length ? { nextCursor: String(next) } : {}) };
    });
    server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, ({ taskId }) => {
      const { record, store } = located(taskId);
      if (isTerminal(record.status)) throw new ProtocolError(ProtocolErrorCode.InvalidParams, `Cannot cancel task ${taskId}: it is already ${record.status}.`);
      store.cancel(taskId, cancelledByRequest());
      return taskShape(record);
    });
    return;
  }

  server.setRequestHandler('tasks/get', { params: TaskIdParams }, ({ taskId }, ctx) => {
    requireTasksExtension(ctx);
    return detailedTask(find(taskId));
  });
  server.setRequestHandler('tasks/cancel', { params: TaskIdParams }, ({ taskId }, ctx) => {
    requireTasksExtension(ctx);
    // Only asks: the task stays working until the editor says whether the call stopped.
    const { record, store } = located(taskId);
    store.abort(record.taskId);
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

/**
 * A legacy task is terminal at once on tasks/cancel (2025-11-25 requires it), before the
 * editor has answered: it must not claim the editor stopped, since a tool that cannot stop
 * finishes anyway.
 */
function cancelledByRequest(): Omit<TaskEnd, 'status'> {
  return {
    statusMessage: 'The task was cancelled by request.',
    result: errorResult(
      new TetherError(
        'CANCELLED',
        "The task was cancelled by request, and the editor was asked to stop the call. A tool that cannot stop may still finish: check the editor's state before calling it again.",
        { cancelRequested: true },
      ),
    ),
  };
}

/** Modern era: tasks/* from a client that did not declare the extension get -32021. */
function requireTasksExtension(ctx: ServerContext): void {
  if (!acceptsTasks(ctx.mcpReq.envelope)) throw new MissingRequiredClientCapabilityError({ requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } });
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
