/**
 * MCP tasks: the 2025-11-25 task-augmented tools/call (a real SDK client, raw task requests)
 * and the 2026-07-28 io.modelcontextprotocol/tasks extension (raw JSON-RPC over the stdio of
 * a real `tether mcp`, since the SDK client rejects `resultType: "task"`), against a real
 * sandbox editor, with side effects counted on disk. The task store itself is tested alone.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { z } from 'zod';
import { TaskStore, type TaskEnd } from '../../src/mcp/task-store.js';
import { closeMcpSessions, connectMcp, textOf } from '../helpers/mcp-client.js';
import { TetherProcess, cleanupProcesses, createWorkspace, startSandbox, type Workspace } from '../helpers/processes.js';
import { nextTurn, waitForStreamLine } from '../helpers/wait-for-event.js';

afterEach(async () => {
  await closeMcpSessions();
  await cleanupProcesses();
});

const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const RELATED_TASK = 'io.modelcontextprotocol/related-task';
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}(\.\d+)?Z$/;
/** A task's status message while the sandbox's build reports progress. */
const BUILDING = /^Building \S+: \d+%$/;

function buildLog(workspace: Workspace): Array<{ callId: string; status: string }> {
  try {
    const text = readFileSync(join(workspace.project, 'Library', 'Builds', 'build-log.jsonl'), 'utf8');
    return text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { callId: string; status: string });
  } catch {
    return [];
  }
}

async function until<T>(probe: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 20_000, everyMs = 100): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, everyMs));
  }
}

// --- 2025-11-25 -------------------------------------------------------------------------------

const TaskV1 = z.object({
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttl: z.number().int().nullable(),
  pollInterval: z.number().int().optional(),
});
const CreateTaskResultV1 = z.object({ task: TaskV1, _meta: z.record(z.string(), z.unknown()).optional() }).strict();
const ToolResult = z.looseObject({
  content: z.array(z.looseObject({ type: z.string() })),
  structuredContent: z.unknown().optional(),
  isError: z.boolean().optional(),
  _meta: z.record(z.string(), z.unknown()).optional(),
});
const TaskList = z.object({ tasks: z.array(TaskV1), nextCursor: z.string().optional() });

