/** The shapes the suite is built from: checks, the context they run in, and their results. */
import type { HelloResult, ToolDescriptor } from '../protocol/index.js';
import type { KitTool } from './kit-tools.js';
import type { RawConnection, RawOptions } from './raw-connection.js';
import type { RequirementId } from './requirements.js';
import type { Session, SessionOptions } from './session.js';
import type { HostTarget } from './target.js';

/** One entry of the manifest: a single, independently runnable assertion about a host. */
export interface Check {
  /** Stable, dotted, grouped by area ("framing.byte-by-byte"); --only matches on it. */
  readonly id: string;
  readonly requirement: RequirementId;
  readonly title: string;
  /** Conformance-kit tools the check drives; without them it is skipped, not failed. */
  readonly needs?: readonly KitTool[];
  /**
   * How many connections the check holds open at once, when more than one: on a host that
   * serves fewer (capabilities.maxConnections) it is skipped, not failed, as opening one more
   * would evict one the check still uses (protocol.md §10).
   */
  readonly connections?: number;
  /** Upper bound on the whole check (default 15 s); a function when it depends on the host's settings. */
  readonly timeoutMs?: number | ((context: CheckContext) => number);
  run(context: CheckContext): Promise<void>;
}

/** What a check gets: the host's advertised settings and ways to open connections it need not close. */
export interface CheckContext {
  /** What the host answered the suite's probe handshake. */
  readonly hello: HelloResult;
  readonly tools: readonly ToolDescriptor[];
  /** Where the host listens now (updated when it comes back from a reload). */
  readonly target: HostTarget;
  /** An authenticated session, closed when the check ends. */
  connect(options?: SessionOptions): Promise<Session>;
  /** A raw TCP connection with no handshake, closed when the check ends. */
  raw(options?: RawOptions): Promise<RawConnection>;
  /** Runs when the check ends, last registered first, whatever the outcome. */
  defer(cleanup: () => unknown): void;
  /** Waits (bounded) until the host accepts a handshake again, after a reload. */
  waitForHostBack(): Promise<HelloResult>;
}

export type CheckStatus = 'passed' | 'failed' | 'skipped';

export interface CheckResult {
  id: string;
  requirement: string;
  title: string;
  status: CheckStatus;
  durationMs: number;
  /** Why it failed or was skipped. */
  detail?: string;
}

export interface ConformanceReport {
  host: { kind: string; name: string; version: string; projectPath: string; pid: number; port: number; protocolVersion: number };
  conformanceKit: boolean;
  startedAt: string;
  durationMs: number;
  results: CheckResult[];
  summary: { passed: number; failed: number; skipped: number };
}
