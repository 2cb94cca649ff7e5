/**
 * MCP tasks on the wire, in each protocol era:
 *
 * - legacy (2025-11-25), the experimental Tasks utility: the client asks for a task with
 *   `params.task` on tools/call and gets `{ task }` back, then uses tasks/get, tasks/result
 *   (blocks until the task is terminal, then answers what tools/call would have answered),
 *   tasks/list and tasks/cancel. Capability `tasks`; tools advertise `execution.taskSupport`.
 * - modern (2026-07-28), the `io.modelcontextprotocol/tasks` extension (SEP-2663): task
 *   creation is server-directed. A client that lists the extension in its per-request
 *   capabilities may get `{ resultType: "task", taskId, … }` for tools/call; it polls with
 *   tasks/get (the final result or JSON-RPC error is inlined) and may call tasks/cancel and
 *   tasks/update. Capability `extensions["io.modelcontextprotocol/tasks"]`; no tasks/list,
 *   no tasks/result.
 *
 * The SDK has no server runtime for either: tool-call-tasks.ts starts tasks, task-handlers.ts
 * answers tasks/*, and the front keeps them (task-store.ts), so any session may poll a task.
 */
import { CLIENT_CAPABILITIES_META_KEY, ProtocolErrorCode, type ProtocolEra, type Result, type ServerCapabilities, type Tool } from '@modelcontextprotocol/server';
import { isObject, type ToolDescriptor } from '../protocol/index.js';
import type { TaskRecord } from './task-store.js';

export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
/** The legacy `_meta` key that ties a message to its task. */
export const RELATED_TASK_META_KEY = 'io.modelcontextprotocol/related-task';
/** Legacy: an optional text a host may hand the model at once while the task runs. */
export const IMMEDIATE_RESPONSE_META_KEY = 'io.modelcontextprotocol/model-immediate-response';

/** What a server of this era declares: the legacy `tasks` capability, or the modern extension. */
export function taskCapabilities(era: ProtocolEra): ServerCapabilities {
  return era === 'legacy' ? { tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } } : { extensions: { [TASKS_EXTENSION]: {} } };
}

/**
 * On the legacy tools/list, a long-running tool says it may run as a task. (Any tool may still
 * run as one when a client asks; the modern era has no per-tool declaration: the server decides.)
 */
export function advertiseTaskSupport(tool: Tool, descriptor: ToolDescriptor, era: ProtocolEra): Tool {
  if (era !== 'legacy' || descriptor.execution?.longRunning !== true) return tool;
  return { ...tool, execution: { taskSupport: 'optional' } } as Tool;
}

/** Modern era: whether the client capabilities in a request's envelope (`ctx.mcpReq.envelope`) include the tasks extension. */
export function acceptsTasks(envelope: unknown): boolean {
  const capabilities = isObject(envelope) ? envelope[CLIENT_CAPABILITIES_META_KEY] : undefined;
  const extensions = isObject(capabilities) ? capabilities.extensions : undefined;
  return isObject(extensions) && isObject(extensions[TASKS_EXTENSION]);
}

/**
 * A `Task` on the wire, in the era that created it. The eras share every field but two names:
 * legacy says `ttl` and `pollInterval`, modern (SEP-2663) `ttlMs` and `pollIntervalMs`.
 */
export function taskShape(record: TaskRecord): Record<string, unknown> {
  const legacy = record.era === 'legacy';
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

/** Modern era: the `DetailedTask` of tasks/get, with the final tool result or JSON-RPC error inlined. */
export function detailedTask(record: TaskRecord): Record<string, unknown> {
  const task = taskShape(record);
  if (record.status === 'completed' && record.result) return { ...task, result: { resultType: 'complete', ...record.result } };
  if (record.status === 'failed') return { ...task, error: record.error ?? { code: ProtocolErrorCode.InternalError, message: record.statusMessage ?? 'The task failed.' } };
  return task;
}

/** What tools/call answers when it starts a task: the modern `{ resultType: "task", … }`, or the legacy CreateTaskResult. */
export function taskCreated(record: TaskRecord): Result {
  if (record.era === 'modern') return { resultType: 'task', ...taskShape(record) };
  return {
    task: taskShape(record),
    _meta: { [IMMEDIATE_RESPONSE_META_KEY]: `${record.tool} is running in the background as task ${record.taskId}; its result comes when the task completes.` },
  };
}