describe('2025-11-25 task-augmented tools/call', () => {
  it('declares the tasks capability and task support on long-running tools only', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { client } = await connectMcp(workspace);
    expect(client.getServerCapabilities()).toMatchObject({ tasks: { list: {}, cancel: {}, requests: { tools: { call: {} } } } });
    // tools/list waits a little for the editor, not forever: on a loaded machine, ask again.
    const tools = await until(async () => {
      const listed = (await client.listTools()).tools;
      return listed.some((tool) => tool.name === 'build_player') ? listed : undefined;
    }, "the editor's tools");
    const byName = new Map(tools.map((tool) => [tool.name, tool]));
    expect(byName.get('build_player')?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get('run_tests')?.execution).toEqual({ taskSupport: 'optional' });
    expect(byName.get('get_hierarchy')?.execution).toBeUndefined();
    expect(byName.get('tether_status')?.execution).toBeUndefined();
  });

  it('runs build_player as a task: created at once, polled to completion, result fetched, built exactly once', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { client, transport } = await connectMcp(workspace);
    // The progressToken stays valid for the task's life: watch the raw notifications.
    const progress: Array<{ progressToken?: unknown; message?: string; _meta?: Record<string, unknown> }> = [];
    /** How many progress notifications had arrived when the answer to tools/call did. */
    let progressBeforeAnswer: number | undefined;
    const deliver = transport.onmessage;
    transport.onmessage = (message) => {
      if ('method' in message && message.method === 'notifications/progress') progress.push(message.params as (typeof progress)[number]);
      else if ('result' in message && (message.result as { task?: unknown }).task !== undefined) progressBeforeAnswer ??= progress.length;
      deliver?.(message);
    };
    client.onerror = () => undefined; // the SDK client forgets the token once tools/call has answered
    const created = await client.request(
      { method: 'tools/call', params: { name: 'build_player', arguments: { target: 'StandaloneLinux64' }, task: { ttl: 60_000 }, _meta: { progressToken: 'build-task' } } },
      CreateTaskResultV1,
    );
    // Answered at once: before the build reported anything (an order, which load cannot upset).
    expect(progressBeforeAnswer).toBe(0);
    const { task } = created;
    expect(task).toMatchObject({ status: 'working', ttl: 60_000, pollInterval: expect.any(Number) });
    expect(task.taskId).toMatch(UUID);
    expect(task.createdAt).toMatch(ISO);
    expect(task.lastUpdatedAt).toMatch(ISO);

    // The status that follows the build's progress is checked on the 20 s builds below: polling
    // a 2 s build can miss it when the machine is loaded.
    const done = await until(async () => {
      const current = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, TaskV1);
      return current.status === 'working' ? undefined : current;
    }, 'the task to finish');
    expect(done).toMatchObject({ taskId: task.taskId, status: 'completed', createdAt: task.createdAt });
    expect(done.ttl).toBeGreaterThanOrEqual(60_000);
    expect(progress.length).toBeGreaterThan(0);
    for (const update of progress) expect(update).toMatchObject({ progressToken: 'build-task', _meta: { [RELATED_TASK]: { taskId: task.taskId } } });

    const result = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ToolResult);
    expect(result.isError).toBeFalsy();
    expect(result.structuredContent).toMatchObject({ status: 'succeeded', target: 'StandaloneLinux64' });
    expect(result._meta?.[RELATED_TASK]).toEqual({ taskId: task.taskId });

    const listed = await client.request({ method: 'tasks/list', params: {} }, TaskList);
    expect(listed.tasks.map((t) => t.taskId)).toEqual([task.taskId]);
    expect(buildLog(workspace)).toHaveLength(1);
    expect(buildLog(workspace)[0]?.status).toBe('succeeded');
  });

  it('tasks/result blocks until the task ends', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { client } = await connectMcp(workspace);
    const { task } = await client.request({ method: 'tools/call', params: { name: 'build_player', arguments: {}, task: {} } }, CreateTaskResultV1);
    const result = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ToolResult);
    expect(result.structuredContent).toMatchObject({ status: 'succeeded' });
    const after = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, TaskV1);
    expect(after.status).toBe('completed');
    expect(buildLog(workspace)).toHaveLength(1);
  });

  it('cancels a running build: the task is cancelled at once and the editor stops the build', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '20']);
    const { client } = await connectMcp(workspace);
    const { task } = await client.request({ method: 'tools/call', params: { name: 'build_player', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResultV1);
    expect(buildLog(workspace)).toHaveLength(0); // answered with a task, not after the 20 s build
    // The task's status follows the build's progress.
    await until(async () => {
      const current = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, TaskV1);
      return current.statusMessage && BUILDING.test(current.statusMessage) ? current : undefined;
    }, 'the build to start');

    const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, TaskV1);
    expect(cancelled).toMatchObject({ taskId: task.taskId, status: 'cancelled' });
    expect((await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, TaskV1)).status).toBe('cancelled');
    await expect(client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, TaskV1)).rejects.toMatchObject({ code: -32602 });

    const result = await client.request({ method: 'tasks/result', params: { taskId: task.taskId } }, ToolResult);
    expect(result.isError).toBe(true);
    // Said before the editor answered: it must not claim the editor stopped the call.
    expect(textOf(result)).toMatch(/cancelled by request, and the editor was asked to stop the call/);
    expect(textOf(result)).not.toMatch(/cancelled at the editor/);

    const [line] = await until(() => (buildLog(workspace).length > 0 ? buildLog(workspace) : undefined), 'the build log', 10_000);
    expect(line?.status).toBe('cancelled');
    expect(buildLog(workspace)).toHaveLength(1);
  });

  it('cancels a running build when the editor was unreachable for a moment at the cancel', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--build-seconds', '20']);
    const session = await connectMcp(workspace);
    const { client } = session;
    const { task } = await client.request({ method: 'tools/call', params: { name: 'build_player', arguments: {}, task: { ttl: 60_000 } } }, CreateTaskResultV1);
    await until(async () => {
      const current = await client.request({ method: 'tasks/get', params: { taskId: task.taskId } }, TaskV1);
      return current.statusMessage && BUILDING.test(current.statusMessage) ? current : undefined;
    }, 'the build to start');

    // The editor stops answering (frozen, as when busy): the front's pings fail and its link drops.
    const pid = sandbox.child.pid as number;
    const logBefore = session.stderr().length;
    process.kill(pid, 'SIGSTOP');
    try {
      await waitForStreamLine(
        session.transport.stderr!,
        () => session.stderr().slice(logBefore),
        (line) => line.includes('"state":"lost"'),
      );
      const cancelled = await client.request({ method: 'tasks/cancel', params: { taskId: task.taskId } }, TaskV1);
      expect(cancelled.status).toBe('cancelled');
      // Still frozen for longer than the front used to wait for the link before dropping the cancel (1 s).
      // A window on purpose, after the events that open it (the link lost, the cancel acknowledged):
      // what it pins is that the cancel outlives that old deadline, and only time passing marks it.
      await new Promise((resolve) => setTimeout(resolve, 1_500));
    } finally {
      try {
        process.kill(pid, 'SIGCONT');
      } catch {
        // Already gone: the failure that got us here is the one to report.
      }
    }
    // Back: the cancel reaches the editor, which stops the build (it would otherwise succeed at 20 s).
    const [line] = await until(() => (buildLog(workspace).length > 0 ? buildLog(workspace) : undefined), 'the build log', 30_000);
    expect(line?.status).toBe('cancelled');
  }, 60_000);

  it('runs any tool as a task when asked, and reports tool errors as a failed task', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const { client } = await connectMcp(workspace);
    const quick = await client.request({ method: 'tools/call', params: { name: 'get_hierarchy', arguments: {}, task: {} } }, CreateTaskResultV1);
    const quickResult = await client.request({ method: 'tasks/result', params: { taskId: quick.task.taskId } }, ToolResult);
    expect(quickResult.isError).toBeFalsy();
    expect((await client.request({ method: 'tasks/get', params: { taskId: quick.task.taskId } }, TaskV1)).status).toBe('completed');

    const wrong = await client.request({ method: 'tools/call', params: { name: 'no_such_tool', arguments: {}, task: {} } }, CreateTaskResultV1);
    const wrongResult = await client.request({ method: 'tasks/result', params: { taskId: wrong.task.taskId } }, ToolResult);
    expect(wrongResult.isError).toBe(true);
    const failed = await client.request({ method: 'tasks/get', params: { taskId: wrong.task.taskId } }, TaskV1);
    expect(failed.status).toBe('failed');
    expect(failed.statusMessage).toMatch(/no_such_tool/);

    await expect(client.request({ method: 'tasks/get', params: { taskId: 'not-a-task' } }, TaskV1)).rejects.toMatchObject({ code: -32602 });
    // Without `task`, tools/call answers as before.
    const direct = await client.callTool({ name: 'get_hierarchy', arguments: {} });
    expect(direct.isError).toBeFalsy();
  });
});

