/** Limits every reader of the host protocol enforces. All are configurable per connection. */
export interface FrameLimits {
  /** Largest body a frame may carry, in bytes. */
  maxFrameBytes: number;
  /** Largest header block (everything before the blank line), in bytes. */
  maxHeaderBytes: number;
  /**
   * How long a partially received frame may sit without new bytes before the connection is
   * closed. It applies only while a frame is incomplete: an idle connection and a long call
   * are never limited by it.
   */
  frameTimeoutMs: number;
}

export const DEFAULT_LIMITS: Readonly<FrameLimits> = Object.freeze({
  maxFrameBytes: 64 * 1024 * 1024,
  maxHeaderBytes: 8 * 1024,
  frameTimeoutMs: 30_000,
});

export function resolveLimits(overrides: Partial<FrameLimits> = {}): FrameLimits {
  return { ...DEFAULT_LIMITS, ...stripUndefined(overrides) };
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
