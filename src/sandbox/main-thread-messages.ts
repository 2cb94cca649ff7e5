/**
 * Messages between the sandbox's network side (the host) and its main thread (a worker).
 * The main thread may block synchronously for minutes, like Unity's during a build; the
 * network side keeps answering pings, status queries and cancels meanwhile. Cancellation
 * of a running call goes through shared memory, because a blocked thread reads no messages.
 */
import type { HostStateName, ToolDescriptor, ToolResult } from '../protocol/index.js';

export interface MainThreadSettings {
  projectRoot: string;
  /**
   * The editor process's instanceId: the same for every domain of one process, new for each
   * process. What outlives a domain reload but not a restart (play mode, the undo history, a
   * PlayMode test run under way) is kept for it: a pid may be the next process's too.
   */
  editorInstanceId: string;
  /** How long build_player blocks the main thread. */
  buildMs: number;
  /** How long compile_scripts takes before the domain reload. */
  compileMs: number;
  /** How long each synthetic test of run_tests takes. */
  testMs: number;
  /** Expose the host conformance kit tools (docs/protocol.md, "Optional conformance kit"). */
  conformanceKit: boolean;
  /**
   * Expose the fixture tools, resources and prompts of the official MCP conformance suite
   * (@modelcontextprotocol/conformance), so `tether serve` can be tested with it.
   */
  conformanceFixtures: boolean;
}

export interface WireFailure {
  code: string;
  message: string;
  data?: Record<string, unknown>;
}

export type ReloadCause = 'compile' | 'play';

export type ToMainThread =
  // The host of this domain is listening: work left by the domain before may go on (its state reaches clients).
  | { type: 'host-started' }
  | { type: 'call'; callId: string; tool: string; args: Record<string, unknown> }
  | { type: 'request'; id: number; kind: 'read-resource' | 'complete' | 'get-prompt'; payload: Record<string, unknown> }
  | { type: 'answer'; id: number; ok: true; value: unknown }
  | { type: 'answer'; id: number; ok: false; error: WireFailure };

export type FromMainThread =
  | { type: 'ready'; tools: ToolDescriptor[]; playing: boolean }
  | { type: 'progress'; callId: string; progress?: number; total?: number; message?: string }
  | { type: 'log'; callId: string; level: 'debug' | 'info' | 'warning' | 'error'; data: unknown }
  | { type: 'done'; callId: string; ok: true; result: ToolResult; reload?: ReloadCause; state?: HostStateName }
  | { type: 'done'; callId: string; ok: false; error: WireFailure }
  | { type: 'response'; id: number; ok: true; value: unknown }
  | { type: 'response'; id: number; ok: false; error: WireFailure }
  | { type: 'ask'; id: number; callId: string; kind: 'elicit' | 'sample'; payload: Record<string, unknown> }
  | { type: 'resource-updated'; uri: string }
  | { type: 'state'; state: HostStateName; expectedMs?: number };

/** Index 0 of the shared Int32Array: 1 while the running call is asked to stop. */
export const CANCEL_FLAG = 0;
