/**
 * The sandbox editor's main thread (a worker): holds the scene, runs tools one at a time,
 * and may block synchronously like Unity's main thread. Everything here is lost on a domain
 * reload; what must survive is on disk under the project.
 */
import { join } from 'node:path';
import { parentPort, workerData } from 'node:worker_threads';
import { TetherError, type CompleteParams, type ElicitResult } from '../protocol/index.js';
import { toToolResult, type ToolReturn } from '../host/tools.js';
import { CONSOLE_URI, HIERARCHY_URI, complete, getPrompt, readResource } from './catalog-content.js';
import { ConformanceState, completeConformance, getConformancePrompt, isConformancePrompt, isConformanceRef, isConformanceUri, readConformanceResource } from './conformance-catalog.js';
import { ConsoleLog } from './console-log.js';
import { openEditorScenes } from './editor-scenes.js';
import { CANCEL_FLAG, type FromMainThread, type MainThreadSettings, type ReloadCause, type ToMainThread, type WireFailure } from './main-thread-messages.js';
import { Project } from './project.js';
import type { ScenesSnapshot } from './scenes.js';
import { conformanceFixtures } from './tools/conformance-fixtures.js';
import { conformanceKit } from './tools/conformance-kit.js';
import { loadCompiledTools } from './tools/custom-tools.js';
import { describeTool, editorToolSet } from './tools/editor-tool-set.js';
import { finishInterruptedRun } from './tools/test-runner.js';
import type { MainThreadContext, SandboxTool } from './tools/tool.js';
import { UndoHistory, type UndoRecord } from './undo.js';

const port = parentPort!;
const { settings, cancelBuffer } = workerData as { settings: MainThreadSettings; cancelBuffer: SharedArrayBuffer };
const flags = new Int32Array(cancelBuffer);
const project = new Project(settings.projectRoot);
const scenes = openEditorScenes(project);
const undo = loadUndoHistory();
const console = new ConsoleLog(project);
/**
 * Play mode outlives the domain reload entering it makes (a new main thread, same process), as
 * Unity's does; a restarted editor starts in edit mode, as Unity does.
 */
const savedState = project.readJson<{ playing?: unknown; editor?: unknown } | null>(project.editorStatePath, null);
let playing = savedState?.editor === settings.editorInstanceId && savedState.playing === true;
/** Only with --conformance-fixtures: the official MCP conformance suite's fixtures. */
const fixtures = settings.conformanceFixtures ? new ConformanceState() : undefined;

const builtInTools: SandboxTool[] = [...editorToolSet, ...(settings.conformanceKit ? conformanceKit : []), ...(fixtures ? conformanceFixtures(fixtures) : [])];
/** The editor's own tool names, which the project's tools may not take (compile_scripts refuses them). */
const builtInNames: ReadonlySet<string> = new Set(builtInTools.map((tool) => tool.name));
const tools = new Map<string, SandboxTool>(
  // A compiled tool that would shadow one of the editor's (compiled before that was refused) is left out.
  [...builtInTools, ...loadCompiledTools(project).filter((tool) => !builtInNames.has(tool.name))].map((tool) => [tool.name, tool]),
);

/**
 * Unity keeps its undo history across domain reloads, not across restarts: the sandbox keeps
 * it in Library/ for the editor process that wrote it (a reload's new main thread is in the
 * same process; a restarted editor is another).
 */
function loadUndoHistory(): UndoHistory<ScenesSnapshot> {
  const path = join(project.library, 'Tether', 'undo-history.json');
  const saved = project.readJson<(UndoRecord<ScenesSnapshot> & { editor: string }) | undefined>(path, undefined);
  return new UndoHistory(scenes.undoTarget, {
    ...(saved && saved.editor === settings.editorInstanceId ? { initial: saved } : {}),
    onChange: (record) => project.writeJson(path, { editor: settings.editorInstanceId, ...record }),
  });
}

const asks = new Map<number, { resolve(value: unknown): void; reject(error: Error): void }>();
let nextAsk = 1;

function post(message: FromMainThread): void {
  port.postMessage(message);
}

function failure(error: unknown): WireFailure {
  if (error instanceof TetherError) return { code: error.code, message: error.message, data: error.data };
  return { code: 'TOOL_FAILED', message: error instanceof Error ? error.message : String(error) };
}

function ask(callId: string, kind: 'elicit' | 'sample', payload: Record<string, unknown>): Promise<unknown> {
  const id = nextAsk++;
  return new Promise((resolve, reject) => {
    asks.set(id, { resolve, reject });
    post({ type: 'ask', id, callId, kind, payload });
  });
}