// --- 2026-07-28 -------------------------------------------------------------------------------

interface RpcResponse {
  id: number;
  result?: Record<string, unknown>;
  error?: { code: number; message: string; data?: unknown };
}

/** A 2026-07-28 client by hand: newline-delimited JSON-RPC with the per-request `_meta` envelope. */
class RawModernClient {
  private nextId = 0;
  constructor(readonly process: TetherProcess) {}

  static start(workspace: Workspace): RawModernClient {
    return new RawModernClient(new TetherProcess(['mcp', '--project', workspace.project], workspace.env, { stdin: 'pipe' }));
  }

  async request(method: string, params: Record<string, unknown> = {}, options: { tasks?: boolean } = {}): Promise<RpcResponse> {
    const id = ++this.nextId;
    const envelope = {
      'io.modelcontextprotocol/protocolVersion': '2026-07-28',
      'io.modelcontextprotocol/clientInfo': { name: 'raw-2026', version: '1.0.0' },
      'io.modelcontextprotocol/clientCapabilities': options.tasks === false ? {} : { extensions: { [TASKS_EXTENSION]: {} } },
    };
    this.process.child.stdin!.write(`${JSON.stringify({ jsonrpc: '2.0', id, method, params: { ...params, _meta: envelope } })}\n`);
    const line = await this.process.waitForLine((l) => (JSON.parse(l) as { id?: unknown }).id === id, 15_000);
    return JSON.parse(line) as RpcResponse;
  }

