/** `tether sandbox --project DIR`: runs the sandbox editor, a Unity stand-in, until signalled. */
import { existsSync, statSync } from 'node:fs';
import { resolve } from 'node:path';
import { SandboxEditor } from '../../sandbox/editor.js';
import { ProjectInUseError } from '../../sandbox/project-lock.js';
import { ExitError } from '../exit-error.js';
import { createLogger } from '../logger.js';
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
  conformanceKit?: boolean;
  conformanceFixtures?: boolean;
  logLevel?: string;
}

export async function run(options: SandboxCommandOptions): Promise<SandboxEditor> {
  const projectRoot = resolve(options.project);
  if (!existsSync(projectRoot)) throw new ExitError(`Project folder ${projectRoot} does not exist. Create it or pass another --project.`, 2);
  if (!statSync(projectRoot).isDirectory()) throw new ExitError(`${projectRoot} is a file, not a project folder. Pass the folder that holds Assets/ with --project.`, 2);
  const logger = createLogger('sandbox', options.logLevel);
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
      conformanceKit: options.conformanceKit,
      conformanceFixtures: options.conformanceFixtures,
    }),
    logger,
    // One JSON line per (re)load on stdout, for scripts and tests to wait on.
    onReady: (info) => process.stdout.write(`${JSON.stringify({ event: 'ready', ...info })}\n`),
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