/** A call's context; `cancellable` false for work no call owns (a cancel of a call must not stop it). */
function contextFor(callId: string, reload: { cause?: ReloadCause }, cancellable = true): MainThreadContext {
  const context: MainThreadContext = {
    callId,
    project,
    get scene() {
      return scenes.stage ?? scenes.active;
    },
    scenes,
    undo,
    console,
    settings,
    builtInNames,
    cancelled: () => cancellable && Atomics.load(flags, CANCEL_FLAG) === 1,
    block(ms, onSlice) {
      // A synchronous block, as Unity's main thread during BuildPipeline.BuildPlayer: this
      // thread handles no messages until it returns. Only shared memory can interrupt it.
      const end = Date.now() + ms;
      for (;;) {
        const left = end - Date.now();
        if (left <= 0) return true;
        if (Atomics.wait(flags, CANCEL_FLAG, 0, Math.min(left, 100)) !== 'timed-out' && context.cancelled()) return false;
        onSlice?.(1 - (end - Date.now()) / ms);
      }
    },
    progress: (update) => post({ type: 'progress', callId, ...update }),
    log: (level, data) => post({ type: 'log', callId, level, data }),
    resourceUpdated: (uri) => post({ type: 'resource-updated', uri }),
    elicit: (message, requestedSchema) => ask(callId, 'elicit', { message, requestedSchema }) as Promise<ElicitResult>,
    sample: (params) => ask(callId, 'sample', params),
    announce: (state, expectedMs) => post({ type: 'state', state, ...(expectedMs === undefined ? {} : { expectedMs }) }),
    requestReload: (cause) => {
      reload.cause = cause;
    },
    get playing() {
      return playing;
    },
    set playing(value: boolean) {
      playing = value;
      project.writeJson(project.editorStatePath, { playing, editor: settings.editorInstanceId });
    },
    runTool: async (name, args) => {
      const tool = tools.get(name);
      if (!tool) throw new TetherError('UNKNOWN_TOOL', `No tool named "${name}".`);
      return tool.run(tool.input.parse(args), context);
    },
  };
  return context;
}

async function runCall(callId: string, name: string, rawArgs: Record<string, unknown>): Promise<void> {
  const tool = tools.get(name);
  if (!tool) {
    post({ type: 'done', callId, ok: false, error: { code: 'UNKNOWN_TOOL', message: `No tool named "${name}" on the main thread.` } });
    return;
  }
  project.appendLine(project.executionsPath, { callId, tool: name, at: new Date().toISOString() });
  const reload: { cause?: ReloadCause } = {};
  const before = { scene: scenes.revision, console: console.revision };
  // Subscribers hear of what the call changed, before its result (and any reload it asked for).
  const announceChanges = (): void => {
    if (scenes.revision !== before.scene) post({ type: 'resource-updated', uri: HIERARCHY_URI });
    if (console.revision !== before.console) post({ type: 'resource-updated', uri: CONSOLE_URI });
  };
  try {
    const args = tool.input.parse(rawArgs) as Record<string, unknown>;
    const result = toToolResult((await tool.run(args, contextFor(callId, reload))) as ToolReturn, name);
    announceChanges();
    post({
      type: 'done',
      callId,
      ok: true,
      result,
      ...(reload.cause ? { reload: reload.cause } : {}),
      state: playing ? 'playing' : 'ready',
    });
  } catch (error) {
    announceChanges();
    post({ type: 'done', callId, ok: false, error: failure(error) });
  }
}

function answerRequest(id: number, produce: () => unknown): void {
  try {
    post({ type: 'response', id, ok: true, value: produce() });
  } catch (error) {
    post({ type: 'response', id, ok: false, error: failure(error) });
  }
}

port.on('message', (message: ToMainThread) => {
  switch (message.type) {
    case 'host-started':
      // No call owns it: nothing hears its progress, and no call's cancel stops it.
      void finishInterruptedRun(contextFor('', {}, false));
      break;
    case 'call':
      void runCall(message.callId, message.tool, message.args);
      break;
    case 'request': {
      const state = { scene: scenes.active, console };
      const p = message.payload;
      if (message.kind === 'read-resource') {
        const uri = String(p.uri);
        answerRequest(message.id, () => (fixtures && isConformanceUri(uri) ? readConformanceResource(uri, fixtures) : readResource(uri, state)));
      } else if (message.kind === 'complete') {
        const params = p as unknown as CompleteParams;
        answerRequest(message.id, () => (fixtures && isConformanceRef(params.ref) ? completeConformance(params) : complete(params, state)));
      } else {
        const name = String(p.name);
        const args = (p.arguments ?? {}) as Record<string, string>;
        answerRequest(message.id, () => (fixtures && isConformancePrompt(name) ? getConformancePrompt(name, args) : getPrompt(name, args, state)));
      }
      break;
    }
    case 'answer': {
      const pending = asks.get(message.id);
      asks.delete(message.id);
      if (!pending) break;
      if (message.ok) pending.resolve(message.value);
      else pending.reject(new TetherError(message.error.code as TetherError['code'], message.error.message, message.error.data));
      break;
    }
  }
});

post({ type: 'ready', tools: [...tools.values()].map(describeTool), playing });