  async result(method: string, params: Record<string, unknown> = {}, options: { tasks?: boolean } = {}): Promise<Record<string, unknown>> {
    const response = await this.request(method, params, options);
    if (!response.result) throw new Error(`${method} failed: ${JSON.stringify(response.error)}`);
    return response.result;
  }
}

const TaskV2Fields = {
  taskId: z.string(),
  status: z.enum(['working', 'input_required', 'completed', 'failed', 'cancelled']),
  statusMessage: z.string().optional(),
  createdAt: z.string(),
  lastUpdatedAt: z.string(),
  ttlMs: z.number().int().nullable(),
  pollIntervalMs: z.number().int().optional(),
};
const CreateTaskResultV2 = z.object({ resultType: z.literal('task'), ...TaskV2Fields, _meta: z.record(z.string(), z.unknown()).optional() }).strict();
const GetTaskResultV2 = z
  .object({
    resultType: z.literal('complete'),
    ...TaskV2Fields,
    result: z.looseObject({ resultType: z.literal('complete'), content: z.array(z.unknown()) }).optional(),
    error: z.object({ code: z.number().int(), message: z.string(), data: z.unknown().optional() }).optional(),
    _meta: z.record(z.string(), z.unknown()).optional(),
  })
  .strict();

describe('2026-07-28 io.modelcontextprotocol/tasks', () => {
  it('advertises the extension, answers a long tool with a task, and inlines the result in tasks/get', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const client = RawModernClient.start(workspace);
    const discovered = await client.result('server/discover');
    expect(discovered.capabilities).toMatchObject({ extensions: { [TASKS_EXTENSION]: {} } });
    expect(discovered.capabilities).not.toHaveProperty('tasks');
    // Subscriptions in this era come through subscriptions/listen, whose URIs the server never
    // learns: offered, they were acknowledged and then silent.
    expect(discovered.capabilities).toMatchObject({ resources: { subscribe: false, listChanged: true } });
    const listed = await client.result('tools/list');
    expect((listed.tools as Array<Record<string, unknown>>).some((tool) => 'execution' in tool)).toBe(false);

    // Answered with a task: at once is checked on the 20 s build below, where a clock cannot lie.
    const created = CreateTaskResultV2.parse(await client.result('tools/call', { name: 'build_player', arguments: {} }));
    expect(created).toMatchObject({ resultType: 'task', status: 'working' });
    expect(created.taskId).toMatch(UUID);
    expect(created.createdAt).toMatch(ISO);

    const done = await finishedTaskV2(client, created.taskId);
    expect(done.status).toBe('completed');
    expect(done.error).toBeUndefined();
    expect(done.result).toMatchObject({ resultType: 'complete', structuredContent: { status: 'succeeded' } });
    expect(done.result?.isError).toBeFalsy();
    expect(buildLog(workspace)).toHaveLength(1);

    // Not for clients without the extension; no tasks/result or tasks/list in this era.
    expect((await client.request('tasks/get', { taskId: created.taskId }, { tasks: false })).error).toMatchObject({
      code: -32021,
      data: { requiredCapabilities: { extensions: { [TASKS_EXTENSION]: {} } } },
    });
    expect((await client.request('tasks/result', { taskId: created.taskId })).error?.code).toBe(-32601);
    expect((await client.request('tasks/list')).error?.code).toBe(-32601);
    expect((await client.request('tasks/get', { taskId: 'not-a-task' })).error?.code).toBe(-32602);
    // Nothing is ever asked of the client, so input responses are acknowledged and ignored.
    expect(await client.result('tasks/update', { taskId: created.taskId, inputResponses: {} })).toMatchObject({ resultType: 'complete' });
  });

  it('answers synchronously when the client has not opted in, or the tool is not long-running', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace);
    const client = RawModernClient.start(workspace);
    const direct = await client.result('tools/call', { name: 'build_player', arguments: {} }, { tasks: false });
    expect(direct).toMatchObject({ resultType: 'complete', structuredContent: { status: 'succeeded' } });
    const quick = await client.result('tools/call', { name: 'get_hierarchy', arguments: {} });
    expect(quick.resultType).toBe('complete');
    expect(quick.content).toEqual(expect.any(Array));
    // A name the editor's (fresh) tool list lacks is a mistake, answered at once.
    const wrong = await client.result('tools/call', { name: 'no_such_tool', arguments: {} });
    expect(wrong).toMatchObject({ resultType: 'complete', isError: true });
    // 2026 ignores the 2025 `task` parameter.
    const ignored = await client.result('tools/call', { name: 'get_hierarchy', arguments: {}, task: { ttl: 1_000 } }, { tasks: false });
    expect(ignored.resultType).toBe('complete');
    expect(buildLog(workspace)).toHaveLength(1);
  });

  it('cancels a task: tasks/cancel acknowledges, the editor stops the build, and the task ends cancelled', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '20']);
    const client = RawModernClient.start(workspace);
    // The first request of a fresh front: build_player is not known yet, and runs as a task anyway.
    const created = await startBuildTask(client, workspace);
    expect(await client.result('tasks/cancel', { taskId: created.taskId })).toMatchObject({ resultType: 'complete' });
    // SEP-2663: cancellation is eventually consistent; the task ends as the editor says.
    const cancelled = await finishedTaskV2(client, created.taskId);
    expect(cancelled).toMatchObject({ status: 'cancelled' });
    expect(cancelled.result).toBeUndefined();
    expect(buildLog(workspace).map((b) => b.status)).toEqual(['cancelled']);
  });

  it('a tool that does not stop: tasks/cancel asks, and the task ends completed with what the editor did', async () => {
    const workspace = createWorkspace();
    const { sandbox } = await startSandbox(workspace, ['--compile-ms', '20000']);
    const client = RawModernClient.start(workspace);
    const created = CreateTaskResultV2.parse(await client.result('tools/call', { name: 'compile_scripts', arguments: {} }));
    await until(async () => {
      const current = GetTaskResultV2.parse(await client.result('tasks/get', { taskId: created.taskId }));
      return current.statusMessage === 'Compiling scripts' ? current : undefined;
    }, 'the compilation to start');
    expect(await client.result('tasks/cancel', { taskId: created.taskId })).toMatchObject({ resultType: 'complete' });
    // The cancel cuts the wait short, but the compilation still finishes and reloads the editor:
    // a task that said "cancelled" would be a lie.
    const done = await finishedTaskV2(client, created.taskId);
    expect(done.status).toBe('completed');
    expect(done.result).toMatchObject({ structuredContent: { succeeded: true, domainReload: true } });
    expect((await sandbox.ready(2)).generation).toBe(2);
  });
});

