/** `tether sandbox --project DIR`: runs the sandbox editor, a Unity stand-in, until signalled. */
import { SandboxEditor } from '../../sandbox/editor.js';
import { ProjectInUseError } from '../../sandbox/project-lock.js';
import { ExitError } from '../exit-error.js';
import { createLogger } from '../logger.js';
import { sandboxProjectFolder } from '../project-folder.js';
import { readyLines } from '../ready-lines.js';
import { onShutdownSignal } from '../shutdown.js';

export interface SandboxCommandOptions {
  project: string;
  buildSeconds?: number;
  compileMs?: number;
  reloadMs?: number;
  testMs?: number;
  port?: number;
  heartbeatMs?: number;
  frameTimeoutMs?: number;
  retentionMs?: number;
  maxConnections?: number;
  pingIntervalMs?: number;
  handshakeTimeoutMs?: number;
  deadlineGraceMs?: number;
  conformanceKit?: boolean;
  conformanceFixtures?: boolean;
  logLevel?: string;
  logFormat?: string;
  /** tether start prints its own banner once the editor is first ready. */
  quietFirstReady?: boolean;
}

export async function run(options: SandboxCommandOptions): Promise<SandboxEditor> {
  const projectRoot = sandboxProjectFolder(options.project);
  const logger = createLogger('sandbox', options.logLevel, options.logFormat);
  const editor = new SandboxEditor({
    projectRoot,
    ...(options.buildSeconds === undefined ? {} : { buildMs: Math.round(options.buildSeconds * 1000) }),
    ...definedOnly({
      compileMs: options.compileMs,
      reloadMs: options.reloadMs,
      testMs: options.testMs,
      port: options.port,
      heartbeatMs: options.heartbeatMs,
      frameTimeoutMs: options.frameTimeoutMs,
      retentionMs: options.retentionMs,
      maxConnections: options.maxConnections,
      pingIntervalMs: options.pingIntervalMs,
      handshakeTimeoutMs: options.handshakeTimeoutMs,
      deadlineGraceMs: options.deadlineGraceMs,
      conformanceKit: options.conformanceKit,
      conformanceFixtures: options.conformanceFixtures,
    }),
    logger,
    // Per (re)load on stdout: a JSON line for scripts and tests to wait on, or a readable one on a terminal.
    ...readyLines({ format: options.logFormat, project: projectRoot, quietFirst: options.quietFirstReady ?? false }),
  });
  onShutdownSignal(async (signal) => {
    logger.info({ signal }, 'quitting');
    await editor.quit();
  });
  try {
    await editor.start();
  } catch (error) {
    if (error instanceof ProjectInUseError) throw new ExitError(error.message, 2);
    throw error;
  }
  return editor;
}

function definedOnly<T extends Record<string, unknown>>(value: T): Partial<T> {
  return Object.fromEntries(Object.entries(value).filter(([, v]) => v !== undefined)) as Partial<T>;
}
