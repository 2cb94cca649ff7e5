/** What the call engine needs of a connection: its view of the calls it started or attached to. */
import type { CallProgress, ElicitResult, LogLevel } from '../protocol/index.js';

export interface CallObserver {
  readonly id: string;
  progress(update: CallProgress): void;
  log(callId: string, level: LogLevel, data: unknown, logger?: string): void;
  /** Present when the connection's client can answer questions. */
  elicit?(callId: string, message: string, requestedSchema: Record<string, unknown>, signal: AbortSignal): Promise<ElicitResult>;
  sample?(callId: string, params: Record<string, unknown>, signal: AbortSignal): Promise<unknown>;
}