async function finishedTaskV2(client: RawModernClient, taskId: string): Promise<z.infer<typeof GetTaskResultV2>> {
  return until(async () => {
    const current = GetTaskResultV2.parse(await client.result('tasks/get', { taskId }));
    return current.status === 'working' ? undefined : current;
  }, `task ${taskId} to end`);
}

/** Starts build_player as a 2026 task and waits until the editor reports the build running. */
async function startBuildTask(client: RawModernClient, workspace: Workspace): Promise<z.infer<typeof CreateTaskResultV2>> {
  const created = CreateTaskResultV2.parse(await client.result('tools/call', { name: 'build_player', arguments: {} }));
  expect(created.status).toBe('working');
  expect(buildLog(workspace)).toHaveLength(0); // answered with a task, not after the 20 s build
  await until(async () => {
    const current = GetTaskResultV2.parse(await client.result('tasks/get', { taskId: created.taskId }));
    return current.statusMessage && BUILDING.test(current.statusMessage) ? current : undefined;
  }, 'the build to start');
  return created;
}

describe('tasks when the session ends', () => {
  it('cancels running tasks at the editor and exits at once', async () => {
    const workspace = createWorkspace();
    await startSandbox(workspace, ['--build-seconds', '20']);
    const client = RawModernClient.start(workspace);
    await startBuildTask(client, workspace);
    const closedAt = Date.now();
    client.process.child.stdin!.end();
    expect(await client.process.exited).toBe(0);
    expect(Date.now() - closedAt).toBeLessThan(5_000);
    const [line] = await until(() => (buildLog(workspace).length > 0 ? buildLog(workspace) : undefined), 'the build log', 10_000);
    expect(line?.status).toBe('cancelled');
  });
});

