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

/** A reader's limits, with what it accepts from a peer that has not passed the handshake yet. */
export interface ReaderLimits extends FrameLimits {
  /**
   * Largest body accepted before the peer has passed the handshake (unset: maxFrameBytes), so
   * that a stranger cannot make a reader buffer large frames: tether/hello and its answer are
   * small.
   */
  maxFrameBytesBeforeHandshake?: number;
  /**
   * How deep a message may nest (objects and arrays), measured before it is parsed; deeper
   * is refused with INVALID_REQUEST (unset: no bound). Hosts set it: a peer's frame of
   * nested brackets would otherwise cost gigabytes and seconds to parse.
   */
  maxDepth?: number;
}

/** What the reference host and client accept before the handshake. */
export const HANDSHAKE_MAX_FRAME_BYTES = 64 * 1024;

export const DEFAULT_LIMITS: Readonly<FrameLimits> = Object.freeze({
  maxFrameBytes: 64 * 1024 * 1024,
  maxHeaderBytes: 8 * 1024,
  frameTimeoutMs: 30_000,
});

export function resolveLimits<L extends Partial<ReaderLimits>>(overrides: L = {} as L): FrameLimits & L {
  return { ...DEFAULT_LIMITS, ...stripUndefined(overrides) } as FrameLimits & L;
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
