/** How sandbox tools are written: a zod input schema and a function run on the main thread. */
import type { z } from 'zod';
import type { ElicitResult, HostStateName, ToolDescriptor } from '../../protocol/index.js';
import type { ToolReturn } from '../../host/tools.js';
import type { ConsoleLog } from '../console-log.js';
import type { MainThreadSettings, ReloadCause } from '../main-thread-messages.js';
import type { Project } from '../project.js';
import type { Scene } from '../scene.js';
import type { SceneSet, ScenesSnapshot } from '../scenes.js';
import type { UndoHistory } from '../undo.js';

export interface MainThreadContext {
  readonly callId: string;
  readonly project: Project;
  /** The active scene (scenes.active). */
  readonly scene: Scene;
  /** The loaded scenes and the project's scene assets. */
  readonly scenes: SceneSet;
  /** The editor's undo history: every tool that edits makes its whole change one group (undo.group). */
  readonly undo: UndoHistory<ScenesSnapshot>;
  readonly console: ConsoleLog;
  readonly settings: MainThreadSettings;
  /** The names of the editor's own tools (not the project's). */
  readonly builtInNames: ReadonlySet<string>;
  /** True once the call was cancelled (or passed its deadline). Readable while blocked. */
  cancelled(): boolean;
  /** Blocks the thread synchronously for `ms`, waking early on cancellation. Returns false if cancelled. */
  block(ms: number, onSlice?: (fraction: number) => void): boolean;
  progress(update: { progress?: number; total?: number; message?: string }): void;
  log(level: 'debug' | 'info' | 'warning' | 'error', data: unknown): void;
  elicit(message: string, requestedSchema: Record<string, unknown>): Promise<ElicitResult>;
  sample(params: Record<string, unknown>): Promise<unknown>;
  /** Tells the clients subscribed to `uri` that the resource changed. */
  resourceUpdated(uri: string): void;
  /** Tells every client what the editor is doing (e.g. compiling for about `expectedMs`). */
  announce(state: HostStateName, expectedMs?: number): void;
  /** After this call's result is journaled, the domain reloads. */
  requestReload(cause: ReloadCause): void;
  /** Whether the editor is in play mode (kept across reloads). */
  playing: boolean;
  /** The tools the editor has, by name (for menu items that call tools). */
  runTool(name: string, args: Record<string, unknown>): Promise<ToolReturn>;
}

export interface SandboxTool<Schema extends z.ZodType = z.ZodType> {
  name: string;
  title?: string;
  description: string;
  input: Schema;
  /** A JSON Schema to advertise instead of the one derived from `input` (custom tools). */
  inputJsonSchema?: Record<string, unknown>;
  output?: z.ZodType;
  annotations: ToolDescriptor['annotations'];
  execution?: Partial<ToolDescriptor['execution']>;
  run(args: z.output<Schema>, context: MainThreadContext): ToolReturn | Promise<ToolReturn>;
}

/** Keeps the argument type tied to the schema at each definition site. */
export function defineTool<Schema extends z.ZodType>(tool: SandboxTool<Schema>): SandboxTool {
  return tool as unknown as SandboxTool;
}