// --- The store --------------------------------------------------------------------------------

describe('TaskStore', () => {
  const ok: TaskEnd = { status: 'completed', result: { content: [] } };

  it('keeps at most maxTasks, evicting the oldest finished, and refuses when all are running', async () => {
    const store = new TaskStore({ maxTasks: 2 });
    const first = store.start({ era: 'modern', tool: 'a' }, async () => ok)!;
    await first.settled;
    let release!: () => void;
    const blocked = new Promise<void>((resolve) => (release = resolve));
    const second = store.start({ era: 'modern', tool: 'b' }, async () => (await blocked, ok))!;
    const third = store.start({ era: 'modern', tool: 'c' }, async () => (await blocked, ok))!;
    expect(store.get(first.taskId)).toBeUndefined();
    expect(store.get(second.taskId)?.status).toBe('working');
    expect(store.start({ era: 'modern', tool: 'd' }, async () => ok)).toBeUndefined();
    release();
    await Promise.all([second.settled, third.settled]);
    expect(store.start({ era: 'modern', tool: 'e' }, async () => ok)).toBeDefined();
    expect(store.size).toBe(2);
    store.close();
  });

  it('forgets a finished task after its time to live, never a running one', async () => {
    // On vitest's clock, moving time on fires every timer due by then: "its time to live has
    // passed" is an event the test makes happen, not a wait a loaded machine can stretch or cut.
    vi.useFakeTimers();
    try {
      const store = new TaskStore({ minTtlMs: 1, minRetentionMs: 50 });
      let release!: () => void;
      const blocked = new Promise<void>((resolve) => (release = resolve));
      const record = store.start({ era: 'legacy', tool: 'a', ttlMs: 30 }, async () => (await blocked, ok))!;
      expect(record.ttlMs).toBe(30);
      // Well past its time to live, and every timer the store set has had its turn: still there.
      await vi.advanceTimersByTimeAsync(80);
      expect(store.get(record.taskId)?.status).toBe('working');
      const releasedAt = Date.now();
      release();
      await record.settled;
      // Kept a while (its time to live) after it finished, not dropped for having outlived it.
      expect(record.ttlMs).toBe(releasedAt - record.createdAt + 30);
      expect(store.timers).toBe(1);
      await vi.advanceTimersByTimeAsync(29);
      expect(store.get(record.taskId)?.status).toBe('completed');
      await vi.advanceTimersByTimeAsync(1);
      expect(store.get(record.taskId)).toBeUndefined();
      expect(store.timers).toBe(0);
      store.close();
    } finally {
      vi.useRealTimers();
    }
  });

  it('cancels: terminal at once, the work is aborted, its late outcome ignored', async () => {
    const store = new TaskStore();
    let seen: AbortSignal | undefined;
    let returnedLate!: () => void;
    const lateOutcome = new Promise<void>((resolve) => (returnedLate = resolve));
    const record = store.start({ era: 'modern', tool: 'a' }, async ({ signal, report }) => {
      seen = signal;
      report('Halfway');
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      returnedLate();
      return ok;
    })!;
    await until(() => seen, 'the work to start', 1_000, 5);
    expect(record.statusMessage).toBe('Halfway');
    expect(store.cancel(record.taskId, { statusMessage: 'Stopped.' })).toBe(true);
    expect(record.status).toBe('cancelled');
    expect(seen?.aborted).toBe(true);
    // The work has returned its outcome; the store takes it in with promise jobs only, all run
    // by the loop's next turn: by then it has had its chance to (wrongly) apply it.
    await lateOutcome;
    await nextTurn();
    expect(record).toMatchObject({ status: 'cancelled', statusMessage: 'Stopped.', result: undefined });
    expect(store.cancel(record.taskId, {})).toBe(false);
    store.close();
  });

  it('abort only asks: the task stays working until its work says how it ended, and the reason is a typed CANCELLED', async () => {
    const store = new TaskStore();
    let seen: AbortSignal | undefined;
    let finishAnyway!: () => void;
    const finished = new Promise<void>((resolve) => (finishAnyway = resolve));
    const record = store.start({ era: 'modern', tool: 'a' }, async ({ signal }) => {
      seen = signal;
      await finished;
      return ok;
    })!;
    await until(() => seen, 'the work to start', 1_000, 5);
    expect(store.abort(record.taskId)).toBe(true);
    expect(seen?.reason).toMatchObject({ code: 'CANCELLED' });
    expect(record.status).toBe('working');
    finishAnyway();
    await record.settled;
    expect(record.status).toBe('completed');
    expect(store.abort(record.taskId)).toBe(false);
    store.close();
  });

  it('reports a work function that throws as a failed task with a JSON-RPC internal error', async () => {
    const store = new TaskStore();
    const record = store.start({ era: 'modern', tool: 'a' }, async () => {
      throw new Error('boom');
    })!;
    await record.settled;
    expect(record).toMatchObject({ status: 'failed', error: { code: -32603, message: 'boom' } });
    store.close();
  });

  it('close() aborts running work and clears every timer', async () => {
    const store = new TaskStore({ minTtlMs: 1 });
    const done = store.start({ era: 'modern', tool: 'a', ttlMs: 60_000 }, async () => ok)!;
    await done.settled;
    let seen: AbortSignal | undefined;
    const running = store.start({ era: 'modern', tool: 'b' }, async ({ signal }) => {
      seen = signal;
      await new Promise((resolve) => signal.addEventListener('abort', resolve, { once: true }));
      return ok;
    })!;
    await until(() => seen, 'the work to start', 1_000, 5);
    expect(store.timers).toBe(1);
    store.close();
    expect(store.timers).toBe(0);
    expect(store.size).toBe(0);
    expect(seen?.aborted).toBe(true);
    expect(running.status).toBe('cancelled');
    expect(store.start({ era: 'modern', tool: 'c' }, async () => ok)).toBeUndefined();
  });
});
