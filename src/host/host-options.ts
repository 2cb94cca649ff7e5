/** What an embedder tells a Host, and the same with every default filled in. */
import { randomBytes, randomUUID } from 'node:crypto';
import { resolveLimits, type ByeReason, type FrameLimits } from '../protocol/index.js';
import { hostsDir, tetherHome } from '../discovery/tether-home.js';
import type { JournalStore } from './journal-store.js';
import { DEFAULT_READ_ONLY_BUDGET_BYTES } from './call-journal.js';
import { DEFAULT_DEADLINE_GRACE_MS } from './call-runner.js';

export interface HostOptions {
  /** What kind of editor this is ("unity", "sandbox", "godot", …). */
  kind: string;
  name: string;
  version: string;
  projectPath: string;
  /** TCP port on 127.0.0.1; 0 (default) picks a free one. */
  port?: number;
  /**
   * The key of the proofs clients give (they never send it: protocol.md §14); generated when
   * omitted. Leave it unset so that each listener (each domain reload) has a fresh one. A given
   * token is kept as the key, and the nonces of its proofs are remembered for the life of the
   * process, so a proof sent to whatever held the port between two listeners opens neither.
   */
  token?: string;
  /** Stable across domain reloads of one editor process; generated when omitted. */
  instanceId?: string;
  /** Journal file; omitted: the journal lives in memory only (and does not survive a restart). */
  journalPath?: string;
  journalStore?: JournalStore;
  /** How long finished calls' outcomes are kept (default 15 min). */
  retentionMs?: number;
  /**
   * How much memory finished read-only calls (kept in memory only, with their results) may
   * hold; past it the oldest are forgotten before their retention ends (default 64 MiB).
   */
  readOnlyBudgetBytes?: number;
  /** Longest silence while a call is queued or running (default 5 s). */
  heartbeatMs?: number;
  /** Execution deadline when neither call nor tool sets one (default 10 min). */
  defaultDeadlineMs?: number;
  /**
   * How long past its deadline a tool that has not stopped is waited for before its call is
   * given up, outcome unknown (protocol.md §8.6; default 30 s). Advertised in the hello.
   */
  deadlineGraceMs?: number;
  /**
   * After a restart or reload, how long calls queued before it wait for their requesters to
   * come back (and perhaps cancel them) before they run; 0 runs them at once (default 2 s).
   */
  requeueGraceMs?: number;
  /**
   * This is the first host of an editor's process (not one after a domain reload): calls found
   * queued in the journal were left by an editor that stopped, and run only if one of their
   * requesters comes back within requeueGraceMs; the others end cancelled, never started.
   * Default: true for the first Host of this process on its journalPath, false for the next
   * ones (a domain reload makes a new Host in the same process); set it when the editor knows
   * better.
   */
  afterRestart?: boolean;
  limits?: Partial<FrameLimits>;
  /** A connection that has not completed the handshake by then is closed (default 10 s). */
  handshakeTimeoutMs?: number;
  /** How often the host pings each client; a client that misses one is dropped. 0 disables (default 15 s). */
  pingIntervalMs?: number;
  /** Connections served at once; past it the oldest is evicted with a bye. Default: no limit. */
  maxConnections?: number;
  /**
   * Connections that have not passed the handshake yet, held at once; past it the oldest of
   * them is closed, so strangers cannot pile up buffers and timers (default 32).
   */
  maxPendingHandshakes?: number;
  /** Where the host record goes (default $TETHER_HOME/hosts). */
  recordsDir?: string;
  /** Write a host record at all (default true). */
  advertise?: boolean;
}

export type ResolvedOptions = Required<Omit<HostOptions, 'journalPath' | 'journalStore' | 'maxConnections' | 'limits'>> & {
  limits: FrameLimits;
  maxConnections: number | undefined;
};

/** How long a host keeps finished calls' outcomes by default. */
export const DEFAULT_RETENTION_MS = 15 * 60_000;

export interface CloseOptions {
  reason: ByeReason;
  message?: string;
  /** For a reload: when clients should expect the host back. */
  expectedBackMs?: number;
}

export function resolveHostOptions(options: HostOptions): ResolvedOptions {
  return {
    port: 0,
    token: randomBytes(24).toString('base64url'),
    instanceId: randomUUID(),
    retentionMs: DEFAULT_RETENTION_MS,
    readOnlyBudgetBytes: DEFAULT_READ_ONLY_BUDGET_BYTES,
    heartbeatMs: 5_000,
    defaultDeadlineMs: 10 * 60_000,
    deadlineGraceMs: DEFAULT_DEADLINE_GRACE_MS,
    requeueGraceMs: 2_000,
    handshakeTimeoutMs: 10_000,
    maxPendingHandshakes: 32,
    pingIntervalMs: 15_000,
    recordsDir: hostsDir(tetherHome()),
    advertise: true,
    ...stripUndefined(options),
    limits: resolveLimits(options.limits),
    maxConnections: options.maxConnections,
  } as ResolvedOptions;
}

/** The bye a closing host says when the embedder gave no message. */
export function defaultByeMessage(reason: ByeReason, expectedBackMs?: number): string {
  switch (reason) {
    case 'reload':
      return `The editor is reloading its code domain${expectedBackMs ? ` and should be back in about ${Math.ceil(expectedBackMs / 1000)} s` : ''}. Reconnect when its host record shows it listening; calls in flight keep their callIds.`;
    case 'quit':
      return 'The editor is quitting. Start it again to continue.';
    default:
      return 'The host is shutting down.';
  }
}

function stripUndefined<T extends object>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
